import type { Kysely } from 'kysely';
import type { GroupEntity, Message, UserEntity } from '../../shared/message.js';
import type { MemberScope, MemberScopeChange } from '../../shared/groups.js';
import type { ChatDatabase } from '../db/schema.js';
import { ChatError, badRequest, guidNotFound, notAMember, uidNotFound } from '../errors.js';
import type { ChatEvents, EventOrigin } from '../events.js';
import type { App } from '../repositories/apps.js';
import {
  passwordMatches,
  toGroupEntity,
  type GroupChanges,
  type GroupRepository,
  type Group,
  type GroupBan,
  type GroupMember,
  type GroupQuery,
  type NewGroup,
} from '../repositories/groups.js';
import type { MessageRepository } from '../repositories/messages.js';
import { toUserEntity, type UserRepository, type User } from '../repositories/users.js';
import { nowSeconds } from '../time.js';
import type { NotifiedChanges, RowOf } from './decisions.js';
import { actionSnapshot, appSystemEntity, groupRef, toMessage, userRef } from './entities.js';
import { rankOf, requireAbove, requireGrantable, requireScope, type Authority } from './group-scopes.js';

/** What a page of a group's members may be narrowed to. */
export type MemberQuery = Parameters<GroupRepository['listMembers']>[2];

/**
 * Who calls: the app (the server API, acting as `uid` when `onBehalfOf` names one) or a client
 * acting as its user. The HTTP layer's actor is one.
 */
export interface GroupCaller {
  app: App;
  kind: 'server' | 'client';
  uid: string | undefined;
  origin: EventOrigin;
}

export interface MemberLists {
  admins?: string[] | undefined;
  moderators?: string[] | undefined;
  participants?: string[] | undefined;
  usersToBan?: string[] | undefined;
}

type MemberList = keyof MemberLists;
const SCOPE_OF: Record<Exclude<MemberList, 'usersToBan'>, MemberScope> = {
  admins: 'admin',
  moderators: 'moderator',
  participants: 'participant',
};

export type MemberOutcome =
  { success: true; data?: Message } | { success: false; error: { code: string; message: string } };

export type MembersReport = Record<MemberList, Record<string, MemberOutcome>>;

type GroupAction = 'added' | 'kicked' | 'banned' | 'unbanned' | 'scopeChanged' | 'joined' | 'left';

/** An action message as written, and the decision-queue row stored with it, if any. */
interface WrittenAction {
  message: Message;
  decisionId: number | undefined;
}

/** One step up (promote) or down (demote) the scopes: participant, moderator, admin. */
export type ScopeStep = { step: 1 | -1 };
const LADDER: readonly MemberScope[] = ['participant', 'moderator', 'admin'];
/** The scope a step away from `current`; at either end, `current` itself. */
const stepped = (current: MemberScope, { step }: ScopeStep): MemberScope =>
  LADDER[Math.min(LADDER.length - 1, Math.max(0, LADDER.indexOf(current) + step))] ?? current;

const failure = ({ code, message }: ChatError): MemberOutcome => ({
  success: false,
  error: { code, message },
});

const sameScope = (uid: string, scope: MemberScope): ChatError =>
  new ChatError(400, 'ERR_SAME_SCOPE', `scope: ${uid} is ${scope} already.`, { field: 'scope', uid, scope });

const notJoined = (uid: string, guid: string): ChatError =>
  new ChatError(403, 'ERR_GROUP_NOT_JOINED', `The user ${uid} has not joined the group ${guid}.`, {
    uid,
    guid,
  });

/** Group changes that write `groupMember` action messages, each with its action messages in one transaction. */
export class GroupService {
  constructor(
    private readonly db: Kysely<ChatDatabase>,
    private readonly users: UserRepository,
    private readonly groups: GroupRepository,
    private readonly messages: MessageRepository,
    private readonly events: ChatEvents,
    private readonly notified: NotifiedChanges,
  ) {}

