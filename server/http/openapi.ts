import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Handler } from 'hono';
import { ChatErrorEnvelope } from '../../shared/errors.js';
import { only } from './actor.js';
import type { Actor, ChatEnv } from './context.js';

/** A `/v3` resource's routes: a Hono app whose registry feeds `GET /v3/openapi.json`. */
export type ChatRoutes = OpenAPIHono<ChatEnv>;

export function chatRoutes(): ChatRoutes {
  return new OpenAPIHono<ChatEnv>();
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What the document says about a route besides its method and path. */
export interface RouteDoc {
  summary: string;
  /** The API that has the route; the other caller is answered `ERR_API_NOT_FOUND`. Both when absent. */
  only?: Actor['kind'];
  /** The JSON body's schema (a missing body reads as `{}`). */
  body?: z.ZodType;
  /** The query's schema: an object whose keys are the parameters. */
  query?: z.ZodObject;
  /** What `data` (and `meta`) hold, when shared/ defines it; else the envelope's generic shape. */
  response?: z.ZodType;
}

/** `/users/:uid` → `/users/{uid}`. */
export function openApiPath(honoPath: string): string {
  return honoPath.replaceAll(/:(\w+)/g, '{$1}');
}

/** The success envelope every `/v3` answer has: `{data, meta?}`. */
const Envelope = z.object({ data: z.unknown(), meta: z.record(z.string(), z.unknown()).optional() });

const SECURITY: Record<Actor['kind'], Array<Record<string, string[]>>> = {
  server: [{ apikey: [], onBehalfOf: [] }, { apikey: [] }],
  client: [{ authToken: [] }],
};

/**
 * Declares `method path` with `createRoute` from the zod schemas the handler validates with, puts it
 * in the routes' OpenAPI registry, and mounts the handler (behind `only(doc.only)`). The document
 * only describes the route: the handler keeps validating with `jsonBody`/`queryOf`/`pathId`, whose
 * answers (any content type read as JSON, an empty body as `{}`, repeated query keys as arrays,
 * lower-cased ids, CometChat's envelope naming the field) zod-openapi's validators do not give.
 */
export function documented<P extends string>(
  routes: ChatRoutes,
  method: Method,
  path: P,
  doc: RouteDoc,
  handler: Handler<ChatEnv, P>,
): void {
  const names = [...path.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
  const route = createRoute({
    method,
    path: openApiPath(path),
    summary: doc.summary,
    tags: [path.split('/')[1] ?? ''],
    security: doc.only === undefined ? [...SECURITY.server, ...SECURITY.client] : SECURITY[doc.only],
    request: {
      ...(names.length === 0
        ? {}
        : { params: z.object(Object.fromEntries(names.map((name) => [name, z.string()]))) }),
      ...(doc.query === undefined ? {} : { query: doc.query }),
      ...(doc.body === undefined
        ? {}
        : { body: { required: false, content: { 'application/json': { schema: doc.body } } } }),
    },
    responses: {
      200: {
        description: "The answer in CometChat's envelope `{data, meta?}`.",
        content: { 'application/json': { schema: doc.response ?? Envelope } },
      },
      default: {
        description: "A refusal: CometChat's error envelope, naming the field at fault in `details.field`.",
        content: { 'application/json': { schema: ChatErrorEnvelope } },
      },
    },
  });
  routes.openAPIRegistry.registerPath(route);
  if (doc.only === undefined) routes.on(method.toUpperCase(), path, handler);
  else routes.on(method.toUpperCase(), path, only(doc.only), handler);
}

/** The security schemes the document's routes name: the server API's and the client API's. */
export function registerSecuritySchemes(routes: ChatRoutes): void {
  const header = (name: string, description: string) =>
    ({ type: 'apiKey', in: 'header', name, description }) as const;
  routes.openAPIRegistry.registerComponent(
    'securitySchemes',
    'apikey',
    header('apikey', 'A fullAccess API key: the server API, which sees all of its app.'),
  );
  routes.openAPIRegistry.registerComponent(
    'securitySchemes',
    'onBehalfOf',
    header('onBehalfOf', 'With `apikey`: the UID the call acts as (required by calls that act as a user).'),
  );
  routes.openAPIRegistry.registerComponent(
    'securitySchemes',
    'authToken',
    header('authtoken', "A user's session token (the client API, CometChat's SDK): acts only as its user."),
  );
}
