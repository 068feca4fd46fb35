import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { errorResponse, MAX_BODY_BYTES, notFoundResponse } from '../http/app.js';
import type { ChatEnv } from '../http/context.js';
import { rateLimit, type RateLimits } from '../http/rate-limit.js';
import { resolveApp } from '../http/tenancy.js';
import type { Logger } from '../log.js';
import type { AppRepository } from '../repositories/apps.js';
import { presentTo } from '../services/private-metadata.js';
import type { ClientEnv, ClientSession } from './context.js';
import type { ClientApiDeps } from './deps.js';
import { conversationRoutes } from './routes/conversations.js';
import { messageRoutes } from './routes/messages.js';
import { peopleRoutes } from './routes/people.js';
import { sessionRoutes } from './routes/session.js';
import { requireSession } from './session.js';

export type { ClientApiDeps } from './deps.js';
export { ClientSettings, ClientSettingsChanges, ClientSettingsRepository } from './client-settings.js';
export { ReadStateRepository } from './read-state.js';
export { SocketTokens, type SocketIdentity } from './socket-token.js';
export type { ClientSession } from './context.js';

/** Calls made before there is a session: login with an auth key, and the app settings. */
const isSessionless = (method: string, path: string): boolean =>
  (method === 'POST' && /^\/v3\/users\/[^/]+\/auth_tokens\/?$/.test(path)) ||
  (method === 'GET' && /^\/v3\/settings\/?$/.test(path));

/**
 * CometChat's client API (protocol §2) under `/v3`: what the official SDK and the widget call with
 * an `authToken`, acting as the logged-in user. It shares the paths of the server API, so requests
 * reach it through `clientRequests` below.
 */
export function createClientApi(
  deps: ClientApiDeps,
  options: { logger: Logger; rateLimits: RateLimits | false },
): Hono<ClientEnv> {
  const { apps, authTokens, users } = deps.services;
  const api = new Hono<ClientEnv>().basePath('/v3');
  api.onError((error, c) => errorResponse(error, c, options.logger));
  api.notFound((c) => notFoundResponse(c));
  api.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new HTTPException(413);
      },
    }),
  );
  const session = requireSession(apps, authTokens, users);
  api.use((c, next) => (isSessionless(c.req.method, c.req.path) ? next() : session(c, next)));
  // Every answer leaves through `c.json`: presenting it here, no route can hand the caller another
  // user's private metadata. The viewer is read when the answer is made (a login sets it).
  api.use(async (c, next) => {
    const json = c.json as (...args: unknown[]) => Response;
    c.json = ((object: unknown, ...rest: unknown[]) =>
      json(
        presentTo(object, (c.get('session') as ClientSession | undefined)?.uid),
        ...rest,
      )) as typeof c.json;
    await next();
  });
  if (options.rateLimits !== false) {
    const limit = rateLimit(options.rateLimits) as unknown as MiddlewareHandler<ClientEnv>;
    api.use((c, next) => (c.get('session') === undefined ? next() : limit(c, next)));
  }
  for (const routes of [sessionRoutes, messageRoutes, conversationRoutes, peopleRoutes]) {
    api.route('/', routes(deps));
  }
  return api;
}

/**
 * Sends client calls to the client API: those carrying an `authToken`, logins with an authOnly key,
 * and `GET /v3/settings`. Everything else (fullAccess `apikey` calls) stays with the server API.
 */
export function clientRequests(apps: AppRepository, clientApi: Hono<ClientEnv>): MiddlewareHandler<ChatEnv> {
  return async (c, next) => {
    const authToken = c.req.header('authToken');
    let isClient = (authToken !== undefined && authToken !== '') || isSessionless(c.req.method, c.req.path);
    if (isClient && c.req.method === 'POST' && c.req.header('apiKey') !== undefined) {
      // A login by UID uses an authOnly key; a fullAccess key on that path is the server API's.
      const app = await resolveApp(apps, c.req.header('host'), c.req.header('appId'));
      isClient = (await apps.keyScope(app.appId, c.req.header('apiKey') ?? '')) === 'authOnly';
    }
    if (!isClient) return next();
    return clientApi.fetch(c.req.raw, c.env);
  };
}