  /**
   * The group `uid` names, as far as they may know of it: a private group they do not belong to
   * is answered exactly like a group that does not exist, naming nothing about it.
   */
  async visibleTo(appId: string, guid: string, uid: string): Promise<{ group: Group; member?: GroupMember }> {
    const group = await this.groups.find(appId, guid);
    const member = group === undefined ? undefined : await this.groups.member(appId, group.guid, uid);
    if (group === undefined || (group.type === 'private' && member === undefined)) throw guidNotFound(guid);
    return member === undefined ? { group } : { group, member };
  }

  /** The group `uid` names, which they must belong to: its conversation, history and (unless public) members. */
  async ofMember(appId: string, guid: string, uid: string): Promise<Group> {
    const { group, member } = await this.visibleTo(appId, guid, uid);
    if (member === undefined) throw notAMember(uid, group.guid);
    return group;
  }

  /**
   * The group a caller names, with the membership of the user it acts as: a client's as
   * `visibleTo`; the app sees any group (as its `onBehalfOf` user's membership, if any).
   */
  async seenBy(
    appId: string,
    guid: string,
    caller: Pick<GroupCaller, 'kind' | 'uid'>,
  ): Promise<{ group: Group; member?: GroupMember | undefined }> {
    if (caller.kind === 'client' && caller.uid !== undefined) return this.visibleTo(appId, guid, caller.uid);
    const group = await this.groups.get(appId, guid);
    return {
      group,
      member: caller.uid === undefined ? undefined : await this.groups.member(appId, group.guid, caller.uid),
    };
  }

  /**
   * The group whose conversation and history the caller reads: a client must belong to it (a
   * private group it does not belong to does not exist for it); the app reads any group, as a
   * member when `onBehalfOf` names a user.
   */
  async readableBy(appId: string, guid: string, caller: Pick<GroupCaller, 'kind' | 'uid'>): Promise<Group> {
    if (caller.kind === 'client' && caller.uid !== undefined) return this.ofMember(appId, guid, caller.uid);
    const group = await this.groups.get(appId, guid);
    if (caller.uid !== undefined) {
      await this.users.get(appId, caller.uid);
      if ((await this.groups.member(appId, group.guid, caller.uid)) === undefined)
        throw notAMember(caller.uid, group.guid);
    }
    return group;
  }

  /** A page of groups, with their member counts and the memberships of `viewer` (when given). */
  async list(
    appId: string,
    query: GroupQuery,
    viewer: string | undefined,
  ): Promise<{
    groups: Group[];
    total: number;
    counts: Map<string, number>;
    memberships: Map<string, GroupMember>;
  }> {
    const { groups, total } = await this.groups.list(appId, query);
    const guids = groups.map((group) => group.guid);
    const [counts, memberships] = await Promise.all([
      this.groups.memberCounts(appId, guids),
      viewer === undefined ? new Map<string, GroupMember>() : this.groups.membershipsOf(appId, viewer, guids),
    ]);
    return { groups, total, counts, memberships };
  }

  /** A page of the group's members, with the active users among them. */
  async members(
    appId: string,
    guid: string,
    query: MemberQuery,
  ): Promise<{ members: GroupMember[]; total: number; users: Map<string, User> }> {
    const { members, total } = await this.groups.listMembers(appId, guid, query);
    const users = await this.users.findMany(
      appId,
      members.map((member) => member.uid),
    );
    return { members, total, users };
  }

  /** The groups of the app among `guids`. */
  findMany(appId: string, guids: Iterable<string>): Promise<Map<string, Group>> {
    return this.groups.findMany(appId, guids);
  }

  /** The memberships `uid` has among `guids`. */
  membershipsOf(appId: string, uid: string, guids: Iterable<string>): Promise<Map<string, GroupMember>> {
    return this.groups.membershipsOf(appId, uid, guids);
  }

  /** How many members of each group are online now. */
  onlineMemberCounts(appId: string, guids: readonly string[]): Promise<Map<string, number>> {
    return this.groups.onlineMemberCounts(appId, guids);
  }

  /** The membership `uid` has in the group, if any. */
  member(appId: string, guid: string, uid: string): Promise<GroupMember | undefined> {
    return this.groups.member(appId, guid, uid);
  }

