import { redactInteractiveForm, type InteractiveFormData } from '../../shared/interactive.js';
import type { EntityRef, GroupEntity, Message, UserEntity } from '../../shared/message.js';
import type { App } from '../repositories/apps.js';
import { toGroupEntity, type GroupRepository, type Group } from '../repositories/groups.js';
import type { StoredMessage } from '../repositories/messages.js';
import {
  DEFAULT_ROLE,
  OFFLINE,
  toUserEntity,
  type UserRepository,
  type User,
} from '../repositories/users.js';
import { presentTo } from './private-metadata.js';

/** Who acts when a server call names no user: CometChat's `app_system`. */
export const APP_SYSTEM_UID = 'app_system';

export function appSystemEntity(app: App): UserEntity {
  return {
    uid: APP_SYSTEM_UID,
    name: 'System',
    role: DEFAULT_ROLE,
    status: OFFLINE,
    createdAt: app.createdAt,
  };
}

/** A user who no longer exists still needs an entity for old messages. */
const goneUserEntity = (uid: string): UserEntity => ({ uid, name: uid, role: DEFAULT_ROLE, status: OFFLINE });

export const userRef = (entity: UserEntity): EntityRef => ({ entity, entityType: 'user' });
export const groupRef = (entity: GroupEntity): EntityRef => ({ entity, entityType: 'group' });

/** Users, groups and member counts a set of messages refers to, loaded once per response. */
export interface EntityLookup {
  users: Map<string, User>;
  groups: Map<string, Group>;
  memberCounts: Map<string, number>;
}

export function userEntityOf(lookup: EntityLookup, uid: string, app: App): UserEntity {
  if (uid === APP_SYSTEM_UID) return appSystemEntity(app);
  const row = lookup.users.get(uid);
  return row === undefined ? goneUserEntity(uid) : toUserEntity(row);
}

export function groupEntityOf(lookup: EntityLookup, guid: string): GroupEntity {
  const row = lookup.groups.get(guid);
  if (row === undefined) return { guid, name: guid, type: 'public', conversationId: `group_${guid}` };
  return toGroupEntity(row, lookup.memberCounts.get(guid) ?? 0);
}

/**
 * What an action message keeps of the entities it is about: snapshots without users' private
 * metadata, which belongs to the user's current profile, not to the conversation's history.
 */
export const actionSnapshot = <T>(data: T): T => presentTo(data, undefined);

/**
 * Turns stored rows into CometChat message objects. Messages people send get
 * `data.entities.sender/receiver` from the current users and groups; action messages carry the
 * entities they were written with (rows written before snapshots left out private metadata lose it
 * here).
 */
export function toMessage(row: StoredMessage, lookup: EntityLookup, app: App): Message {
  const kept = row.category === 'action' ? actionSnapshot(row.data) : row.data;
  // apiAction headers carry keys meant for the action's call; responses show only their names.
  let data =
    row.category === 'interactive'
      ? (redactInteractiveForm(kept as unknown as InteractiveFormData) as unknown as Record<string, unknown>)
      : kept;
  if (row.category !== 'action') {
    const receiver: EntityRef =
      row.receiverType === 'user'
        ? userRef({ ...userEntityOf(lookup, row.receiver, app), conversationId: row.conversationId })
        : groupRef(groupEntityOf(lookup, row.receiver));
    data = { ...data, entities: { sender: userRef(userEntityOf(lookup, row.sender, app)), receiver } };
  }
  const message: Message = {
    id: String(row.id),
    conversationId: row.conversationId,
    sender: row.sender,
    receiverType: row.receiverType,
    receiver: row.receiver,
    category: row.category as Message['category'],
    type: row.type,
    data: data as Message['data'],
    sentAt: row.sentAt,
    updatedAt: row.updatedAt,
  };
  if (row.muid !== undefined) message.muid = row.muid;
  if (row.tags !== undefined) message.tags = row.tags;
  if (row.editedAt !== undefined) message.editedAt = row.editedAt;
  if (row.editedBy !== undefined) message.editedBy = row.editedBy;
  if (row.deletedAt !== undefined) message.deletedAt = row.deletedAt;
  if (row.deletedBy !== undefined) message.deletedBy = row.deletedBy;
  if (row.parentId !== undefined) message.parentId = String(row.parentId);
  if (row.replyCount > 0) message.replyCount = row.replyCount;
  return message;
}

export class EntityLoader {
  constructor(
    private readonly users: UserRepository,
    private readonly groups: GroupRepository,
  ) {}

  async forMessages(appId: string, rows: ReadonlyArray<StoredMessage>): Promise<EntityLookup> {
    const uids = new Set<string>();
    const guids = new Set<string>();
    for (const row of rows) {
      if (row.category === 'action') continue;
      uids.add(row.sender);
      if (row.receiverType === 'user') uids.add(row.receiver);
      else guids.add(row.receiver);
    }
    const [users, groups, memberCounts] = await Promise.all([
      this.users.findMany(appId, uids),
      this.groups.findMany(appId, guids),
      this.groups.memberCounts(appId, guids),
    ]);
    return { users, groups, memberCounts };
  }
}
