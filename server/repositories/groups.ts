import { scryptSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { GroupEntity } from '../../shared/message.js';
import type { GroupType, MemberScope } from '../../shared/groups.js';
import type { ChatDatabase, GroupBanTable, GroupMemberTable, GroupTable } from '../db/schema.js';
import { ChatError, guidNotFound } from '../errors.js';
import { nowSeconds } from '../time.js';
import { frozen, parseJsonColumn } from './json-column.js';
import { RowCache, type RowCacheOptions } from './row-cache.js';
import { nameOrIdContains } from './search.js';

/** The groups table's row: only repositories see it. */
type GroupRow = Selectable<GroupTable>;
type MemberRow = Selectable<GroupMemberTable>;
type BanRow = Selectable<GroupBanTable>;
type Db = Kysely<ChatDatabase>;

/** A user's membership of a group: their scope and when they joined (epoch seconds). */
export interface GroupMember {
  guid: string;
  uid: string;
  scope: MemberScope;
  joinedAt: number;
}

/** A user banned from a group, and when (epoch seconds). */
export interface GroupBan {
  guid: string;
  uid: string;
  bannedAt: number;
}

/** The one place a group_members row becomes a membership. */
const memberOf = (row: MemberRow): GroupMember => ({
  guid: row.guid,
  uid: row.uid,
  scope: row.scope,
  joinedAt: Number(row.joined_at),
});

/** The one place a group_bans row becomes a ban. */
const banOf = (row: BanRow): GroupBan => ({
  guid: row.guid,
  uid: row.uid,
  bannedAt: Number(row.banned_at),
});

export interface NewGroup {
  guid: string;
  name: string;
  type: GroupType;
  password?: string | undefined;
  icon?: string | undefined;
  description?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  owner?: string | undefined;
  tags?: string[] | undefined;
}

export interface GroupChanges {
  name?: string | undefined;
  type?: GroupType | undefined;
  password?: string | undefined;
  icon?: string | undefined;
  description?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  owner?: string | undefined;
  tags?: string[] | undefined;
  unset?: ReadonlyArray<'icon' | 'description' | 'metadata'> | undefined;
  updatedBy?: string | undefined;
}

export interface GroupQuery {
  searchKey?: string | undefined;
  type?: GroupType | undefined;
  /** Only groups this user has joined. */
  joinedBy?: string | undefined;
  /** Groups this user may know of: all but the private groups they do not belong to. */
  visibleTo?: string | undefined;
  page: number;
  perPage: number;
}

/** Group passwords are kept as salted scrypt hashes, never in clear. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `${salt.toString('hex')}:${scryptSync(password, salt, 32).toString('hex')}`;
}

export function passwordMatches(password: string, stored: string): boolean {
  const [salt, hash] = stored.split(':');
  if (salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'hex');
  const actual = scryptSync(password, Buffer.from(salt, 'hex'), expected.length);
  return timingSafeEqual(expected, actual);
}

/** A group as the service knows it: stored JSON (metadata, tags) parsed once, here. */
export interface Group {
  guid: string;
  name: string;
  type: GroupType;
  /** A salted scrypt hash (`hashPassword`) for a password group. */
  passwordHash: string | undefined;
  icon: string | undefined;
  description: string | undefined;
  metadata: Record<string, unknown> | undefined;
  owner: string | undefined;
  tags: string[];
  createdAt: number;
  updatedAt: number | undefined;
  updatedBy: string | undefined;
}

/** The one place a groups row becomes a group. */
function groupOf(row: GroupRow): Group {
  return {
    guid: row.guid,
    name: row.name,
    type: row.type,
    passwordHash: row.password_hash ?? undefined,
    icon: row.icon ?? undefined,
    description: row.description ?? undefined,
    metadata: frozen(parseJsonColumn<Record<string, unknown>>(row.metadata)),
    owner: row.owner ?? undefined,
    tags: frozen(parseJsonColumn<string[]>(row.tags) ?? []),
    createdAt: row.created_at,
    updatedAt: row.updated_at ?? undefined,
    updatedBy: row.updated_by ?? undefined,
  };
}

/** What the group looks like to one member (scope, joinedAt), or to the app when `member` is absent. */
export function toGroupEntity(
  group: Group,
  membersCount: number,
  member?: GroupMember,
  options: { withTags?: boolean } = { withTags: true },
): GroupEntity {
  const entity: GroupEntity = { guid: group.guid, name: group.name, type: group.type };
  if (group.description !== undefined) entity.description = group.description;
  if (group.icon !== undefined) entity.icon = group.icon;
  if (group.metadata !== undefined) entity.metadata = group.metadata;
  if (member !== undefined) {
    entity.scope = member.scope;
    entity.joinedAt = member.joinedAt;
    entity.hasJoined = true;
  }
  entity.membersCount = membersCount;
  entity.conversationId = `group_${group.guid}`;
  entity.createdAt = group.createdAt;
  if (group.owner !== undefined) entity.owner = group.owner;
  if (group.updatedAt !== undefined) entity.updatedAt = group.updatedAt;
  if (group.updatedBy !== undefined) entity.updatedBy = group.updatedBy;
  if (options.withTags !== false) entity.tags = group.tags;
  return entity;
}

const memberKey = (guid: string, uid: string): string => `${guid} ${uid}`;

/**
 * Groups, their members and bans, per app. Methods accept a transaction as `db`.
 *
 * Groups, memberships and member counts are cached for the message hot path (see `rowCacheOptions`). Reads inside a transaction bypass the caches (they may
 * see uncommitted rows); every write forgets what it changed, and a caller that writes inside its
 * own transaction calls `forgetMembers` once it has committed, because a read that ran meanwhile
 * may have cached the rows as they were before.
 */
export class GroupRepository {
  readonly #groups: RowCache<Group>;
  readonly #members: RowCache<GroupMember>;
  readonly #memberCounts: RowCache<number>;
  /** Each group's member UIDs, frozen: who a group message goes to. */
  readonly #memberUids: RowCache<readonly string[]>;

  /** `caches`: `rowCacheOptions` of the store's engine. */
  constructor(
    private readonly db: Db,
    caches: RowCacheOptions,
  ) {
    this.#groups = new RowCache('groups', caches);
    this.#members = new RowCache('group-members', caches);
    this.#memberCounts = new RowCache('group-member-counts', caches);
    this.#memberUids = new RowCache('group-member-uids', caches);
  }

  /** After a transaction that added, re-scoped, banned or removed these members has ended. */
  async forgetMembers(appId: string, guid: string, uids: Iterable<string>): Promise<void> {
    await Promise.all([
      ...[...uids].map((uid) => this.#members.forget(appId, memberKey(guid, uid))),
      this.#memberCounts.forget(appId, guid),
      this.#memberUids.forget(appId, guid),
    ]);
  }

  /** After a transaction that changed the group's row (its owner) has ended. */
  forgetGroup(appId: string, guid: string): Promise<void> {
    return this.#groups.forget(appId, guid);
  }

  /** After memberships of the app changed in ways the caller cannot list (a user was deleted). */
  async forgetMemberships(appId: string): Promise<void> {
    await Promise.all([
      this.#members.forgetApp(appId),
      this.#memberCounts.forgetApp(appId),
      this.#memberUids.forgetApp(appId),
    ]);
  }

  async create(group: NewGroup, appId: string, db: Db = this.db): Promise<Group> {
    const row: GroupRow = {
      app_id: appId,
      guid: group.guid,
      name: group.name,
      type: group.type,
      password_hash: group.password === undefined ? null : hashPassword(group.password),
      icon: group.icon ?? null,
      description: group.description ?? null,
      metadata: group.metadata === undefined ? null : JSON.stringify(group.metadata),
      owner: group.owner ?? null,
      tags: JSON.stringify(group.tags ?? []),
      created_at: nowSeconds(),
      updated_at: null,
      updated_by: null,
    };
    const inserted = await db
      .insertInto('groups')
      .values(row)
      .onConflict((oc) => oc.columns(['app_id', 'guid']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      throw new ChatError(409, 'ERR_GUID_ALREADY_EXISTS', `The GUID ${group.guid} already exists.`, {
        guid: group.guid,
      });
    }
    return groupOf(row);
  }

  async find(appId: string, guid: string, db: Db = this.db): Promise<Group | undefined> {
    const key = guid.toLowerCase();
    const read = async () => {
      const row = await db
        .selectFrom('groups')
        .selectAll()
        .where('app_id', '=', appId)
        .where('guid', '=', key)
        .executeTakeFirst();
      return row === undefined ? undefined : groupOf(row);
    };
    return db === this.db ? this.#groups.load(appId, key, read) : read();
  }

  async get(appId: string, guid: string, db: Db = this.db): Promise<Group> {
    const group = await this.find(appId, guid, db);
    if (group === undefined) throw guidNotFound(guid);
    return group;
  }

  async findMany(appId: string, guids: Iterable<string>): Promise<Map<string, Group>> {
    return this.#groups.loadMany(appId, guids, async (missing) => {
      const rows = await this.db
        .selectFrom('groups')
        .selectAll()
        .where('app_id', '=', appId)
        .where('guid', 'in', missing)
        .execute();
      return new Map(rows.map((row) => [row.guid, groupOf(row)]));
    });
  }

  async list(appId: string, query: GroupQuery): Promise<{ groups: Group[]; total: number }> {
    let base = this.db.selectFrom('groups').where('groups.app_id', '=', appId);
    if (query.searchKey !== undefined && query.searchKey !== '') {
      base = base.where(nameOrIdContains('groups.name', 'groups.guid', query.searchKey));
    }
    if (query.type !== undefined) base = base.where('groups.type', '=', query.type);
    const memberOf = (uid: string) => (eb: ExpressionBuilder<ChatDatabase, 'groups'>) =>
      eb.exists(
        eb
          .selectFrom('group_members')
          .select('group_members.uid')
          .whereRef('group_members.app_id', '=', 'groups.app_id')
          .whereRef('group_members.guid', '=', 'groups.guid')
          .where('group_members.uid', '=', uid),
      );
    if (query.joinedBy !== undefined) base = base.where(memberOf(query.joinedBy));
    if (query.visibleTo !== undefined) {
      const viewer = query.visibleTo;
      base = base.where((eb) => eb.or([eb('groups.type', '!=', 'private'), memberOf(viewer)(eb)]));
    }
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst();
    const groups = await base
      .selectAll('groups')
      .orderBy('groups.name')
      .orderBy('groups.guid')
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return { groups: groups.map(groupOf), total: Number(counted?.total ?? 0) };
  }

  async update(appId: string, guid: string, changes: GroupChanges): Promise<Group> {
    const current = await this.get(appId, guid);
    const unset = new Set(changes.unset ?? []);
    const next: Group = {
      ...current,
      name: changes.name ?? current.name,
      type: changes.type ?? current.type,
      passwordHash: changes.password === undefined ? current.passwordHash : hashPassword(changes.password),
      owner: changes.owner ?? current.owner,
      tags: changes.tags ?? current.tags,
      icon: unset.has('icon') ? undefined : (changes.icon ?? current.icon),
      description: unset.has('description') ? undefined : (changes.description ?? current.description),
      metadata: unset.has('metadata') ? undefined : (changes.metadata ?? current.metadata),
      updatedAt: nowSeconds(),
      updatedBy: changes.updatedBy,
    };
    await this.db
      .updateTable('groups')
      .set({
        name: next.name,
        type: next.type,
        password_hash: next.passwordHash ?? null,
        owner: next.owner ?? null,
        tags: JSON.stringify(next.tags),
        icon: next.icon ?? null,
        description: next.description ?? null,
        metadata: next.metadata === undefined ? null : JSON.stringify(next.metadata),
        updated_at: next.updatedAt ?? null,
        updated_by: next.updatedBy ?? null,
      })
      .where('app_id', '=', appId)
      .where('guid', '=', current.guid)
      .execute();
    await this.#groups.forget(appId, current.guid);
    return next;
  }

  /** Removes the group with its members, bans and conversation; its messages stay in the history. */
  async delete(appId: string, guid: string): Promise<void> {
    const group = await this.get(appId, guid);
    await this.db.transaction().execute(async (trx) => {
      for (const table of ['group_members', 'group_bans'] as const) {
        await trx.deleteFrom(table).where('app_id', '=', appId).where('guid', '=', group.guid).execute();
      }
      await trx
        .deleteFrom('conversations')
        .where('app_id', '=', appId)
        .where('guid', '=', group.guid)
        .execute();
      await trx.deleteFrom('groups').where('app_id', '=', appId).where('guid', '=', group.guid).execute();
    });
    await this.#groups.forget(appId, group.guid);
    await this.forgetMemberships(appId);
  }

  async member(appId: string, guid: string, uid: string, db: Db = this.db): Promise<GroupMember | undefined> {
    const read = async () => {
      const row = await db
        .selectFrom('group_members')
        .selectAll()
        .where('app_id', '=', appId)
        .where('guid', '=', guid)
        .where('uid', '=', uid)
        .executeTakeFirst();
      return row === undefined ? undefined : memberOf(row);
    };
    return db === this.db ? this.#members.load(appId, memberKey(guid, uid), read) : read();
  }

  async memberCounts(appId: string, guids: Iterable<string>, db: Db = this.db): Promise<Map<string, number>> {
    const read = async (wanted: string[]): Promise<Map<string, number>> => {
      if (wanted.length === 0) return new Map();
      const rows = await db
        .selectFrom('group_members')
        .select(['guid', (eb) => eb.fn.countAll<number>().as('count')])
        .where('app_id', '=', appId)
        .where('guid', 'in', wanted)
        .groupBy('guid')
        .execute();
      const counts = new Map(wanted.map((guid) => [guid, 0]));
      for (const row of rows) counts.set(row.guid, Number(row.count));
      return counts;
    };
    return db === this.db ? this.#memberCounts.loadMany(appId, guids, read) : read([...new Set(guids)]);
  }

  /** Members of each group online now (`getOnlineGroupMemberCount`); every guid asked for gets a count. */
  async onlineMemberCounts(appId: string, guids: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map(guids.map((guid) => [guid, 0]));
    if (guids.length === 0) return counts;
    const rows = await this.db
      .selectFrom('group_members as members')
      .innerJoin('users', (join) =>
        join.onRef('users.app_id', '=', 'members.app_id').onRef('users.uid', '=', 'members.uid'),
      )
      .select(['members.guid', (eb) => eb.fn.countAll<number>().as('online')])
      .where('members.app_id', '=', appId)
      .where('members.guid', 'in', guids)
      .where('users.status', '=', 'available')
      .where('users.deactivated_at', 'is', null)
      .groupBy('members.guid')
      .execute();
    for (const row of rows) counts.set(row.guid, Number(row.online));
    return counts;
  }

  async guidsOf(appId: string, uid: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('group_members')
      .select('guid')
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .execute();
    return rows.map((row) => row.guid);
  }

  /** The memberships of one user in the given groups. */
  async membershipsOf(
    appId: string,
    uid: string,
    guids: Iterable<string>,
  ): Promise<Map<string, GroupMember>> {
    const guidOf = new Map([...guids].map((guid) => [memberKey(guid, uid), guid]));
    const found = await this.#members.loadMany(appId, guidOf.keys(), async (missing) => {
      const rows = await this.db
        .selectFrom('group_members')
        .selectAll()
        .where('app_id', '=', appId)
        .where('uid', '=', uid)
        .where(
          'guid',
          'in',
          missing.flatMap((key) => guidOf.get(key) ?? []),
        )
        .execute();
      return new Map(rows.map((row) => [memberKey(row.guid, row.uid), memberOf(row)]));
    });
    return new Map([...found.values()].map((member) => [member.guid, member]));
  }

  /** The group's members (of one scope, whose name or UID contains `searchKey`), earliest to join first. */
  async listMembers(
    appId: string,
    guid: string,
    query: { scope?: MemberScope | undefined; searchKey?: string | undefined; page: number; perPage: number },
  ): Promise<{ members: GroupMember[]; total: number }> {
    const { rows, total } = await this.pageOfGroupUsers<MemberRow>('group_members', appId, guid, query, {
      column: 'joined_at',
      direction: 'asc',
    });
    return { members: rows.map(memberOf), total };
  }

  /**
   * One page of a group's members or bans, both keyed by (app_id, guid, uid), with how many match:
   * of one scope (members only), whose user's name or UID contains `searchKey`, in `order` then UID.
   */
  private async pageOfGroupUsers<Row>(
    table: 'group_members' | 'group_bans',
    appId: string,
    guid: string,
    query: { scope?: MemberScope | undefined; searchKey?: string | undefined; page: number; perPage: number },
    order: { column: 'joined_at' | 'banned_at'; direction: 'asc' | 'desc' },
  ): Promise<{ rows: Row[]; total: number }> {
    const entries = sql<{
      app_id: string;
      guid: string;
      uid: string;
      scope: MemberScope;
    }>`${sql.table(table)}`.as('entries');
    let base = this.db
      .selectFrom(entries)
      .where('entries.app_id', '=', appId)
      .where('entries.guid', '=', guid);
    if (query.scope !== undefined) base = base.where('entries.scope', '=', query.scope);
    if (query.searchKey !== undefined && query.searchKey !== '') {
      const searchKey = query.searchKey;
      base = base.where((eb) =>
        eb.exists(
          eb
            .selectFrom('users')
            .select('users.uid')
            .whereRef('users.app_id', '=', 'entries.app_id')
            .whereRef('users.uid', '=', 'entries.uid')
            .where(nameOrIdContains('users.name', 'users.uid', searchKey)),
        ),
      );
    }
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst();
    const rows = await base
      .selectAll('entries')
      .orderBy(sql.ref(`entries.${order.column}`), order.direction)
      .orderBy('entries.uid')
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return { rows: rows as Row[], total: Number(counted?.total ?? 0) };
  }

  /** Adds or re-scopes a member (a banned user is refused by the service before this). */
  async putMember(
    appId: string,
    guid: string,
    uid: string,
    scope: MemberScope,
    db: Db = this.db,
  ): Promise<GroupMember> {
    const row = { app_id: appId, guid, uid, scope, joined_at: nowSeconds() };
    await db
      .insertInto('group_members')
      .values(row)
      .onConflict((oc) => oc.columns(['app_id', 'guid', 'uid']).doUpdateSet({ scope }))
      .execute();
    await this.forgetMembers(appId, guid, [uid]);
    return memberOf(row);
  }

  async removeMember(appId: string, guid: string, uid: string, db: Db = this.db): Promise<boolean> {
    const deleted = await db
      .deleteFrom('group_members')
      .where('app_id', '=', appId)
      .where('guid', '=', guid)
      .where('uid', '=', uid)
      .executeTakeFirst();
    await this.forgetMembers(appId, guid, [uid]);
    return Number(deleted.numDeletedRows) > 0;
  }

  async isBanned(appId: string, guid: string, uid: string, db: Db = this.db): Promise<boolean> {
    const row = await db
      .selectFrom('group_bans')
      .select('uid')
      .where('app_id', '=', appId)
      .where('guid', '=', guid)
      .where('uid', '=', uid)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Every member's UID: who a group message or typing indicator goes to. */
  async memberUids(appId: string, guid: string): Promise<readonly string[]> {
    const uids = await this.#memberUids.load(appId, guid, async () => {
      const rows = await this.db
        .selectFrom('group_members')
        .select('uid')
        .where('app_id', '=', appId)
        .where('guid', '=', guid)
        .execute();
      return Object.freeze(rows.map((row) => row.uid));
    });
    return uids ?? [];
  }

  /** Removes the user from the group and bans them; false when they were banned already. */
  async ban(appId: string, guid: string, uid: string, db: Db = this.db): Promise<boolean> {
    await this.removeMember(appId, guid, uid, db);
    const inserted = await db
      .insertInto('group_bans')
      .values({ app_id: appId, guid, uid, banned_at: nowSeconds() })
      .onConflict((oc) => oc.columns(['app_id', 'guid', 'uid']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Lifts a ban; false when the user was not banned. */
  async unban(appId: string, guid: string, uid: string, db: Db = this.db): Promise<boolean> {
    const deleted = await db
      .deleteFrom('group_bans')
      .where('app_id', '=', appId)
      .where('guid', '=', guid)
      .where('uid', '=', uid)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  }

  /** The group's banned users (whose name or UID contains `searchKey`), most recently banned first. */
  async listBanned(
    appId: string,
    guid: string,
    query: { searchKey?: string | undefined; page: number; perPage: number },
  ): Promise<{ bans: GroupBan[]; total: number }> {
    const { rows, total } = await this.pageOfGroupUsers<BanRow>('group_bans', appId, guid, query, {
      column: 'banned_at',
      direction: 'desc',
    });
    return { bans: rows.map(banOf), total };
  }

  /** Hands the group to `owner` inside the caller's transaction; the caller calls `forgetGroup` once it has ended. */
  async setOwner(
    appId: string,
    guid: string,
    owner: string,
    updatedBy: string | undefined,
    db: Db,
  ): Promise<void> {
    await db
      .updateTable('groups')
      .set({ owner, updated_at: nowSeconds(), updated_by: updatedBy ?? null })
      .where('app_id', '=', appId)
      .where('guid', '=', guid)
      .execute();
  }
}