  /** The group as `uid` sees it (scope, joinedAt) when given, else as the app sees it. */
  async view(appId: string, group: Group, uid: string | undefined): Promise<GroupEntity> {
    const [counts, member] = await Promise.all([
      this.groups.memberCounts(appId, [group.guid]),
      uid === undefined ? undefined : this.groups.member(appId, group.guid, uid),
    ]);
    return toGroupEntity(group, counts.get(group.guid) ?? 0, member);
  }

  /** Creates the group; the owner (onBehalfOf, else `owner`) joins as admin, listed members are added. */
  async create(
    app: App,
    group: NewGroup,
    onBehalfOf: string | undefined,
    members: MemberLists,
    origin: EventOrigin,
  ): Promise<GroupEntity> {
    const appId = app.appId;
    const ownerUid = onBehalfOf ?? group.owner;
    const owner = ownerUid === undefined ? undefined : await this.users.get(appId, ownerUid);
    const by = owner === undefined ? appSystemEntity(app) : toUserEntity(owner);
    const users = await this.usersNamed(appId, members);
    const joining = [...users.keys(), ...(owner === undefined ? [] : [owner.uid])];
    const { row, sent } = await this.changeMembers(appId, group.guid, joining, async (trx, rowOf) => {
      const row = await this.groups.create({ ...group, owner: owner?.uid }, appId, trx);
      if (owner !== undefined) await this.groups.putMember(appId, row.guid, owner.uid, 'admin', trx);
      const authority: Authority =
        owner === undefined
          ? { kind: 'app' }
          : { kind: 'member', uid: owner.uid, scope: 'admin', isOwner: true };
      const { sent } = await this.applyMembers(app, row, authority, by, members, users, trx, rowOf);
      return { row, sent };
    });
    for (const action of sent) this.announce(appId, action, origin);
    return this.view(appId, row, owner?.uid);
  }

  /**
   * Adds users with a scope, re-scopes members already in, or bans users (`usersToBan`); each UID
   * is reported on its own: unknown users, banned users, scopes the caller cannot grant and members
   * it cannot touch are failures beside the successes. Only an admin (or the app) adds members.
   */
  async addMembers(caller: GroupCaller, guid: string, members: MemberLists): Promise<MembersReport> {
    const appId = caller.app.appId;
    const { group, authority, by } = await this.standing(caller, guid);
    requireScope(group, authority, 'admin');
    const users = await this.usersNamed(appId, members);
    const { report, sent } = await this.changeMembers(appId, group.guid, users.keys(), (trx, rowOf) =>
      this.applyMembers(caller.app, group, authority, by, members, users, trx, rowOf),
    );
    for (const action of sent) this.announce(appId, action, caller.origin);
    return report;
  }

  /** A moderator or admin removes a member ranked below them; the member may join again. */
  async kick(caller: GroupCaller, guid: string, uid: string): Promise<void> {
    const appId = caller.app.appId;
    const { group, authority, by } = await this.standing(caller, guid);
    requireScope(group, authority, 'moderator');
    const user = await this.users.get(appId, uid);
    const action = await this.changeMembers(appId, group.guid, [user.uid], async (trx, rowOf) => {
      const member = await this.groups.member(appId, group.guid, user.uid, trx);
      if (member === undefined) throw notAMember(user.uid, group.guid);
      requireAbove(group, authority, user.uid, rankOf(group, member));
      await this.groups.removeMember(appId, group.guid, user.uid, trx);
      return this.writeAction(caller.app, group, by, user, 'kicked', trx, rowOf);
    });
    this.announce(appId, action, caller.origin);
  }

  /** A moderator or admin bans a user ranked below them (a member or not): out, and kept out. */
  async ban(caller: GroupCaller, guid: string, uid: string): Promise<void> {
    const appId = caller.app.appId;
    const { group, authority, by } = await this.standing(caller, guid);
    requireScope(group, authority, 'moderator');
    const user = await this.users.get(appId, uid);
    const action = await this.changeMembers(appId, group.guid, [user.uid], (trx, rowOf) =>
      this.banInside(caller.app, group, authority, by, user, trx, rowOf),
    );
    this.announce(appId, action, caller.origin);
  }

