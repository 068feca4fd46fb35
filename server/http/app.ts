import { uploadUrlRoutes } from '../media/presigned.js';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { cors } from 'hono/cors';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { isMultipart, refusalOf, requestLines } from '../../shared/server-kit/index.js';
import { onlineMemberRoutes } from '../client-api/online-members.js';
import { ChatError } from '../errors.js';
import { FORM_OVERHEAD_BYTES, MAX_UPLOAD_BYTES_CEILING } from '../media/policy.js';
import type { Logger } from '../log.js';
import { notificationDeliveryRoutes } from '../notifications/index.js';
import { blockedUserRoutes } from '../routes/blocked-users.js';
import { conversationRoutes } from '../routes/conversations.js';
import type { RouteDeps } from '../routes/deps.js';
import type { ChatCore } from '../services/registry.js';
import { groupRoutes } from '../routes/groups.js';
import { messageRoutes } from '../routes/messages.js';
import { apiKeyRoutes } from '../routes/api-keys.js';
import { roleRoutes } from '../routes/roles.js';
import { moderationRoutes } from '../routes/moderation.js';
import { moderationRuleRoutes } from '../routes/moderation-rules.js';
import { notificationRoutes } from '../routes/notifications.js';
import { pinRoutes } from '../routes/pins.js';
import { reactionRoutes } from '../routes/reactions.js';
import { statsRoutes } from '../routes/stats.js';
import { threadRoutes } from '../routes/threads.js';
import { sessionRoutes } from '../routes/session.js';
import { userRoutes } from '../routes/users.js';
import { apiNotFound, resolveActor } from './actor.js';
import type { ChatEnv } from './context.js';
import { registerSecuritySchemes, type ChatRoutes } from './openapi.js';
import { rateLimit, type RateLimits, type SharedRateLimitStore } from './rate-limit.js';

export interface HttpOptions {
  logger: Logger;
  rateLimits: RateLimits | false;
  /** Where the processes joined by Redis count requests together; without it each counts alone. */
  rateLimitStore?: SharedRateLimitStore | undefined;
  /** More `/v3` resources (the AI agents'), behind the same authentication, limits and presenter. */
  routes?: ReadonlyArray<ChatRoutes>;
  /** Pages beside `/v3`: the dashboard, the demo. */
  pages?: ReadonlyArray<(app: OpenAPIHono<ChatEnv>) => void>;
}

/** CometChat's error envelope for a refusal; anything unexpected is logged and answered as a 500. */
export function errorResponse(error: Error, c: Context, logger: Logger): Response {
  const refusal = refusalOf(error);
  if (refusal?.status === 413 && !(refusal instanceof ChatError)) {
    const limit = isUpload(c) ? MAX_UPLOAD_BODY_BYTES : MAX_BODY_BYTES;
    const refused = new ChatError(413, 'ERR_BAD_REQUEST', `body: at most ${limit} bytes`, {
      field: 'body',
    });
    return c.json(refused.toEnvelope(), 413);
  }
  if (refusal !== undefined) return c.json(ChatError.of(refusal).toEnvelope(), refusal.status);
  logger.error('request_failed', {
    method: c.req.method,
    route: c.req.routePath,
    error: error instanceof Error ? error.name : 'unknown',
    reason: error instanceof Error ? error.message : undefined,
  });
  return c.json(
    new ChatError(500, 'ERR_EXCEPTION', 'The request failed inside the service.').toEnvelope(),
    500,
  );
}

export function notFoundResponse(c: Context): Response {
  return c.json(apiNotFound(c.req.method, c.req.path).toEnvelope(), 404);
}

/** The headers CometChat's SDK sends (protocol §2.1), so browsers let its cross-origin calls through. */
const CLIENT_HEADERS = [
  'accept',
  'apikey',
  'appid',
  'authorization',
  'authtoken',
  'chatapiversion',
  'content-type',
  'onbehalfof',
  'onbehalfofuser',
  'resource',
  'sdk',
];

/** Requests larger than this are refused before they are read: a message is at most 65 KB. */
export const MAX_BODY_BYTES = 256 * 1024;
/** A media message's multipart upload: the largest cap an app may set, and its form's other fields. */
const MAX_UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES_CEILING + FORM_OVERHEAD_BYTES;
const UPLOAD_PATH = /^\/v3\/(messages|bots\/[^/]+\/messages|messages\/[^/]+\/thread)$/;

