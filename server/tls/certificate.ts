import { createHash, X509Certificate } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface TlsCertificate {
  key: string;
  cert: string;
}

export interface LocalCertificate extends TlsCertificate {
  /** Where the certificate is, for trusting it (`NODE_EXTRA_CA_CERTS`, the system or browser store). */
  certPath: string;
  /** True when it was made now rather than read from the data dir. */
  created: boolean;
}

/** Renewed when less than this is left, so a long-running server does not cross the expiry date. */
const RENEW_BEFORE_MS = 7 * 24 * 3600 * 1000;

async function readValid(keyPath: string, certPath: string): Promise<TlsCertificate | undefined> {
  try {
    const [key, cert] = await Promise.all([readFile(keyPath, 'utf8'), readFile(certPath, 'utf8')]);
    const expires = new Date(new X509Certificate(cert).validTo).getTime();
    return expires - Date.now() > RENEW_BEFORE_MS ? { key, cert } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The self-signed certificate for `localhost`, `*.localhost`, 127.0.0.1 and ::1 kept in
 * `<dataDir>/tls/`: made once (valid a year) and reused, so a browser told to trust it keeps
 * trusting it across restarts. The SDK only speaks https and wss.
 */
export async function localhostCertificate(dataDir: string): Promise<LocalCertificate> {
  const folder = join(dataDir, 'tls');
  const keyPath = join(folder, 'localhost-key.pem');
  const certPath = join(folder, 'localhost-cert.pem');
  const existing = await readValid(keyPath, certPath);
  if (existing !== undefined) return { ...existing, certPath, created: false };
  const notBeforeDate = new Date(Date.now() - 60_000);
  // Loaded only to make a certificate, once per data dir.
  const { generate } = await import('selfsigned');
  const generated = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + 365 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 2, value: '*.localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFile(keyPath, generated.private, { mode: 0o600 });
  await writeFile(certPath, generated.cert, { mode: 0o644 });
  return { key: generated.private, cert: generated.cert, certPath, created: true };
}

/**
 * A certificate's fingerprint as Electron reports it (`sha256/` and the base64 SHA-256 of its DER
 * bytes): what the desktop app's Chats trusts for a self-signed chat host. Public, like the certificate.
 */
export function certificateFingerprint(certPem: string): string {
  return `sha256/${createHash('sha256').update(new X509Certificate(certPem).raw).digest('base64')}`;
}

/** What an operator does to stop browsers and Node from refusing the certificate. */
export function trustHint(certPath: string): string {
  return (
    `TLS: self-signed certificate ${certPath}. To trust it: add it to your browser's or system's ` +
    `certificate store (Debian: copy it to /usr/local/share/ca-certificates/parley-localhost.crt ` +
    `and run update-ca-certificates), or for Node set NODE_EXTRA_CA_CERTS=${certPath}.`
  );
}