  /** A moderator or admin lifts a ban; the user may join or be added again. */
  async unban(caller: GroupCaller, guid: string, uid: string): Promise<void> {
    const appId = caller.app.appId;
    const { group, authority, by } = await this.standing(caller, guid);
    requireScope(group, authority, 'moderator');
    const user = await this.users.get(appId, uid);
    const action = await this.changeMembers(appId, group.guid, [user.uid], async (trx, rowOf) => {
      if (!(await this.groups.unban(appId, group.guid, user.uid, trx))) {
        throw new ChatError(
          404,
          'ERR_NOT_A_BANNED_USER',
          `The user ${user.uid} is not banned from ${group.guid}.`,
          { uid: user.uid, guid: group.guid },
        );
      }
      return this.writeAction(caller.app, group, by, user, 'unbanned', trx, rowOf);
    });
    this.announce(appId, action, caller.origin);
  }

  /** The group's banned users, for its moderators and admins (and the app). */
  async banned(
    caller: GroupCaller,
    guid: string,
    query: { searchKey?: string | undefined; page: number; perPage: number },
  ): Promise<{ bans: GroupBan[]; users: Map<string, User>; total: number }> {
    const appId = caller.app.appId;
    const { group, authority } = await this.standing(caller, guid);
    requireScope(group, authority, 'moderator');
    const { bans, total } = await this.groups.listBanned(appId, group.guid, query);
    const users = await this.users.findMany(
      appId,
      bans.map((ban) => ban.uid),
    );
    return { bans, users, total };
  }

  /**
   * A moderator or admin changes the scope of a member ranked below them (to a scope, or a step up
   * or down), to at most their own scope; answers the membership as it is now.
   */
  async changeScope(
    caller: GroupCaller,
    guid: string,
    uid: string,
    change: MemberScope | ScopeStep,
  ): Promise<MemberScopeChange> {
    const appId = caller.app.appId;
    const { group, authority, by } = await this.standing(caller, guid);
    requireScope(group, authority, 'moderator');
    const user = await this.users.get(appId, uid);
    const { member, scope, action } = await this.changeMembers(
      appId,
      group.guid,
      [user.uid],
      async (trx, rowOf) => {
        const member = await this.groups.member(appId, group.guid, user.uid, trx);
        if (member === undefined) throw notAMember(user.uid, group.guid);
        requireAbove(group, authority, user.uid, rankOf(group, member), { peers: true });
        const scope = typeof change === 'string' ? change : stepped(member.scope, change);
        requireGrantable(group, authority, scope);
        if (member.scope === scope) throw sameScope(user.uid, scope);
        await this.groups.putMember(appId, group.guid, user.uid, scope, trx);
        const action = await this.writeAction(caller.app, group, by, user, 'scopeChanged', trx, rowOf, {
          scope: { new: scope, old: member.scope },
        });
        return { member, scope, action };
      },
    );
    this.announce(appId, action, caller.origin);
    return { guid: group.guid, uid: user.uid, scope, joinedAt: member.joinedAt };
  }

  /**
   * The owner (or the app) hands the group to another member, who becomes an admin if they were
   * not one (with a `scopeChanged` action message); the former owner stays an admin.
   */
  async transferOwnership(caller: GroupCaller, guid: string, uid: string): Promise<string> {
    const appId = caller.app.appId;
    const { group, authority, by } = await this.standing(caller, guid);
    if (authority.kind === 'member' && !authority.isOwner) {
      throw new ChatError(
        403,
        'ERR_GROUP_NO_CLEARANCE',
        `Only the owner of the group ${group.guid} can transfer its ownership.`,
        { uid: authority.uid, guid: group.guid },
      );
    }
    const user = await this.users.get(appId, uid);
    if (group.owner === user.uid) throw badRequest('owner', `${user.uid} owns the group already`);
    const action = await this.changeMembers(appId, group.guid, [user.uid], async (trx, rowOf) => {
      const member = await this.groups.member(appId, group.guid, user.uid, trx);
      if (member === undefined) throw notAMember(user.uid, group.guid);
      const updatedBy = authority.kind === 'member' ? authority.uid : undefined;
      await this.groups.setOwner(appId, group.guid, user.uid, updatedBy, trx);
      if (member.scope === 'admin') return undefined;
      await this.groups.putMember(appId, group.guid, user.uid, 'admin', trx);
      const owned = { ...group, owner: user.uid };
      return this.writeAction(caller.app, owned, by, user, 'scopeChanged', trx, rowOf, {
        scope: { new: 'admin', old: member.scope },
      });
    });
    await this.groups.forgetGroup(appId, group.guid);
    if (action !== undefined) this.announce(appId, action, caller.origin);
    return `Ownership transferred to user ${user.uid} for the group with guid ${group.guid}.`;
  }

