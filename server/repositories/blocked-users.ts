import type { Kysely } from 'kysely';
import type { ChatDatabase } from '../db/schema.js';
import { nowSeconds } from '../time.js';
import { RowCache, type RowCacheOptions } from './row-cache.js';
import { nameOrIdContains } from './search.js';
import { userOf, type User } from './users.js';

/** Which side of a block a list shows: whom the user blocked, who blocked the user, or both. */
export type BlockDirection = 'both' | 'blockedByMe' | 'hasBlockedMe';

/** How `viewer` and another user stand: when each blocked the other, if they did. */
export interface BlockRelation {
  blockedByMeAt?: number;
  hasBlockedMeAt?: number;
}

/** CometChat's flags on a user entity as `viewer` sees it. */
export function blockFlags(relation: BlockRelation | undefined): {
  blockedByMe: boolean;
  hasBlockedMe: boolean;
} {
  return {
    blockedByMe: relation?.blockedByMeAt !== undefined,
    hasBlockedMe: relation?.hasBlockedMeAt !== undefined,
  };
}

export interface BlockedUserQuery {
  direction: BlockDirection;
  searchKey?: string | undefined;
  page: number;
  perPage: number;
}

/**
 * Who blocked whom, per app. A block is one-way; either way, the two cannot message one-to-one.
 * Every one-to-one send asks for its sender's blocks, so each user's are cached as the users are (see `rowCacheOptions`); block and unblock go through here and forget what they change.
 */
export class BlockedUserRepository {
  readonly #ofUser: RowCache<Map<string, BlockRelation>>;

  constructor(
    private readonly db: Kysely<ChatDatabase>,
    caches: RowCacheOptions,
  ) {
    this.#ofUser = new RowCache('blocks', caches);
  }

  /** `uid` blocks each of `blockedUids`; blocking again keeps the first time. */
  async block(appId: string, uid: string, blockedUids: ReadonlyArray<string>): Promise<void> {
    if (blockedUids.length === 0) return;
    const at = nowSeconds();
    await this.db
      .insertInto('blocked_users')
      .values(blockedUids.map((blocked) => ({ app_id: appId, uid, blocked_uid: blocked, blocked_at: at })))
      .onConflict((oc) => oc.columns(['app_id', 'uid', 'blocked_uid']).doNothing())
      .execute();
    await this.forget(appId, [uid, ...blockedUids]);
  }

  async unblock(appId: string, uid: string, blockedUids: ReadonlyArray<string>): Promise<void> {
    if (blockedUids.length === 0) return;
    await this.db
      .deleteFrom('blocked_users')
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .where('blocked_uid', 'in', [...blockedUids])
      .execute();
    await this.forget(appId, [uid, ...blockedUids]);
  }

  private async forget(appId: string, uids: ReadonlyArray<string>): Promise<void> {
    await Promise.all(uids.map((uid) => this.#ofUser.forget(appId, uid)));
  }

  /** How `viewer` stands with each of `others`; users with no block either way are left out. */
  async relations(
    appId: string,
    viewer: string,
    others: Iterable<string>,
  ): Promise<Map<string, BlockRelation>> {
    const all = await this.#ofUser.load(appId, viewer, () => this.readRelations(appId, viewer));
    const relations = new Map<string, BlockRelation>();
    for (const other of others) {
      const relation = all?.get(other);
      if (relation !== undefined) relations.set(other, relation);
    }
    return relations;
  }

  /** Every block `viewer` made or is under, by the other user. */
  private async readRelations(appId: string, viewer: string): Promise<Map<string, BlockRelation>> {
    const rows = await this.db
      .selectFrom('blocked_users')
      .select(['uid', 'blocked_uid', 'blocked_at'])
      .where('app_id', '=', appId)
      .where((eb) => eb.or([eb('uid', '=', viewer), eb('blocked_uid', '=', viewer)]))
      .execute();
    const relations = new Map<string, BlockRelation>();
    for (const row of rows) {
      const other = row.uid === viewer ? row.blocked_uid : row.uid;
      const relation = relations.get(other) ?? {};
      if (row.uid === viewer) relation.blockedByMeAt = Number(row.blocked_at);
      else relation.hasBlockedMeAt = Number(row.blocked_at);
      relations.set(other, relation);
    }
    return relations;
  }

  /** The UIDs `uid` has blocked (whose messages `hideMessagesFromBlockedUsers` hides). */
  private blockedBy(appId: string, uid: string) {
    return this.db
      .selectFrom('blocked_users')
      .select('blocked_uid')
      .where('app_id', '=', appId)
      .where('uid', '=', uid);
  }

  /** A page of the users on the asked side of `uid`'s blocks, by name. */
  async list(appId: string, uid: string, query: BlockedUserQuery): Promise<{ users: User[]; total: number }> {
    let base = this.db
      .selectFrom('users')
      .where('app_id', '=', appId)
      .where((eb) => {
        const blockedByMe = eb('users.uid', 'in', this.blockedBy(appId, uid));
        const hasBlockedMe = eb(
          'users.uid',
          'in',
          eb
            .selectFrom('blocked_users')
            .select('uid')
            .where('app_id', '=', appId)
            .where('blocked_uid', '=', uid),
        );
        if (query.direction === 'blockedByMe') return blockedByMe;
        if (query.direction === 'hasBlockedMe') return hasBlockedMe;
        return eb.or([blockedByMe, hasBlockedMe]);
      });
    if (query.searchKey !== undefined && query.searchKey !== '')
      base = base.where(nameOrIdContains('users.name', 'users.uid', query.searchKey));
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst();
    const users = await base
      .selectAll()
      .orderBy('name')
      .orderBy('uid')
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return { users: users.map(userOf), total: Number(counted?.total ?? 0) };
  }
}