/** A multipart POST to a route that sends messages: the only requests that carry files. */
const isUpload = (c: Context): boolean =>
  c.req.method === 'POST' && UPLOAD_PATH.test(c.req.path) && isMultipart(c);

/**
 * The chat service's HTTP surface: one route tree under `/v3` for the server API and the client
 * API (one body limit, one authentication resolving the actor and presenting client answers, one
 * rate limit), pages beside it, and a health check.
 */
/** `core` resolves each request's actor; the routes get `deps`, whose services they call. */
export function createHttpApp(core: ChatCore, deps: RouteDeps, options: HttpOptions): OpenAPIHono<ChatEnv> {
  const { logger } = options;
  const app = new OpenAPIHono<ChatEnv>();

  app.onError((error, c) => errorResponse(error, c, logger));
  app.notFound((c) => notFoundResponse(c));

  app.use(requestLines<ChatEnv>(logger, (c) => ({ appId: c.get('actor')?.app.appId })));

  const health = createRoute({
    method: 'get',
    path: '/healthz',
    summary: 'Health check (no authentication)',
    responses: {
      200: {
        description: 'The service answers.',
        content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } },
      },
    },
  });
  app.openapi(health, (c) => c.json({ status: 'ok' as const }, 200));
  // Any page may embed the SDK or the widget; credentials travel in headers, never in cookies.
  // Only browsers need CORS, and they always send Origin: hono's cors touches `c.res` before the
  // route runs, which makes every response a full web Response (~60 µs of CPU per request).
  const allowBrowsers = cors({ origin: '*', allowHeaders: CLIENT_HEADERS, maxAge: 600 });
  app.use('/v3/*', (c, next) => (c.req.header('origin') === undefined ? next() : allowBrowsers(c, next)));
  for (const addPage of options.pages ?? []) addPage(app);
  // The SDK's online counts, which it asks of its realtime host outside `/v3`.
  app.route('/', onlineMemberRoutes(deps));

  // The document of every `/v3` route (and the health check), from the routes' zod schemas. Before
  // the authentication: it holds no secrets and no app's data.
  app.openAPIRegistry.registerPath(
    createRoute({
      method: 'get',
      path: '/v3/openapi.json',
      summary: 'This document (no authentication)',
      responses: { 200: { description: 'The OpenAPI 3 document of the chat service.' } },
    }),
  );
  app.doc('/v3/openapi.json', {
    openapi: '3.0.3',
    info: {
      title: 'Parley chat service',
      version: '3',
      description:
        "CometChat's REST API v3 (server API: a fullAccess `apikey`, acting as the `onBehalfOf` user) " +
        "and the client protocol of CometChat's SDK (an `authToken`). Errors answer " +
        '`{"error": {code, message, details}}` with the field at fault in `details.field`.',
    },
  });

  const v3 = new OpenAPIHono<ChatEnv>();
  registerSecuritySchemes(v3);
  const refuse = () => {
    throw new HTTPException(413);
  };
  const limitStreamedBody = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: refuse });
  // A declared length is checked from the header: bodyLimit reads `c.req.raw.body` first, which
  // makes @hono/node-server build a web Request and stream for every request, most of a message
  // send's CPU time. Node's parser never hands on more than the declared length. A media message's
  // multipart upload may be larger; its route reads it no further than the app's own cap (a
  // streamed one too: buffering it here up to the largest cap first would hold 100 MB per request).
  v3.use((c, next) => {
    const upload = isUpload(c);
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number(declared) > (upload ? MAX_UPLOAD_BODY_BYTES : MAX_BODY_BYTES)) throw new HTTPException(413);
      return next();
    }
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || upload) return next();
    return limitStreamedBody(c, next);
  });
  v3.use(resolveActor(core.apps, core.authTokens, core.users));
  if (options.rateLimits !== false) v3.use(rateLimit(options.rateLimits, options.rateLimitStore));
  for (const routes of [
    sessionRoutes(deps),
    userRoutes(deps),
    blockedUserRoutes(deps),
    groupRoutes(deps),
    messageRoutes(deps),
    uploadUrlRoutes(deps),
    reactionRoutes(deps),
    pinRoutes(deps),
    threadRoutes(deps),
    statsRoutes(deps),
    conversationRoutes(deps),
    moderationRoutes(deps),
    moderationRuleRoutes(deps),
    apiKeyRoutes(deps),
    roleRoutes(deps),
    notificationRoutes(deps),
    notificationDeliveryRoutes(deps, core),
    ...(options.routes ?? []),
  ]) {
    v3.route('/', routes);
  }
  app.route('/v3', v3);
  return app;
}