  /** A moderator or admin (or the app) updates the group; only the app names a new owner. */
  async update(caller: GroupCaller, guid: string, changes: GroupChanges): Promise<GroupEntity> {
    const appId = caller.app.appId;
    const { group, authority } = await this.standing(caller, guid);
    requireScope(group, authority, 'moderator');
    const { owner, ...rest } = changes;
    if (owner !== undefined && authority.kind === 'app')
      await this.transferOwnership(caller, group.guid, owner);
    const updated = await this.groups.update(appId, group.guid, {
      ...rest,
      updatedBy: authority.kind === 'member' ? authority.uid : undefined,
    });
    return this.view(appId, updated, caller.uid);
  }

  /** An admin (or the app) deletes the group with its members and bans; its history stays. */
  async delete(caller: GroupCaller, guid: string): Promise<string> {
    const { group, authority } = await this.standing(caller, guid);
    requireScope(group, authority, 'admin');
    await this.groups.delete(caller.app.appId, group.guid);
    return group.guid;
  }

  /**
   * A user joins on their own (client API): public groups freely, password groups with the
   * password; banned users are refused, and private groups (members are added) do not exist for
   * them. Answers with the `joined` action message.
   */
  async join(
    app: App,
    guid: string,
    uid: string,
    password: string | undefined,
    origin: EventOrigin,
  ): Promise<Message> {
    const appId = app.appId;
    const user = await this.users.get(appId, uid);
    const { group, member } = await this.visibleTo(appId, guid, user.uid);
    if (member !== undefined) {
      throw new ChatError(
        409,
        'ERR_ALREADY_JOINED',
        `The user ${user.uid} is already a member of ${group.guid}.`,
        {
          uid: user.uid,
          guid: group.guid,
        },
      );
    }
    if (await this.groups.isBanned(appId, group.guid, user.uid)) {
      throw new ChatError(
        403,
        'ERR_BANNED_GROUPMEMBER',
        `The user ${user.uid} is banned from ${group.guid}.`,
        {
          guid: group.guid,
        },
      );
    }
    if (
      group.type === 'password' &&
      (password === undefined || !passwordMatches(password, group.passwordHash ?? ''))
    ) {
      throw new ChatError(403, 'ERR_WRONG_GROUP_PASS', `Wrong password for the group ${group.guid}.`, {
        guid: group.guid,
      });
    }
    const action = await this.changeMembers(appId, group.guid, [user.uid], async (trx, rowOf) => {
      await this.groups.putMember(appId, group.guid, user.uid, 'participant', trx);
      return this.writeAction(app, group, toUserEntity(user), user, 'joined', trx, rowOf);
    });
    this.announce(appId, action, origin);
    return action.message;
  }

  /** A member leaves on their own; the owner must transfer the group first. Answers with the `left` action message. */
  async leave(app: App, guid: string, uid: string, origin: EventOrigin): Promise<Message> {
    const appId = app.appId;
    const user = await this.users.get(appId, uid);
    const { group } = await this.visibleTo(appId, guid, user.uid);
    if (group.owner === user.uid) {
      throw new ChatError(
        403,
        'ERR_GROUP_NO_CLEARANCE',
        `The user ${user.uid} owns the group ${group.guid}: transfer the ownership before leaving.`,
        { uid: user.uid, guid: group.guid },
      );
    }
    const action = await this.changeMembers(appId, group.guid, [user.uid], async (trx, rowOf) => {
      if (!(await this.groups.removeMember(appId, group.guid, user.uid, trx)))
        throw notAMember(user.uid, group.guid);
      return this.writeAction(app, group, toUserEntity(user), user, 'left', trx, rowOf);
    });
    this.announce(appId, action, origin);
    return action.message;
  }

