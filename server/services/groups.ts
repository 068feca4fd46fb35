import type { Kysely } from 'kysely';
import type { GroupEntity, Message, UserEntity } from '../../shared/message.js';
import type { MemberScope } from '../../shared/groups.js';
import type { ChatDatabase } from '../db/schema.js';
import { ChatError, guidNotFound, notAMember, uidNotFound } from '../errors.js';
import type { ChatEvents, EventOrigin } from '../events.js';
import type { App } from '../repositories/apps.js';
import {
  passwordMatches,
  toGroupEntity,
  type GroupRepository,
  type GroupRow,
  type MemberRow,
  type NewGroup,
} from '../repositories/groups.js';
import type { MessageRepository } from '../repositories/messages.js';
import { toUserEntity, type UserRepository, type UserRow } from '../repositories/users.js';
import { nowSeconds } from '../time.js';
import { actionSnapshot, appSystemEntity, groupRef, toMessage, userRef } from './entities.js';

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

export type MembersReport = Partial<Record<MemberList, Record<string, MemberOutcome>>>;

type GroupAction = 'added' | 'kicked' | 'banned' | 'joined' | 'left';

/** Group changes that write `groupMember` action messages, each with its action messages in one transaction. */
export class GroupService {
  constructor(
    private readonly db: Kysely<ChatDatabase>,
    private readonly users: UserRepository,
    private readonly groups: GroupRepository,
    private readonly messages: MessageRepository,
    private readonly events: ChatEvents,
  ) {}

  /**
   * The group `uid` names, as far as they may know of it: a private group they do not belong to
   * is answered exactly like a group that does not exist, naming nothing about it.
   */
  async visibleTo(
    appId: string,
    guid: string,
    uid: string,
  ): Promise<{ group: GroupRow; member?: MemberRow }> {
    const group = await this.groups.find(appId, guid);
    const member = group === undefined ? undefined : await this.groups.member(appId, group.guid, uid);
    if (group === undefined || (group.type === 'private' && member === undefined)) throw guidNotFound(guid);
    return member === undefined ? { group } : { group, member };
  }

  /** The group `uid` names, which they must belong to: its conversation, history and (unless public) members. */
  async ofMember(appId: string, guid: string, uid: string): Promise<GroupRow> {
    const { group, member } = await this.visibleTo(appId, guid, uid);
    if (member === undefined) throw notAMember(uid, group.guid);
    return group;
  }

  /** The group as `uid` sees it (scope, joinedAt) when given, else as the app sees it. */
  async view(appId: string, group: GroupRow, uid: string | undefined): Promise<GroupEntity> {
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
    const { row, sent } = await this.changeMembers(appId, group.guid, joining, async (trx) => {
      const row = await this.groups.create({ ...group, owner: owner?.uid }, appId, trx);
      if (owner !== undefined) await this.groups.putMember(appId, row.guid, owner.uid, 'admin', trx);
      const { sent } = await this.applyMembers(app, row, by, members, users, trx);
      return { row, sent };
    });
    for (const message of sent) this.events.emit('message', appId, message, origin);
    return this.view(appId, row, owner?.uid);
  }

  /** Adds, re-scopes or bans users; each UID is reported, unknown ones as failures. */
  async addMembers(
    app: App,
    guid: string,
    onBehalfOf: string | undefined,
    members: MemberLists,
    origin: EventOrigin,
  ): Promise<MembersReport> {
    const appId = app.appId;
    const group = await this.groups.get(appId, guid);
    const by = await this.actor(app, onBehalfOf);
    const users = await this.usersNamed(appId, members);
    const { report, sent } = await this.changeMembers(appId, group.guid, users.keys(), (trx) =>
      this.applyMembers(app, group, by, members, users, trx),
    );
    for (const message of sent) this.events.emit('message', appId, message, origin);
    return report;
  }

