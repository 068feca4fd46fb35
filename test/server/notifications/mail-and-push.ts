import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify, type JWTPayload } from 'jose';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';
import type { WebPushSubscription } from '../../../server/notifications/providers/web-push.js';

/**
 * Real receivers for e-mail and Web Push: an SMTP server (smtp-server) that parses every mail it
 * accepts, and an HTTP endpoint standing in for a browser's push service that checks the VAPID
 * token and decrypts each push with the subscription's private key, as the browser would.
 */

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer;
};

export interface ReceivedMail {
  envelopeTo: string[];
  parsed: ParsedMail;
}

export class SmtpSink {
  readonly mails: ReceivedMail[] = [];
  /** Logins the server accepted, as `user:password`. */
  readonly logins: string[] = [];
  port = 0;

  private readonly server: SMTPServer;

  private constructor(credentials: { username: string; password: string } | undefined) {
    const logins = this.logins;
    const mails = this.mails;
    this.server = new SMTPServer({
      // Plain SMTP on loopback: no STARTTLS offered, so the test needs no certificate.
      disabledCommands: credentials === undefined ? ['STARTTLS', 'AUTH'] : ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: credentials === undefined,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === credentials?.username && auth.password === credentials?.password) {
          logins.push(`${auth.username}:${auth.password}`);
          callback(null, { user: auth.username });
        } else {
          callback(new Error('Invalid username or password'));
        }
      },
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((parsed) => {
            mails.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), parsed });
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
  }

  /** With `credentials`, the server requires that login; without, it takes mail from anyone. */
  static async start(credentials?: { username: string; password: string }): Promise<SmtpSink> {
    const sink = new SmtpSink(credentials);
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    sink.port = (sink.server.server.address() as AddressInfo).port;
    return sink;
  }

  async waitForMails(count: number): Promise<ReceivedMail[]> {
    await expect
      .poll(() => this.mails.length, { timeout: 15_000, interval: 20 })
      .toBeGreaterThanOrEqual(count);
    return this.mails;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A browser's side of a subscription: its key pair and auth secret, and the endpoint it was given. */
export class BrowserSubscription {
  readonly ecdh = createECDH('prime256v1');
  readonly authSecret = randomBytes(16).toString('base64url');

  constructor(readonly endpoint: string) {
    this.ecdh.generateKeys();
  }

  toJSON(): WebPushSubscription {
    return {
      endpoint: this.endpoint,
      expirationTime: null,
      keys: { p256dh: this.ecdh.getPublicKey().toString('base64url'), auth: this.authSecret },
    };
  }

  decrypt(body: Buffer): string {
    return ece
      .decrypt(body, { version: 'aes128gcm', privateKey: this.ecdh, authSecret: this.authSecret })
      .toString('utf8');
  }
}

export interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Stands in for a push service: records every push, answers with the status the test sets per path. */
export class PushServiceStandIn {
  readonly pushes: ReceivedPush[] = [];
  /** Status answered per path; 201 (Created) for paths not listed. */
  readonly statusByPath = new Map<string, number>();
  url = '';

  private readonly server: Server;

  private constructor() {
    this.server = createServer((request, response) => {
      const parts: Buffer[] = [];
      request.on('data', (chunk: Buffer) => parts.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        this.pushes.push({ path, headers: request.headers, body: Buffer.concat(parts) });
        response.writeHead(this.statusByPath.get(path) ?? 201).end();
      });
    });
  }

  static async start(): Promise<PushServiceStandIn> {
    const standIn = new PushServiceStandIn();
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
    standIn.url = `http://127.0.0.1:${(standIn.server.address() as AddressInfo).port}`;
    return standIn;
  }

  subscription(path: string): BrowserSubscription {
    return new BrowserSubscription(`${this.url}${path}`);
  }

  pushesTo(path: string): ReceivedPush[] {
    return this.pushes.filter((push) => push.path === path);
  }

  async waitForPushes(path: string, count: number): Promise<ReceivedPush[]> {
    await expect
      .poll(() => this.pushesTo(path).length, { timeout: 15_000, interval: 20 })
      .toBeGreaterThanOrEqual(count);
    return this.pushesTo(path);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Checks a push's `Authorization: vapid t=<JWT>, k=<public key>` as a push service does: the JWT is
 * signed with the key named in `k`, for the endpoint's origin. Returns the key and the JWT's claims.
 */
export async function verifyVapid(
  push: ReceivedPush,
  origin: string,
): Promise<{ publicKey: string; claims: JWTPayload }> {
  const header = String(push.headers.authorization ?? '');
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  if (match === null) throw new Error(`not a VAPID authorization: ${header}`);
  const [, token = '', publicKey = ''] = match;
  const point = Buffer.from(publicKey, 'base64url');
  const key = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    'ES256',
  );
  const { payload } = await jwtVerify(token, key, { audience: origin });
  return { publicKey, claims: payload };
}
