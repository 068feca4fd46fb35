import { z } from 'zod';
import { Uid } from './message.js';

/** A certificate's SHA-256 fingerprint in Electron's format: `sha256/` and 44 base64 characters. */
export const CertificateFingerprint = z
  .string()
  .trim()
  .regex(
    /^sha256\/[A-Za-z0-9+/]{43}=$/,
    'must be a SHA-256 fingerprint such as sha256/ followed by 44 base64 characters (as `parley start` prints it)',
  );

/**
 * Where the desktop app's Chats section connects: a CometChat app (or Parley's chat service
 * speaking for one) and the operator who signs in. Without `host` the UI Kit talks to CometChat's
 * own cloud for the region, as it normally does; with it, to that `host[:port]` over https/wss.
 */
export const ChatConnectionSettings = z.object({
  appId: z.string().trim().min(1, 'must not be empty').max(100),
  region: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{1,20}$/i, 'must be a region such as us, eu or in')
    .toLowerCase(),
  operatorUid: Uid,
  host: z
    .string()
    .trim()
    .regex(
      /^[a-z0-9.-]+(:\d{1,5})?$/i,
      'must be a host name with an optional port, such as localhost:4000 (no https://)',
    )
    .nullable()
    .default(null),
  /**
   * The one self-signed certificate the desktop app trusts for `host`, as Electron writes a
   * certificate's fingerprint: `sha256/` and the base64 SHA-256 of its DER bytes.
   */
  certificateFingerprint: CertificateFingerprint.nullable().default(null),
});
export type ChatConnectionSettings = z.infer<typeof ChatConnectionSettings>;

/** The settings with the credential the operator signs in with: an auth key, or an auth token. */
export const ChatConnection = ChatConnectionSettings.extend({
  authKey: z.string().min(1).optional(),
  authToken: z.string().min(1).optional(),
}).refine(
  (connection) => connection.authKey !== undefined || connection.authToken !== undefined,
  'give an auth key or an auth token',
);
export type ChatConnection = z.infer<typeof ChatConnection>;
