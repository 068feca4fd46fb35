import { DEFAULT_ROLE } from '../../shared/roles.js';
import type { Kysely, Selectable } from 'kysely';
import type { UserEntity } from '../../shared/message.js';
import type { ChatDatabase, UserTable } from '../db/schema.js';
import { ChatError, uidNotFound } from '../errors.js';
import type { ChatEvents } from '../events.js';
import { nowSeconds } from '../time.js';
import { frozen, parseJsonColumn } from './json-column.js';
import { RowCache, type RowCacheOptions } from './row-cache.js';
import { nameOrIdContains } from './search.js';

/** The users table's row: only repositories see it. */
export type UserRow = Selectable<UserTable>;

/** A user as the service knows it: stored JSON (metadata, tags) parsed once, here. */
export interface User {
  uid: string;
  name: string;
  avatar: string | undefined;
  link: string | undefined;
  role: string;
  statusMessage: string | undefined;
  metadata: Record<string, unknown> | undefined;
  tags: string[];
  /** Presence: `available` while one of the user's sockets is open, else `offline`. */
  status: string;
  createdAt: number;
  updatedAt: number | undefined;
}

/** The one place a users row becomes a user. */
export function userOf(row: UserRow): User {
  return {
    uid: row.uid,
    name: row.name,
    avatar: row.avatar ?? undefined,
    link: row.link ?? undefined,
    role: row.role,
    statusMessage: row.status_message ?? undefined,
    metadata: frozen(parseJsonColumn<Record<string, unknown>>(row.metadata)),
    tags: frozen(parseJsonColumn<string[]>(row.tags) ?? []),
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at ?? undefined,
  };
}

export interface NewUser {
  uid: string;
  name: string;
  avatar?: string | undefined;
  link?: string | undefined;
  role?: string | undefined;
  statusMessage?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  tags?: string[] | undefined;
}

export interface UserChanges {
  name?: string | undefined;
  avatar?: string | undefined;
  link?: string | undefined;
  role?: string | undefined;
  statusMessage?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  tags?: string[] | undefined;
  unset?: ReadonlyArray<'avatar' | 'link' | 'metadata'> | undefined;
}

export interface UserQuery {
  searchKey?: string | undefined;
  status?: string | undefined;
  /** Users with any of these roles. */
  roles?: readonly string[] | undefined;
  /** Only this user's friends. */
  friendsOf?: string | undefined;
  /** Leaves out the users this user blocked or was blocked by (the SDK's `hideBlockedUsers`). */
  hideBlockedFor?: string | undefined;
  page: number;
  perPage: number;
}

export { DEFAULT_ROLE };
export const OFFLINE = 'offline';

/** The wire shape of a user; `tags` only where CometChat includes them. */
export function toUserEntity(user: User, options: { withTags?: boolean } = {}): UserEntity {
  const entity: UserEntity = { uid: user.uid, name: user.name, status: user.status, role: user.role };
  if (user.avatar !== undefined) entity.avatar = user.avatar;
  if (user.link !== undefined) entity.link = user.link;
  if (user.statusMessage !== undefined) entity.statusMessage = user.statusMessage;
  if (user.metadata !== undefined) entity.metadata = user.metadata;
  entity.createdAt = user.createdAt;
  if (user.updatedAt !== undefined) entity.updatedAt = user.updatedAt;
  if (options.withTags === true) entity.tags = user.tags;
  return entity;
}

/** What deleting a user changes beyond the users table: the group memberships it removes. */
export interface MembershipChanges {
  forgetMemberships(appId: string): Promise<void>;
}

/**
 * Users of one app. Every method takes the app id: data of one app is never visible to another.
 * Active users are cached (every message send reads its sender and receivers; see `rowCacheOptions`); every change goes through here and forgets the cached row
 * once it is written.
 */
export class UserRepository {
  readonly #active: RowCache<User>;

  constructor(
    private readonly db: Kysely<ChatDatabase>,
    private readonly memberships: MembershipChanges,
    private readonly events: ChatEvents,
    caches: RowCacheOptions,
  ) {
    this.#active = new RowCache('users', caches);
  }

