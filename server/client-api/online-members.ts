import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { cors } from 'hono/cors';
import { ChatErrorEnvelope } from '../../shared/errors.js';
import { sessionEnded } from '../http/actor.js';
import type { ChatEnv } from '../http/context.js';
import { jsonBody } from '../http/request.js';
import type { RouteDeps } from '../routes/deps.js';
import { GroupId } from '../validation.js';

/** `getOnlineGroupMemberCount(guids)` sends the groups; `getOnlineUserCount()` an empty body. */
const OnlineMembersRequest = z.strictObject({
  groups: z
    .array(GroupId, { error: 'must be an array of GUIDs' })
    .min(1, 'must name at least one GUID')
    .max(100, 'must name at most 100 GUIDs')
    .optional(),
});

const OnlineMembersAnswer = z.object({
  data: z.union([
    z.object({ onlineUsersCount: z.number().int() }),
    z.object({ groups: z.record(z.string(), z.number().int()) }),
  ]),
});

/**
 * CometChat's SDK asks its realtime host, not `/v3`, how many users are online
 * (`POST https://<CHAT_HOST>/api/<WS_API_VERSION>/online-members`, the socket's `jwt` as
 * `Authorization`). The counts come from the presence the service stores (`users.status`), which
 * every process keeps, so they hold across processes. Groups the caller may not read (private ones
 * it is not in, and missing ones) are left out of the answer.
 */
export function onlineMemberRoutes(deps: RouteDeps): OpenAPIHono<ChatEnv> {
  const { socketTokens, services } = deps;
  const routes = new OpenAPIHono<ChatEnv>();
  routes.use(
    '/api/*',
    cors({ origin: '*', allowHeaders: ['appid', 'authorization', 'accept', 'content-type'], maxAge: 600 }),
  );
  const route = createRoute({
    method: 'post',
    path: '/api/v1/online-members',
    summary: 'Users online in the app, or members online in groups (the SDK’s online counts)',
    tags: ['presence'],
    security: [{ socketJwt: [] }],
    request: { body: { required: false, content: { 'application/json': { schema: OnlineMembersRequest } } } },
    responses: {
      200: { description: 'The counts.', content: { 'application/json': { schema: OnlineMembersAnswer } } },
      default: {
        description: "A refusal: CometChat's error envelope.",
        content: { 'application/json': { schema: ChatErrorEnvelope } },
      },
    },
  });
  routes.openAPIRegistry.registerComponent('securitySchemes', 'socketJwt', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'The `jwt` of `GET /v3/me`, which the socket authenticates with.',
  });
  routes.openAPIRegistry.registerPath(route);
  routes.post('/api/v1/online-members', async (c) => {
    const identity = await socketTokens.verify(c.req.header('authorization'));
    if (identity === undefined) throw sessionEnded();
    const { appId, uid } = identity;
    const body = await jsonBody(c, OnlineMembersRequest);
    if (body.groups === undefined) {
      return c.json({ data: { onlineUsersCount: await services.users.countOnline(appId) } });
    }
    const found = await services.groups.findMany(appId, body.groups);
    const memberships = await services.groups.membershipsOf(appId, uid, found.keys());
    const readable = [...found.values()]
      .filter((group) => group.type !== 'private' || memberships.has(group.guid))
      .map((group) => group.guid);
    const counts = await services.groups.onlineMemberCounts(appId, readable);
    return c.json({ data: { groups: Object.fromEntries(counts) } });
  });
  return routes;
}
