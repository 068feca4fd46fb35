import { Hono } from 'hono';
import { z } from 'zod';
import { conversationIdFor } from '../../shared/message.js';
import {
  CreateAuthTokenRequest,
  CreateUserRequest,
  ListUsersQuery,
  UpdateUserRequest,
  type SuccessEnvelope,
} from '../../shared/users.js';
import type { ChatEnv } from '../http/context.js';
import { jsonBody, onBehalfOf, pathId, queryOf } from '../http/request.js';
import { toAuthTokenEntity } from '../repositories/auth-tokens.js';
import { toUserEntity } from '../repositories/users.js';
import type { ChatServices } from '../services/registry.js';
import { EntityId, PageNumber, PageSize, QueryBoolean, pagination } from '../validation.js';

const CreateUser = CreateUserRequest.extend({ uid: EntityId });

/**
 * `roles` arrives repeated (`roles=a&roles=b`), comma-separated (`roles=a,b`, as a JS array turns into
 * text) or as `roles[]=a&roles[]=b` (axios, PHP).
 */
const RoleList = z.preprocess(
  (value) => [value].flat().flatMap((item) => (typeof item === 'string' ? item.split(',') : [item])),
  ListUsersQuery.shape.roles.unwrap(),
);

const ListUsers = ListUsersQuery.extend({
  status: ListUsersQuery.shape.status.transform((status) => (status === 'online' ? 'available' : status)),
  roles: RoleList.optional(),
  'roles[]': RoleList.optional(),
  withTags: QueryBoolean.optional(),
  page: PageNumber.default(1),
  perPage: PageSize.default(100),
});

/** The roles a list is filtered to: `role` and `roles` together name the roles a listed user may have. */
function rolesOf(query: z.output<typeof ListUsers>): string[] | undefined {
  const named = [query.role ?? [], query.roles ?? [], query['roles[]'] ?? []].flat();
  return named.length === 0 ? undefined : [...new Set(named)];
}

/** CometChat's API document gives `permanent` the default `"false"`, a string, so text is accepted too. */
const DeleteUser = z.strictObject({
  permanent: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
});
const ListTokens = z.looseObject({ page: PageNumber.default(1), perPage: PageSize.default(100) });

/**
 * Users (`/users`) and their auth tokens (`/users/{uid}/auth_tokens`). Deleting or deactivating a
 * user, deleting a token and flushing a user's tokens end those sessions and close their sockets.
 */
export function userRoutes(services: ChatServices): Hono<ChatEnv> {
  const { users, authTokens } = services;
  const routes = new Hono<ChatEnv>();

  routes.post('/users', async (c) => {
    const appId = c.get('app').appId;
    const body = await jsonBody(c, CreateUser);
    const row = await users.create(appId, body);
    const entity = toUserEntity(row, { withTags: true });
    if (body.withAuthToken === true) {
      const token = await authTokens.issue(appId, row.uid, true);
      return c.json({ data: { ...entity, authToken: token.auth_token } });
    }
    return c.json({ data: entity });
  });

  routes.get('/users', async (c) => {
    const query = queryOf(c, ListUsers);
    const viewer = onBehalfOf(c);
    const { users: rows, total } = await users.list(c.get('app').appId, {
      searchKey: query.searchKey,
      status: query.status,
      roles: rolesOf(query),
      page: query.page,
      perPage: query.perPage,
    });
    return c.json({
      data: rows.map((row) => {
        const entity = toUserEntity(row, { withTags: query.withTags === true });
        // Seen by a user, each entry names the conversation they would have with it.
        if (viewer !== undefined && viewer !== row.uid) {
          entity.conversationId = conversationIdFor({
            receiverType: 'user',
            sender: viewer,
            receiver: row.uid,
          });
        }
        return entity;
      }),
      meta: { pagination: pagination(total, rows.length, query.perPage, query.page) },
    });
  });

  routes.get('/users/:uid', async (c) => {
    const row = await users.get(c.get('app').appId, pathId(c, 'uid'));
    return c.json({ data: toUserEntity(row, { withTags: true }) });
  });

  routes.put('/users/:uid', async (c) => {
    const body = await jsonBody(c, UpdateUserRequest);
    const row = await users.update(c.get('app').appId, pathId(c, 'uid'), body);
    return c.json({ data: toUserEntity(row, { withTags: true }) });
  });

  routes.delete('/users/:uid', async (c) => {
    const uid = pathId(c, 'uid');
    const body = await jsonBody(c, DeleteUser);
    await users.delete(c.get('app').appId, uid, body.permanent === true || body.permanent === 'true');
    return c.json({
      data: { success: true, message: `User with ${uid} has been deleted successfully.` },
    } satisfies SuccessEnvelope);
  });

  routes.post('/users/:uid/auth_tokens', async (c) => {
    const appId = c.get('app').appId;
    const user = await users.get(appId, pathId(c, 'uid'));
    const body = await jsonBody(c, CreateAuthTokenRequest);
    const token = await authTokens.issue(appId, user.uid, body.force === true);
    return c.json({ data: toAuthTokenEntity(token) });
  });

  routes.get('/users/:uid/auth_tokens', async (c) => {
    const appId = c.get('app').appId;
    const user = await users.get(appId, pathId(c, 'uid'));
    const query = queryOf(c, ListTokens);
    const { tokens, total } = await authTokens.list(appId, user.uid, query.page, query.perPage);
    return c.json({
      data: tokens.map(toAuthTokenEntity),
      meta: { pagination: pagination(total, tokens.length, query.perPage, query.page) },
    });
  });

  routes.delete('/users/:uid/auth_tokens', async (c) => {
    const appId = c.get('app').appId;
    const user = await users.get(appId, pathId(c, 'uid'));
    await authTokens.flush(appId, user.uid);
    return c.json({
      data: { success: true, message: `Cleared Auth Tokens successfully for uid ${user.uid}.` },
    } satisfies SuccessEnvelope);
  });

  routes.delete('/users/:uid/auth_tokens/:authToken', async (c) => {
    const appId = c.get('app').appId;
    const user = await users.get(appId, pathId(c, 'uid'));
    await authTokens.delete(appId, user.uid, c.req.param('authToken'));
    return c.json({
      data: {
        success: true,
        message: `The auth token of the user ${user.uid} has been deleted successfully.`,
      },
    } satisfies SuccessEnvelope);
  });

  return routes;
}