  /** Inserts a new user, inside the caller's transaction `db` when given. */
  async create(appId: string, user: NewUser, db: Kysely<ChatDatabase> = this.db): Promise<User> {
    const now = nowSeconds();
    const row: UserRow = {
      app_id: appId,
      uid: user.uid,
      name: user.name,
      avatar: user.avatar ?? null,
      link: user.link ?? null,
      role: user.role ?? DEFAULT_ROLE,
      status_message: user.statusMessage ?? null,
      metadata: user.metadata === undefined ? null : JSON.stringify(user.metadata),
      tags: JSON.stringify(user.tags ?? []),
      status: OFFLINE,
      created_at: now,
      updated_at: null,
      deactivated_at: null,
    };
    const inserted = await db
      .insertInto('users')
      .values(row)
      .onConflict((oc) => oc.columns(['app_id', 'uid']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      throw new ChatError(409, 'ERR_UID_ALREADY_EXISTS', `The UID ${user.uid} already exists.`, {
        uid: user.uid,
      });
    }
    return userOf(row);
  }

  /** An active (not deactivated) user, or undefined. */
  async find(appId: string, uid: string): Promise<User | undefined> {
    const key = uid.toLowerCase();
    return this.#active.load(appId, key, () => this.#stored(this.db, appId, key));
  }

  async #stored(db: Kysely<ChatDatabase>, appId: string, key: string): Promise<User | undefined> {
    const row = await db
      .selectFrom('users')
      .selectAll()
      .where('app_id', '=', appId)
      .where('uid', '=', key)
      .where('deactivated_at', 'is', null)
      .executeTakeFirst();
    return row === undefined ? undefined : userOf(row);
  }

  async get(appId: string, uid: string): Promise<User> {
    const user = await this.find(appId, uid);
    if (user === undefined) throw uidNotFound(uid);
    return user;
  }

