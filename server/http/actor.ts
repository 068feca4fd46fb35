import type { MiddlewareHandler } from 'hono';
import { ChatError, badRequest } from '../errors.js';
import { APP_ORIGIN } from '../events.js';
import type { App, AppRepository } from '../repositories/apps.js';
import type { AuthTokenRepository } from '../repositories/auth-tokens.js';
import type { UserRepository } from '../repositories/users.js';
import { presentTo } from '../services/private-metadata.js';
import { EntityId } from '../validation.js';
import type { Actor, ChatContext, ChatEnv } from './context.js';
import { resolveApp } from './tenancy.js';

/** CometChat's code for a dead session: the SDK logs itself out when it sees it. */
export const sessionEnded = (): ChatError =>
  new ChatError(401, 'AUTH_ERR_AUTH_TOKEN_NOT_FOUND', 'The auth token does not exist or has been revoked.');

/** The answer for a path no API serves, and for a path the caller's API does not have. */
export const apiNotFound = (method: string, path: string): ChatError =>
  new ChatError(404, 'ERR_API_NOT_FOUND', `No API ${method} ${path}.`, { method });

/** The SDK's session id, sent as the `resource` header; bounded so a header cannot bloat frames. */
export function deviceIdOf(header: string | undefined): string | undefined {
  return header !== undefined && /^[\w.:-]{1,200}$/.test(header) ? header : undefined;
}

/** A login by UID with an authOnly key: the call that opens a client session. */
const LOGIN_PATH = /^\/v3\/users\/[^/]+\/auth_tokens\/?$/;
/** The SDK reads the app settings before it has a session. */
const SETTINGS_PATH = /^\/v3\/settings\/?$/;

const sessionless = (app: App): Actor => ({
  app,
  kind: 'client',
  uid: undefined,
  origin: APP_ORIGIN,
  authToken: undefined,
});

/** The `onBehalfOf` header: the UID the server acts for, lower-cased. */
function onBehalfOf(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = EntityId.safeParse(value);
  if (!parsed.success) throw badRequest('onBehalfOf', parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data;
}

/**
 * The one authentication of `/v3`: sets `actor`. A non-empty `authToken` makes a client call, a
 * login by UID with an authOnly `apiKey` and `GET /v3/settings` are client calls without a session,
 * everything else needs a fullAccess `apikey` (`onBehalfOf` names the user it acts for). A POST
 * that carries an `apiKey` besides an `authToken` is the server's unless the key is authOnly.
 * A client call's device is the origin of whatever it causes, and its answers are presented to its
 * user.
 */
export function resolveActor(
  apps: AppRepository,
  authTokens: AuthTokenRepository,
  users: UserRepository,
): MiddlewareHandler<ChatEnv> {
  return async (c, next) => {
    const { method, path } = c.req;
    const app = await resolveApp(apps, c.req.header('host'), c.req.header('appId'));
    if (method === 'GET' && SETTINGS_PATH.test(path)) {
      c.set('actor', sessionless(app));
      presentAnswersToClient(c);
      return next();
    }
    const authToken = c.req.header('authToken');
    const apiKey = c.req.header('apikey');
    const hasSession = authToken !== undefined && authToken !== '';
    const isLogin = method === 'POST' && LOGIN_PATH.test(path);
    let clientCall = hasSession || isLogin;
    let scope: Awaited<ReturnType<AppRepository['keyScope']>>;
    if (clientCall && method === 'POST' && apiKey !== undefined) {
      scope = await apps.keyScope(app.appId, apiKey);
      clientCall = scope === 'authOnly';
    }
    if (clientCall && isLogin && scope === 'authOnly') {
      c.set('actor', sessionless(app));
      presentAnswersToClient(c);
      return next();
    }
    if (clientCall && !isLogin) {
      const session = await authTokens.find(app.appId, authToken ?? '');
      if (session === undefined || (await users.find(app.appId, session.uid)) === undefined) {
        throw sessionEnded();
      }
      const origin = { uid: session.uid, deviceId: deviceIdOf(c.req.header('resource')) };
      c.set('actor', { app, kind: 'client', uid: session.uid, origin, authToken });
      presentAnswersToClient(c);
      return next();
    }
    // What is left is the server's, a login without an authOnly key included: it is refused below.
    if (apiKey === undefined || apiKey === '') {
      throw new ChatError(401, 'AUTH_ERR_EMPTY_APIKEY', 'The apikey header is missing.');
    }
    scope ??= await apps.keyScope(app.appId, apiKey);
    if (scope === undefined) {
      throw new ChatError(
        401,
        'AUTH_ERR_APIKEY_NOT_FOUND',
        `The apikey is not a key of the app ${app.appId}.`,
      );
    }
    if (scope !== 'fullAccess') {
      throw new ChatError(
        403,
        'AUTH_ERR_NO_ACCESS',
        'This API needs a key with fullAccess scope; the given key is authOnly.',
      );
    }
    const uid = onBehalfOf(c.req.header('onBehalfOf'));
    c.set('actor', { app, kind: 'server', uid, origin: { uid }, authToken: undefined });
    return next();
  };
}

/**
 * Every answer to a client leaves through `c.json`: presenting it here, no route can hand the
 * caller another user's `metadata["@private"]`. The viewer is read when the answer is made, so a
 * login's answer is its new user's own. The server API sees everything of its app.
 */
function presentAnswersToClient(c: ChatContext): void {
  const json = c.json as (...args: unknown[]) => Response;
  c.json = ((object: unknown, ...rest: unknown[]) =>
    json(presentTo(object, c.get('actor').uid), ...rest)) as typeof c.json;
}

/** Routes only one API has: to the other kind of caller they do not exist. */
export function only(kind: Actor['kind']): MiddlewareHandler<ChatEnv> {
  return async (c, next) => {
    if (c.get('actor').kind !== kind) throw apiNotFound(c.req.method, c.req.path);
    await next();
  };
}

/**
 * The user a call acts as: the session's user, or the server's `onBehalfOf`, which calls that act
 * as a user (sending, reading one's conversations) require.
 */
export function actingUid(c: ChatContext): string {
  const { uid, kind } = c.get('actor');
  if (uid !== undefined) return uid;
  if (kind === 'server') throw badRequest('onBehalfOf', 'the onBehalfOf header (a UID) is required');
  throw sessionEnded();
}

/** The client's session: its user and token. */
export function sessionOf(c: ChatContext): { uid: string; authToken: string } {
  const { uid, authToken } = c.get('actor');
  if (uid === undefined || authToken === undefined) throw sessionEnded();
  return { uid, authToken };
}