  /**
   * Runs `work` in a transaction that changes these members of the group, then has the cached
   * memberships forgotten: a send that read them while the transaction was open may have cached
   * them as they were before it. `work` gets what makes its action messages' decision-queue rows
   * when notifications want them.
   */
  private async changeMembers<T>(
    appId: string,
    guid: string,
    uids: Iterable<string>,
    work: (trx: Kysely<ChatDatabase>, rowOf: RowOf | undefined) => Promise<T>,
  ): Promise<T> {
    const rowOf = await this.notified.rowsFor(appId);
    try {
      return await this.db.transaction().execute((trx) => work(trx, rowOf));
    } finally {
      await this.groups.forgetMembers(appId, guid, uids);
    }
  }

  /** Announces an action message once its change has committed. */
  private announce(appId: string, action: WrittenAction, origin: EventOrigin): void {
    this.events.emit('message', appId, action.message, origin, action.decisionId);
  }

  /**
   * The group the caller names and what they are in it. A client does not see private groups it
   * is not in (`ERR_GUID_NOT_FOUND`); a user who acts must have joined (`ERR_GROUP_NOT_JOINED`);
   * the app without `onBehalfOf` acts as itself.
   */
  private async standing(
    caller: GroupCaller,
    guid: string,
  ): Promise<{ group: Group; authority: Authority; by: UserEntity }> {
    const appId = caller.app.appId;
    if (caller.uid === undefined) {
      return {
        group: await this.groups.get(appId, guid),
        authority: { kind: 'app' },
        by: appSystemEntity(caller.app),
      };
    }
    const user = await this.users.get(appId, caller.uid);
    const { group, member } =
      caller.kind === 'client'
        ? await this.visibleTo(appId, guid, user.uid)
        : await this.groups.get(appId, guid).then(async (group) => ({
            group,
            member: await this.groups.member(appId, group.guid, user.uid),
          }));
    if (member === undefined) throw notJoined(user.uid, group.guid);
    return {
      group,
      authority: { kind: 'member', uid: user.uid, scope: member.scope, isOwner: group.owner === user.uid },
      by: toUserEntity(user),
    };
  }

  /** Bans `user` from the group inside `trx`, if the authority ranks above them; answers the `banned` action. */
  private async banInside(
    app: App,
    group: Group,
    authority: Authority,
    by: UserEntity,
    user: User,
    trx: Kysely<ChatDatabase>,
    rowOf: RowOf | undefined,
  ): Promise<WrittenAction> {
    const member = await this.groups.member(app.appId, group.guid, user.uid, trx);
    requireAbove(group, authority, user.uid, rankOf(group, member));
    if (!(await this.groups.ban(app.appId, group.guid, user.uid, trx))) {
      throw new ChatError(
        409,
        'ERR_ALREADY_BANNED',
        `The user ${user.uid} is banned from ${group.guid} already.`,
        {
          uid: user.uid,
          guid: group.guid,
        },
      );
    }
    return this.writeAction(app, group, by, user, 'banned', trx, rowOf);
  }

