import { z } from 'zod';
import type { UserEntity } from '../../shared/message.js';
import { clientUser } from '../client-api/app-settings.js';
import { actingUid } from '../http/actor.js';
import type { Actor, ChatContext } from '../http/context.js';
import { queryOf } from '../http/request.js';
import type { Group } from '../repositories/groups.js';
import { toUserEntity, type User } from '../repositories/users.js';
import type { ChatServices } from '../services/registry.js';
import { PageNumber, PageSize, pagination } from '../validation.js';

/**
 * Where the server API and the client API differ for the same resource: page sizes, how a user
 * looks, and which groups a caller may read. Routes ask these instead of branching themselves.
 */

/** Page-based lists: CometChat's REST API says `perPage` (default 100), the SDK `per_page` (default 30). */
export const PageQuery = z.looseObject({
  page: PageNumber.default(1),
  perPage: PageSize.optional(),
  per_page: PageSize.optional(),
});

export function perPageOf(
  actor: Actor,
  query: { perPage?: number | undefined; per_page?: number | undefined },
) {
  return query.perPage ?? query.per_page ?? (actor.kind === 'client' ? 30 : 100);
}

/**
 * A list asked for by page and nothing else (`PageQuery`), answered in CometChat's envelope:
 * `read` gets the page and its size, and answers the page's rows and how many there are in all.
 */
export async function pageAnswer<T>(
  c: ChatContext,
  read: (page: number, perPage: number) => Promise<{ rows: T[]; total: number }>,
) {
  const query = queryOf(c, PageQuery);
  const perPage = perPageOf(c.get('actor'), query);
  const { rows, total } = await read(query.page, perPage);
  return { data: rows, meta: { pagination: pagination(total, rows.length, perPage, query.page) } };
}

/** A user as the caller's API shows it: the SDK's presence says `online` where the REST API says `available`. */
export function userFor(actor: Actor, row: User, options: { withTags?: boolean } = {}): UserEntity {
  return actor.kind === 'client' ? clientUser(row) : toUserEntity(row, options);
}

/**
 * The group whose conversation and history the call reads (`GroupService.readableBy`): a client
 * must belong to it; the server reads any group, as `onBehalfOf` a member when it names a user.
 */
export function readableGroup(c: ChatContext, services: ChatServices, guid: string): Promise<Group> {
  const { app, kind, uid } = c.get('actor');
  return services.groups.readableBy(app.appId, guid, { kind, uid: kind === 'client' ? actingUid(c) : uid });
}
