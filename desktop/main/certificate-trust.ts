import { CertificateFingerprint } from '../../shared/chat-connection.js';
import type { ElectronApp, WebContents } from './electron-api.js';

/** The one certificate trusted beyond the system's: the configured chat host's, by fingerprint. */
export interface TrustedChatCertificate {
  /** `host[:port]` as the Chats settings give it; its https origin is the only one trusted. */
  host: string;
  /** `sha256/<base64>`, as Electron reports `certificate.fingerprint`. */
  fingerprint: string;
}

/** What `certificate-error` hands over, with whether it came from the app's own window. */
export interface CertificateErrorCase {
  url: string;
  fingerprint: string;
  fromAppWindow: boolean;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a certificate Chromium refused is the chat host's own: only for the app's window, only
 * at the configured host's https origin, only with exactly the configured fingerprint. Anything
 * malformed is refused.
 */
export function trustsCertificate(
  trusted: TrustedChatCertificate | undefined,
  error: CertificateErrorCase,
): boolean {
  if (trusted === undefined || !error.fromAppWindow) return false;
  const fingerprint = CertificateFingerprint.safeParse(trusted.fingerprint);
  if (!fingerprint.success || fingerprint.data !== error.fingerprint) return false;
  if (!/^(https|wss):\/\//i.test(error.url)) return false;
  const expected = originOf(`https://${trusted.host}`);
  // The WebSocket reaches the same host and port over wss:.
  const seen = originOf(error.url.replace(/^wss:/i, 'https:'));
  return expected !== undefined && seen === expected;
}

/**
 * Lets the window reach the chat host's self-signed certificate: on `certificate-error`, the
 * certificate is accepted only when `trustsCertificate` says so; every other error keeps
 * Chromium's refusal.
 */
export function trustChatCertificate(
  app: Pick<ElectronApp, 'on'>,
  appWindow: () => WebContents | undefined,
  trusted: () => TrustedChatCertificate | undefined,
): void {
  app.on('certificate-error', (event, webContents, url, _error, certificate, callback) => {
    const trust = trustsCertificate(trusted(), {
      url,
      fingerprint: certificate.fingerprint,
      fromAppWindow: webContents === appWindow(),
    });
    if (trust) event.preventDefault();
    callback(trust);
  });
}