  /** Adds `user` with `scope`, or re-scopes them if they are in; refuses banned users. */
  private async addInside(
    app: App,
    group: Group,
    authority: Authority,
    by: UserEntity,
    user: User,
    scope: MemberScope,
    trx: Kysely<ChatDatabase>,
    rowOf: RowOf | undefined,
  ): Promise<WrittenAction> {
    const appId = app.appId;
    requireGrantable(group, authority, scope);
    if (await this.groups.isBanned(appId, group.guid, user.uid, trx)) {
      throw new ChatError(
        403,
        'ERR_BANNED_GROUPMEMBER',
        `The user ${user.uid} is banned from ${group.guid}.`,
        {
          uid: user.uid,
          guid: group.guid,
        },
      );
    }
    const member = await this.groups.member(appId, group.guid, user.uid, trx);
    if (member === undefined) {
      await this.groups.putMember(appId, group.guid, user.uid, scope, trx);
      return this.writeAction(app, group, by, user, 'added', trx, rowOf);
    }
    requireAbove(group, authority, user.uid, rankOf(group, member), { peers: true });
    if (member.scope === scope) throw sameScope(user.uid, scope);
    await this.groups.putMember(appId, group.guid, user.uid, scope, trx);
    return this.writeAction(app, group, by, user, 'scopeChanged', trx, rowOf, {
      scope: { new: scope, old: member.scope },
    });
  }

  /**
   * Loaded before the transaction opens: SQLite runs on one connection, so a query outside the
   * transaction while it is open would wait for it forever.
   */
  private usersNamed(appId: string, members: MemberLists): Promise<Map<string, User>> {
    const uids = Object.values(members).flatMap((list: string[] | undefined) => list ?? []);
    return this.users.findMany(
      appId,
      uids.map((uid) => uid.toLowerCase()),
    );
  }

  /** Every list's users, each reported on its own: a refusal of one is that UID's failure. */
  private async applyMembers(
    app: App,
    group: Group,
    authority: Authority,
    by: UserEntity,
    members: MemberLists,
    users: Map<string, User>,
    trx: Kysely<ChatDatabase>,
    rowOf: RowOf | undefined,
  ): Promise<{ report: MembersReport; sent: WrittenAction[] }> {
    const lists = Object.entries(members).filter(
      (entry): entry is [MemberList, string[]] => entry[1] !== undefined,
    );
    // Every list is answered, asked for or not: the SDK's addMembersToGroup reads all four.
    const report: MembersReport = { admins: {}, moderators: {}, participants: {}, usersToBan: {} };
    const sent: WrittenAction[] = [];
    for (const [list, uids] of lists) {
      const outcomes: Record<string, MemberOutcome> = {};
      for (const requested of uids) {
        const uid = requested.toLowerCase();
        const user = users.get(uid);
        if (user === undefined) {
          outcomes[uid] = failure(uidNotFound(uid));
          continue;
        }
        try {
          const action =
            list === 'usersToBan'
              ? await this.banInside(app, group, authority, by, user, trx, rowOf)
              : await this.addInside(app, group, authority, by, user, SCOPE_OF[list], trx, rowOf);
          sent.push(action);
          outcomes[uid] = { success: true, data: action.message };
        } catch (error) {
          if (!(error instanceof ChatError)) throw error;
          outcomes[uid] = failure(error);
        }
      }
      report[list] = outcomes;
    }
    return { report, sent };
  }

  /** The `groupMember` action message of a change, with its decision-queue row when `rowOf` makes one. */
  private async writeAction(
    app: App,
    group: Group,
    by: UserEntity,
    on: User,
    action: GroupAction,
    trx: Kysely<ChatDatabase>,
    rowOf: RowOf | undefined,
    extras?: { scope: { new: MemberScope; old: MemberScope } },
  ): Promise<WrittenAction> {
    const appId = app.appId;
    const counts = await this.groups.memberCounts(appId, [group.guid], trx);
    const { message, decisionId } = await this.messages.insert(
      appId,
      {
        conversationId: `group_${group.guid}`,
        sender: by.uid,
        receiverType: 'group',
        receiver: group.guid,
        category: 'action',
        type: 'groupMember',
        data: actionSnapshot({
          action,
          ...(extras === undefined ? {} : { extras }),
          entities: {
            by: userRef(by),
            on: userRef(toUserEntity(on)),
            for: groupRef(toGroupEntity(group, counts.get(group.guid) ?? 0)),
          },
        }),
        sentAt: nowSeconds(),
        decision: rowOf?.({ kind: 'message' }),
      },
      trx,
    );
    const lookup = { users: new Map(), groups: new Map(), memberCounts: new Map() };
    return { message: toMessage(message, lookup, app), decisionId };
  }
}