  /** Active users by UID, for filling message entities in one query. */
  async findMany(appId: string, uids: Iterable<string>): Promise<Map<string, User>> {
    return this.#active.loadMany(appId, uids, async (missing) => {
      const rows = await this.db
        .selectFrom('users')
        .selectAll()
        .where('app_id', '=', appId)
        .where('uid', 'in', missing)
        .where('deactivated_at', 'is', null)
        .execute();
      return new Map(rows.map((row) => [row.uid, userOf(row)]));
    });
  }

  async list(appId: string, query: UserQuery): Promise<{ users: User[]; total: number }> {
    let base = this.db.selectFrom('users').where('app_id', '=', appId).where('deactivated_at', 'is', null);
    if (query.searchKey !== undefined && query.searchKey !== '') {
      base = base.where(nameOrIdContains('users.name', 'users.uid', query.searchKey));
    }
    if (query.status !== undefined) base = base.where('status', '=', query.status);
    if (query.roles !== undefined && query.roles.length > 0) base = base.where('role', 'in', query.roles);
    if (query.friendsOf !== undefined) {
      const friendsOf = query.friendsOf;
      base = base.where('uid', 'in', (eb) =>
        eb
          .selectFrom('user_friends')
          .select('friend_uid')
          .where('user_friends.app_id', '=', appId)
          .where('user_friends.uid', '=', friendsOf),
      );
    }
    const blocker = query.hideBlockedFor;
    if (blocker !== undefined) {
      base = base.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('blocked_users')
              .select('blocked_users.uid')
              .where('blocked_users.app_id', '=', appId)
              .where((eb) =>
                eb.or([
                  eb.and([
                    eb('blocked_users.uid', '=', blocker),
                    eb('blocked_users.blocked_uid', '=', eb.ref('users.uid')),
                  ]),
                  eb.and([
                    eb('blocked_users.blocked_uid', '=', blocker),
                    eb('blocked_users.uid', '=', eb.ref('users.uid')),
                  ]),
                ]),
              ),
          ),
        ),
      );
    }
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

  /**
   * Changes an active user: one UPDATE that writes only the fields named (an `unset` field becomes
   * null) and answers the row as written, so two concurrent changes of different fields both hold
   * (the second waits for the first's row lock and updates the row the first left). Given a
   * transaction (`db`), it leaves the cached row to the caller, who calls `forget` once the
   * transaction has committed (a read that ran meanwhile may have cached the row as it was);
   * otherwise it forgets the row itself.
   */
  async update(
    appId: string,
    uid: string,
    changes: UserChanges,
    db: Kysely<ChatDatabase> = this.db,
  ): Promise<User> {
    const unset = new Set(changes.unset ?? []);
    const cleared = (field: 'avatar' | 'link' | 'metadata', value: string | undefined) =>
      unset.has(field) ? { [field]: null } : value === undefined ? {} : { [field]: value };
    const row = await db
      .updateTable('users')
      .set({
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.role === undefined ? {} : { role: changes.role }),
        ...(changes.statusMessage === undefined ? {} : { status_message: changes.statusMessage }),
        ...(changes.tags === undefined ? {} : { tags: JSON.stringify(changes.tags) }),
        ...cleared('avatar', changes.avatar),
        ...cleared('link', changes.link),
        ...cleared('metadata', changes.metadata === undefined ? undefined : JSON.stringify(changes.metadata)),
        updated_at: nowSeconds(),
      })
      .where('app_id', '=', appId)
      .where('uid', '=', uid.toLowerCase())
      .where('deactivated_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (row === undefined) throw uidNotFound(uid);
    if (!db.isTransaction) await this.forget(appId, row.uid);
    return userOf(row);
  }

  /** After a transaction that changed the user's row has ended. */
  forget(appId: string, uid: string): Promise<void> {
    return this.#active.forget(appId, uid.toLowerCase());
  }

  /** Presence as the realtime channel sees it: `available` while one of the user's sockets is open. */
  async setStatus(appId: string, uid: string, status: 'available' | 'offline'): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ status })
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .execute();
    await this.#active.forget(appId, uid);
  }

  /** Users of the app online now, by the presence the realtime channel stores (`getOnlineUserCount`). */
  async countOnline(appId: string): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('online'))
      .where('app_id', '=', appId)
      .where('status', '=', 'available')
      .where('deactivated_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.online ?? 0);
  }

  /** At start, before any socket is open: whoever was online when the last run ended is not any more. */
  async markAllOffline(): Promise<void> {
    const apps = await this.db
      .selectFrom('users')
      .select('app_id')
      .where('status', '!=', 'offline')
      .distinct()
      .execute();
    await this.db.updateTable('users').set({ status: 'offline' }).where('status', '!=', 'offline').execute();
    for (const { app_id } of apps) await this.#active.forgetApp(app_id);
  }

  /**
   * Reactivates deactivated users (`PUT /users`): they can log in and be found again. Answers which
   * of `uids` came back and which were not deactivated (active, or no such user).
   */
  async reactivate(
    appId: string,
    uids: readonly string[],
  ): Promise<{ reactivated: string[]; notDeactivated: string[] }> {
    const wanted = [...new Set(uids)];
    const deactivated = await this.db
      .selectFrom('users')
      .select('uid')
      .where('app_id', '=', appId)
      .where('uid', 'in', wanted)
      .where('deactivated_at', 'is not', null)
      .execute();
    const reactivated = deactivated.map((row) => row.uid);
    if (reactivated.length > 0) {
      await this.db
        .updateTable('users')
        .set({ deactivated_at: null, updated_at: nowSeconds() })
        .where('app_id', '=', appId)
        .where('uid', 'in', reactivated)
        .execute();
      for (const uid of reactivated) await this.#active.forget(appId, uid);
    }
    const back = new Set(reactivated);
    return { reactivated, notDeactivated: wanted.filter((uid) => !back.has(uid)) };
  }

  /**
   * Deactivates the user (CometChat's default delete: the UID stays taken), or with `permanent`
   * removes the user with their tokens and memberships; their messages stay in the history.
   * Either way their sessions end, and with them their sockets.
   */
  async delete(appId: string, uid: string, permanent: boolean): Promise<void> {
    const user = await this.get(appId, uid);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('auth_tokens').where('app_id', '=', appId).where('uid', '=', user.uid).execute();
      await trx.deleteFrom('group_members').where('app_id', '=', appId).where('uid', '=', user.uid).execute();
      if (permanent) {
        await trx
          .deleteFrom('notification_preferences')
          .where('app_id', '=', appId)
          .where('uid', '=', user.uid)
          .execute();
        await trx.deleteFrom('users').where('app_id', '=', appId).where('uid', '=', user.uid).execute();
      } else {
        await trx
          .updateTable('users')
          .set({ deactivated_at: nowSeconds() })
          .where('app_id', '=', appId)
          .where('uid', '=', user.uid)
          .execute();
      }
    });
    await this.#active.forget(appId, user.uid);
    await this.memberships.forgetMemberships(appId);
    this.events.emit('sessionsEnded', appId, { uid: user.uid });
  }
}
