import { z } from 'zod';
import { conversationIdFor, type UserEntity } from '../../shared/message.js';
import { SearchKey } from '../../shared/users.js';
import { actingUid } from '../http/actor.js';
import type { ChatContext } from '../http/context.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { jsonBody, pathId, queryOf } from '../http/request.js';
import { blockFlags } from '../repositories/blocked-users.js';
import { EntityId, pagination } from '../validation.js';
import type { RouteDeps } from './deps.js';
import { PageQuery, perPageOf, userFor } from './policies.js';

/** At most this many users are blocked or unblocked in one call. */
const MAX_BLOCKED_PER_CALL = 100;

const BlockRequest = z.object({
  blockedUids: z
    .array(EntityId, { error: 'must be a list of UIDs' })
    .min(1, 'name at least one UID')
    .max(MAX_BLOCKED_PER_CALL, `name at most ${MAX_BLOCKED_PER_CALL} UIDs`),
});

const ListBlocked = PageQuery.extend({
  direction: z
    .enum(['both', 'blockedByMe', 'hasBlockedMe'], { error: 'must be both, blockedByMe or hasBlockedMe' })
    .default('both'),
  searchKey: SearchKey.optional(),
});

/**
 * Blocked users: the SDK's `blockUsers`, `unblockUsers` and `BlockedUsersRequest` on
 * `/blockedusers` (the session's user), the REST API's on `/users/{uid}/blockedusers` (that user).
 * A block is one-way and private to the two users: neither can message the other one-to-one.
 */
export function blockedUserRoutes(deps: RouteDeps): ChatRoutes {
  const { users } = deps.services;
  const routes = chatRoutes();

  const answer = (uid: string, named: string[], done: 'blocked' | 'unblocked') =>
    Object.fromEntries(
      named.map((other) => [
        other,
        {
          success: true,
          message: `The user with UID ${uid} has ${done} user with UID ${other} successfully.`,
        },
      ]),
    );

  /** Blocks or unblocks the users of the body for `uid`. */
  const change = async (c: ChatContext, uid: string, done: 'blocked' | 'unblocked') => {
    const { blockedUids } = await jsonBody(c, BlockRequest);
    const { appId } = c.get('actor').app;
    const named =
      done === 'blocked'
        ? await users.block(appId, uid, blockedUids)
        : await users.unblock(appId, uid, blockedUids);
    return c.json({ data: answer(uid, named, done) });
  };

  const list = async (c: ChatContext, uid: string) => {
    const actor = c.get('actor');
    const query = queryOf(c, ListBlocked);
    const perPage = perPageOf(actor, query);
    const {
      users: rows,
      total,
      blocks: relations,
    } = await users.blocked(actor.app.appId, uid, {
      direction: query.direction,
      searchKey: query.searchKey,
      page: query.page,
      perPage,
    });
    const data = rows.map((row): UserEntity => {
      const relation = relations.get(row.uid) ?? {};
      return {
        ...userFor(actor, row),
        ...blockFlags(relation),
        ...(relation.blockedByMeAt === undefined
          ? {}
          : { blockedByMeAt: relation.blockedByMeAt, blockedAt: relation.blockedByMeAt }),
        ...(relation.hasBlockedMeAt === undefined ? {} : { hasBlockedMeAt: relation.hasBlockedMeAt }),
        conversationId: conversationIdFor({ receiverType: 'user', sender: uid, receiver: row.uid }),
      };
    });
    return c.json({ data, meta: { pagination: pagination(total, data.length, perPage, query.page) } });
  };

  // The SDK's routes act as the session's user; the REST API's on behalf of the user in the path.
  const sides = [
    {
      base: '/blockedusers',
      only: 'client',
      as: '(the SDK: as the session user)',
      whose: "the session user's",
      uid: actingUid,
    },
    {
      base: '/users/:uid/blockedusers',
      only: 'server',
      as: 'on behalf of a user',
      whose: "a user's",
      uid: (c: ChatContext) => pathId(c, 'uid'),
    },
  ] as const;
  for (const side of sides) {
    documented(
      routes,
      'post',
      side.base,
      { summary: `Block users ${side.as}`, only: side.only, body: BlockRequest },
      (c) => change(c, side.uid(c), 'blocked'),
    );
    documented(
      routes,
      'delete',
      side.base,
      { summary: `Unblock users ${side.as}`, only: side.only, body: BlockRequest },
      (c) => change(c, side.uid(c), 'unblocked'),
    );
    documented(
      routes,
      'get',
      side.base,
      { summary: `List ${side.whose} blocked users`, only: side.only, query: ListBlocked },
      (c) => list(c, side.uid(c)),
    );
  }

  return routes;
}