  async kick(
    app: App,
    guid: string,
    uid: string,
    onBehalfOf: string | undefined,
    origin: EventOrigin,
  ): Promise<void> {
    const appId = app.appId;
    const group = await this.groups.get(appId, guid);
    const user = await this.users.get(appId, uid);
    const by = await this.actor(app, onBehalfOf);
    const message = await this.changeMembers(appId, group.guid, [user.uid], async (trx) => {
      if (!(await this.groups.removeMember(appId, group.guid, user.uid, trx)))
        throw notAMember(user.uid, group.guid);
      return this.writeAction(app, group, by, user, 'kicked', trx);
    });
    this.events.emit('message', appId, message, origin);
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
      (password === undefined || !passwordMatches(password, group.password_hash ?? ''))
    ) {
      throw new ChatError(403, 'ERR_WRONG_GROUP_PASS', `Wrong password for the group ${group.guid}.`, {
        guid: group.guid,
      });
    }
    const message = await this.changeMembers(appId, group.guid, [user.uid], async (trx) => {
      await this.groups.putMember(appId, group.guid, user.uid, 'participant', trx);
      return this.writeAction(app, group, toUserEntity(user), user, 'joined', trx);
    });
    this.events.emit('message', appId, message, origin);
    return message;
  }

  /** A member leaves on their own; answers with the `left` action message. */
  async leave(app: App, guid: string, uid: string, origin: EventOrigin): Promise<Message> {
    const appId = app.appId;
    const user = await this.users.get(appId, uid);
    const { group } = await this.visibleTo(appId, guid, user.uid);
    const message = await this.changeMembers(appId, group.guid, [user.uid], async (trx) => {
      if (!(await this.groups.removeMember(appId, group.guid, user.uid, trx)))
        throw notAMember(user.uid, group.guid);
      return this.writeAction(app, group, toUserEntity(user), user, 'left', trx);
    });
    this.events.emit('message', appId, message, origin);
    return message;
  }

  /**
   * Runs `work` in a transaction that changes these members of the group, then has the cached
   * memberships forgotten: a send that read them while the transaction was open may have cached
   * them as they were before it.
   */
  private async changeMembers<T>(
    appId: string,
    guid: string,
    uids: Iterable<string>,
    work: (trx: Kysely<ChatDatabase>) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.db.transaction().execute(work);
    } finally {
      this.groups.forgetMembers(appId, guid, uids);
    }
  }

  /** Who acts: the onBehalfOf user, else the app itself. */
  private async actor(app: App, onBehalfOf: string | undefined): Promise<UserEntity> {
    return onBehalfOf === undefined
      ? appSystemEntity(app)
      : toUserEntity(await this.users.get(app.appId, onBehalfOf));
  }

  /**
   * Loaded before the transaction opens: SQLite runs on one connection, so a query outside the
   * transaction while it is open would wait for it forever.
   */
  private usersNamed(appId: string, members: MemberLists): Promise<Map<string, UserRow>> {
    const uids = Object.values(members).flatMap((list: string[] | undefined) => list ?? []);
    return this.users.findMany(
      appId,
      uids.map((uid) => uid.toLowerCase()),
    );
  }

  private async applyMembers(
    app: App,
    group: GroupRow,
    by: UserEntity,
    members: MemberLists,
    users: Map<string, UserRow>,
    trx: Kysely<ChatDatabase>,
  ): Promise<{ report: MembersReport; sent: Message[] }> {
    const appId = app.appId;
    const lists = Object.entries(members).filter(
      (entry): entry is [MemberList, string[]] => entry[1] !== undefined,
    );
    const report: MembersReport = {};
    const sent: Message[] = [];
    for (const [list, uids] of lists) {
      const outcomes: Record<string, MemberOutcome> = {};
      for (const requested of uids) {
        const uid = requested.toLowerCase();
        const user = users.get(uid);
        if (user === undefined) {
          const { code, message } = uidNotFound(uid);
          outcomes[uid] = { success: false, error: { code, message } };
          continue;
        }
        if (list === 'usersToBan') {
          await this.groups.ban(appId, group.guid, uid, trx);
          const message = await this.writeAction(app, group, by, user, 'banned', trx);
          sent.push(message);
          outcomes[uid] = { success: true, data: message };
        } else {
          await this.groups.putMember(appId, group.guid, uid, SCOPE_OF[list], trx);
          const message = await this.writeAction(app, group, by, user, 'added', trx);
          sent.push(message);
          outcomes[uid] = { success: true, data: message };
        }
      }
      report[list] = outcomes;
    }
    return { report, sent };
  }

  private async writeAction(
    app: App,
    group: GroupRow,
    by: UserEntity,
    on: UserRow,
    action: GroupAction,
    trx: Kysely<ChatDatabase>,
  ): Promise<Message> {
    const appId = app.appId;
    const counts = await this.groups.memberCounts(appId, [group.guid], trx);
    const row = await this.messages.insert(
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
          entities: {
            by: userRef(by),
            on: userRef(toUserEntity(on)),
            for: groupRef(toGroupEntity(group, counts.get(group.guid) ?? 0)),
          },
        }),
        sentAt: nowSeconds(),
      },
      trx,
    );
    return toMessage(row, { users: new Map(), groups: new Map(), memberCounts: new Map() }, app);
  }
}
