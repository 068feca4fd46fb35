import { z } from 'zod';
import { conversationIdFor } from '../../shared/message.js';
import {
  CreateAuthTokenRequest,
  CreateUserRequest,
  ListUsersQuery,
  UpdateUserRequest,
  type SuccessEnvelope,
} from '../../shared/users.js';
import { actingUid } from '../http/actor.js';
import { clientUser } from '../client-api/app-settings.js';
import type { ChatContext } from '../http/context.js';
import { jsonBody, pathId, queryOf } from '../http/request.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { toAuthTokenEntity } from '../repositories/auth-tokens.js';
import { blockFlags } from '../repositories/blocked-users.js';
import { toUserEntity } from '../repositories/users.js';
import { EntityId, Metadata, QueryBoolean, pagination } from '../validation.js';
import type { RouteDeps } from './deps.js';
import { PageQuery, pageAnswer, perPageOf, userFor } from './policies.js';

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
  ...PageQuery.shape,
  // The SDK's UsersRequestBuilder().friendsOnly(true): only the acting user's friends.
  friendsOnly: QueryBoolean.optional(),
  status: ListUsersQuery.shape.status.transform((status) => (status === 'online' ? 'available' : status)),
  roles: RoleList.optional(),
  'roles[]': RoleList.optional(),
  withTags: QueryBoolean.optional(),
  /** The SDK's: leave out users the viewer blocked or was blocked by. */
  hideBlockedUsers: QueryBoolean.optional(),
});

/** The roles a list is filtered to: `role` and `roles` together name the roles a listed user may have. */
function rolesOf(query: z.output<typeof ListUsers>): string[] | undefined {
  const named = [query.role ?? [], query.roles ?? [], query['roles[]'] ?? []].flat();
  return named.length === 0 ? undefined : [...new Set(named)];
}

/** A list of UIDs in a body: each one a valid UID, at most 100 a call. */
const UidList = z
  .array(EntityId, { error: 'must be an array of UIDs' })
  .min(1, 'must name at least one UID')
  .max(100, 'must name at most 100 UIDs');

const ReactivateUsers = z.strictObject({ uidsToActivate: UidList });
const DeactivateUsers = z.strictObject({ uidsToDeactivate: UidList });
const AddFriends = z.strictObject({ accepted: UidList });
const RemoveFriends = z.strictObject({ friends: UidList });
const ListFriends = PageQuery.extend({ searchKey: ListUsersQuery.shape.searchKey });

/** `PUT /users/{uid}/auth_tokens/{authToken}`: what the client says about the device holding it. */
const DescribeAuthToken = z.strictObject({
  platform: z.string().max(100, 'must be at most 100 characters').optional(),
  userAgent: z.string().max(1000, 'must be at most 1000 characters').optional(),
  appInfo: Metadata.optional(),
});

/** CometChat's API document gives `permanent` the default `"false"`, a string, so text is accepted too. */
const DeleteUser = z.strictObject({
  permanent: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
});
/**
 * Users (`/users`) and their auth tokens (`/users/{uid}/auth_tokens`): the app manages both; a
 * client lists and reads users, and logs in by UID with an authOnly key. Deleting or deactivating
 * a user, deleting a token and flushing a user's tokens end those sessions and close their sockets.
 */
