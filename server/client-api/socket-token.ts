import { createHash } from 'node:crypto';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import type { AuthTokenRepository } from '../repositories/auth-tokens.js';

/** Who a verified socket token speaks for. */
export interface SocketIdentity {
  appId: string;
  uid: string;
  authToken: string;
}

const sessionIdOf = (authToken: string): string =>
  createHash('sha256').update(`parley-session:${authToken}`).digest('hex');
const keyOf = (authToken: string): Uint8Array =>
  createHash('sha256').update(`parley-socket-key:${authToken}`).digest();

/**
 * The `jwt` of `/me`, which the WebSocket's auth frame carries. It is signed with a key derived
 * from the session's auth token, so no extra secret has to be kept, and it dies with the session:
 * once the auth token is deleted (logout), no key verifies it any more.
 */
export class SocketTokens {
  constructor(private readonly authTokens: AuthTokenRepository) {}

  async issue(appId: string, uid: string, authToken: string): Promise<string> {
    return new SignJWT({ app: appId, sid: sessionIdOf(authToken) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(uid)
      .setIssuedAt()
      .setIssuer('parley')
      .sign(keyOf(authToken));
  }

  /** The identity of a token whose session still exists, or undefined for anything else. */
  async verify(token: unknown): Promise<SocketIdentity | undefined> {
    if (typeof token !== 'string' || token.length > 4096) return undefined;
    let claims: ReturnType<typeof decodeJwt>;
    try {
      claims = decodeJwt(token);
    } catch {
      return undefined;
    }
    const { app, sid, sub } = claims;
    if (typeof app !== 'string' || typeof sid !== 'string' || typeof sub !== 'string') return undefined;
    const session = await this.authTokens.findBySession(
      app,
      sub,
      (authToken) => sessionIdOf(authToken) === sid,
    );
    if (session === undefined) return undefined;
    try {
      await jwtVerify(token, keyOf(session.authToken), {
        issuer: 'parley',
        subject: sub,
        algorithms: ['HS256'],
      });
    } catch {
      return undefined;
    }
    return { appId: app, uid: sub, authToken: session.authToken };
  }
}
