import type { MiddlewareHandler } from 'hono';
import { ChatError } from '../errors.js';
import { resolveApp } from '../http/tenancy.js';
import type { AppRepository } from '../repositories/apps.js';
import type { AuthTokenRepository } from '../repositories/auth-tokens.js';
import type { UserRepository } from '../repositories/users.js';
import type { ClientEnv } from './context.js';

/** CometChat's code for a dead session: the SDK logs itself out when it sees it. */
export const sessionEnded = (): ChatError =>
  new ChatError(401, 'AUTH_ERR_AUTH_TOKEN_NOT_FOUND', 'The auth token does not exist or has been revoked.');

/** The SDK's session id, sent as the `resource` header; bounded so a header cannot bloat frames. */
export function deviceIdOf(header: string | undefined): string | undefined {
  return header !== undefined && /^[\w.:-]{1,200}$/.test(header) ? header : undefined;
}

/**
 * Client API access: the `authToken` header names a session of a user of the request's app. The
 * session's user and device are the origin of whatever the request causes.
 */
export function requireSession(
  apps: AppRepository,
  authTokens: AuthTokenRepository,
  users: UserRepository,
): MiddlewareHandler<ClientEnv> {
  return async (c, next) => {
    const app = await resolveApp(apps, c.req.header('host'), c.req.header('appId'));
    const authToken = c.req.header('authToken');
    if (authToken === undefined || authToken === '') {
      throw new ChatError(401, 'AUTH_ERR_EMPTY_AUTH_TOKEN', 'The authToken header is missing.');
    }
    const session = await authTokens.find(app.appId, authToken);
    if (session === undefined || (await users.find(app.appId, session.uid)) === undefined)
      throw sessionEnded();
    const deviceId = deviceIdOf(c.req.header('resource'));
    c.set('app', app);
    c.set('session', { uid: session.uid, authToken, deviceId });
    c.set('origin', { uid: session.uid, deviceId });
    await next();
  };
}