export function userRoutes(deps: RouteDeps): ChatRoutes {
  const { users } = deps.services;
  const routes = chatRoutes();
  const appIdOf = (c: ChatContext): string => c.get('actor').app.appId;

  documented(
    routes,
    'post',
    '/users',
    { summary: 'Create a user', only: 'server', body: CreateUser },
    async (c) => {
      const appId = appIdOf(c);
      const { user, authToken } = await users.create(appId, await jsonBody(c, CreateUser));
      const entity = toUserEntity(user, { withTags: true });
      return c.json({
        data: authToken === undefined ? entity : { ...entity, authToken: authToken.authToken },
      });
    },
  );

  documented(routes, 'get', '/users', { summary: 'List users', query: ListUsers }, async (c) => {
    const actor = c.get('actor');
    const query = queryOf(c, ListUsers);
    const viewer = actor.uid;
    const perPage = perPageOf(actor, query);
    const {
      users: rows,
      total,
      blocks,
    } = await users.list(actor.app.appId, viewer, {
      searchKey: query.searchKey,
      status: query.status,
      roles: rolesOf(query),
      friendsOf: query.friendsOnly === true ? actingUid(c) : undefined,
      hideBlockedFor: query.hideBlockedUsers === true ? viewer : undefined,
      page: query.page,
      perPage,
    });
    return c.json({
      data: rows.map((row) => {
        const entity = userFor(actor, row, { withTags: query.withTags === true });
        // Seen by a user, each entry names the conversation they would have with it and the blocks between them.
        if (viewer !== undefined && viewer !== row.uid) {
          entity.conversationId = conversationIdFor({
            receiverType: 'user',
            sender: viewer,
            receiver: row.uid,
          });
          Object.assign(entity, blockFlags(blocks?.get(row.uid)));
        }
        return entity;
      }),
      meta: { pagination: pagination(total, rows.length, perPage, query.page) },
    });
  });

  documented(
    routes,
    'put',
    '/users',
    { summary: 'Reactivate deactivated users', only: 'server', body: ReactivateUsers },
    async (c) => {
      const body = await jsonBody(c, ReactivateUsers);
      const { reactivated, notDeactivated } = await users.reactivate(appIdOf(c), body.uidsToActivate);
      return c.json({ data: { reactivatedUids: reactivated, nonDeactivatedUids: notDeactivated } });
    },
  );

  documented(
    routes,
    'delete',
    '/users',
    { summary: 'Deactivate users (ends their sessions)', only: 'server', body: DeactivateUsers },
    async (c) => {
      const body = await jsonBody(c, DeactivateUsers);
      return c.json({ data: { deactivatedUids: await users.deactivate(appIdOf(c), body.uidsToDeactivate) } });
    },
  );

  documented(routes, 'get', '/users/:uid', { summary: 'Read a user' }, async (c) => {
    const actor = c.get('actor');
    const { user, blocks } = await users.read(appIdOf(c), pathId(c, 'uid'), actor.uid);
    const entity = userFor(actor, user, { withTags: true });
    return c.json({ data: blocks === undefined ? entity : { ...entity, ...blockFlags(blocks) } });
  });

  documented(
    routes,
    'put',
    '/users/:uid',
    { summary: 'Update a user', only: 'server', body: UpdateUserRequest },
    async (c) => {
      const body = await jsonBody(c, UpdateUserRequest);
      const user = await users.update(appIdOf(c), pathId(c, 'uid'), body);
      return c.json({ data: toUserEntity(user, { withTags: true }) });
    },
  );

  documented(
    routes,
    'delete',
    '/users/:uid',
    { summary: 'Delete (or deactivate) a user', only: 'server', body: DeleteUser },
    async (c) => {
      const uid = pathId(c, 'uid');
      const body = await jsonBody(c, DeleteUser);
      await users.delete(appIdOf(c), uid, body.permanent === true || body.permanent === 'true');
      return c.json({
        data: { success: true, message: `User with ${uid} has been deleted successfully.` },
      } satisfies SuccessEnvelope);
    },
  );

  documented(
    routes,
    'post',
    '/users/:uid/auth_tokens',
    {
      summary: 'Create an auth token (the server API), or log in by UID with an authOnly key',
      body: CreateAuthTokenRequest,
    },
    async (c) => {
      if (c.get('actor').kind === 'client') return login(c);
      const body = await jsonBody(c, CreateAuthTokenRequest);
      const token = await users.issueToken(appIdOf(c), pathId(c, 'uid'), body.force === true);
      return c.json({ data: toAuthTokenEntity(token) });
    },
  );

  documented(
    routes,
    'get',
    '/users/:uid/auth_tokens',
    { summary: "List a user's auth tokens", only: 'server', query: PageQuery },
    async (c) =>
      c.json(
        await pageAnswer(c, async (page, perPage) => {
          const { rows, total } = await users.tokens(appIdOf(c), pathId(c, 'uid'), page, perPage);
          return { rows: rows.map(toAuthTokenEntity), total };
        }),
      ),
  );

  documented(
    routes,
    'delete',
    '/users/:uid/auth_tokens',
    { summary: "Flush a user's auth tokens (ends all its sessions)", only: 'server' },
    async (c) => {
      const user = await users.endSessions(appIdOf(c), pathId(c, 'uid'));
      return c.json({
        data: { success: true, message: `Cleared Auth Tokens successfully for uid ${user.uid}.` },
      } satisfies SuccessEnvelope);
    },
  );

  documented(
    routes,
    'get',
    '/users/:uid/auth_tokens/:authToken',
    { summary: 'Read one auth token of a user', only: 'server' },
    async (c) => {
      const token = await users.token(appIdOf(c), pathId(c, 'uid'), c.req.param('authToken'));
      return c.json({ data: toAuthTokenEntity(token) });
    },
  );

  documented(
    routes,
    'put',
    '/users/:uid/auth_tokens/:authToken',
    {
      summary: 'Record the platform, user agent and app of an auth token',
      only: 'server',
      body: DescribeAuthToken,
    },
    async (c) => {
      const body = await jsonBody(c, DescribeAuthToken);
      const token = await users.describeToken(appIdOf(c), pathId(c, 'uid'), c.req.param('authToken'), body);
      return c.json({ data: toAuthTokenEntity(token) });
    },
  );

  documented(
    routes,
    'delete',
    '/users/:uid/auth_tokens/:authToken',
    { summary: 'Delete one auth token (ends its session)', only: 'server' },
    async (c) => {
      const uid = pathId(c, 'uid');
      await users.endSession(appIdOf(c), uid, c.req.param('authToken'));
      return c.json({
        data: {
          success: true,
          message: `The auth token of the user ${uid} has been deleted successfully.`,
        },
      } satisfies SuccessEnvelope);
    },
  );

  documented(
    routes,
    'post',
    '/users/:uid/friends',
    {
      summary: 'Add friends of a user (both become friends of each other)',
      only: 'server',
      body: AddFriends,
    },
    async (c) => {
      const body = await jsonBody(c, AddFriends);
      const outcomes = await users.addFriends(appIdOf(c), pathId(c, 'uid'), body.accepted);
      return c.json({ data: { accepted: Object.fromEntries(outcomes) } });
    },
  );

  documented(
    routes,
    'get',
    '/users/:uid/friends',
    { summary: "List a user's friends", only: 'server', query: ListFriends },
    async (c) => {
      const actor = c.get('actor');
      const query = queryOf(c, ListFriends);
      const perPage = perPageOf(actor, query);
      const {
        user,
        friends: rows,
        total,
      } = await users.friends(actor.app.appId, pathId(c, 'uid'), {
        searchKey: query.searchKey,
        page: query.page,
        perPage,
      });
      return c.json({
        data: rows.map((row) => ({
          ...toUserEntity(row),
          conversationId: conversationIdFor({ receiverType: 'user', sender: user.uid, receiver: row.uid }),
        })),
        meta: { pagination: pagination(total, rows.length, perPage, query.page) },
      });
    },
  );

  documented(
    routes,
    'delete',
    '/users/:uid/friends',
    { summary: 'Remove friends of a user (on both sides)', only: 'server', body: RemoveFriends },
    async (c) => {
      const body = await jsonBody(c, RemoveFriends);
      const user = await users.removeFriends(appIdOf(c), pathId(c, 'uid'), body.friends);
      return c.json({
        data: { success: true, message: `Removed the friends of ${user.uid}.` },
      } satisfies SuccessEnvelope);
    },
  );

  /**
   * A login by UID with an authOnly key (checked by `resolveActor`): a new session, and the user
   * made on the spot when the app's client settings allow it.
   */
  async function login(c: ChatContext) {
    const uid = pathId(c, 'uid');
    const { user, authToken } = await users.login(appIdOf(c), uid, c.req.param('uid') ?? uid);
    // The answer is the user's own: they see their private metadata.
    c.set('actor', { ...c.get('actor'), uid: user.uid, authToken: authToken.authToken });
    return c.json({ data: { ...clientUser(user), authToken: authToken.authToken } });
  }

  return routes;
}
