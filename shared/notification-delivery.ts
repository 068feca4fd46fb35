import { z } from 'zod';

/**
 * Contracts of Parley's own delivery providers, beside CometChat's hosted and custom ones: e-mail
 * over SMTP (what a self-hoster has) and Web Push to browsers (VAPID). What the widget and its
 * service worker share without zod is in `web-push.ts`.
 */

// --- E-mail over SMTP ---------------------------------------------------------------------------

const port = z.number().int().min(1).max(65_535, { error: 'a port is an integer from 1 to 65535' });

/** The SMTP provider as an operator writes it; `password` is write-only (never shown back). */
export const SmtpProviderConfig = z.strictObject({
  isEnabled: z.boolean(),
  host: z.string().trim().min(1, { error: 'host names the SMTP server' }),
  port: port.default(587),
  /** TLS from the first byte (port 465); otherwise STARTTLS is used when the server offers it. */
  secure: z.boolean().default(false),
  username: z.string().min(1).optional(),
  password: z.string().min(1).optional(),
  fromAddress: z.email({ error: 'fromAddress must be an e-mail address' }),
  fromName: z.string().trim().min(1).max(200).optional(),
});
export type SmtpProviderConfig = z.infer<typeof SmtpProviderConfig>;

/** What the API and dashboard show of an SMTP provider: whether a password is set, never the password. */
export type SmtpProviderView = Omit<SmtpProviderConfig, 'password'> & { hasPassword: boolean };

export function smtpProviderView({ password, ...shown }: SmtpProviderConfig): SmtpProviderView {
  return { ...shown, hasPassword: password !== undefined };
}

// --- Web Push -----------------------------------------------------------------------------------

const base64url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: 'must be base64url text' });

/** `PushSubscription.toJSON()` as a browser gives it: where to send, and the keys to encrypt for. */
export const WebPushSubscription = z.object({
  endpoint: z.url({ protocol: /^https?$/, error: 'endpoint must be an http(s) URL' }).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url.max(200), auth: base64url.max(100) }),
});
export type WebPushSubscription = z.infer<typeof WebPushSubscription>;
