import type { Conversation } from '../../shared/conversations.js';
import { conversationIdFor, type GroupEntity, type UserEntity } from '../../shared/message.js';
import type { App } from '../repositories/apps.js';
import { blockFlags, type BlockedUserRepository } from '../repositories/blocked-users.js';
import type { ConversationTagRepository } from '../repositories/conversation-tags.js';
import type { ConversationRepository, StoredConversation } from '../repositories/conversations.js';
import type { ReadPointer, ReadStateRepository } from '../repositories/read-state.js';
import { toGroupEntity, type GroupRepository } from '../repositories/groups.js';
import type { MessageRepository, StoredMessage } from '../repositories/messages.js';
import type { PinRepository } from '../repositories/pins.js';
import { toUserEntity, type User, type UserRepository } from '../repositories/users.js';
import { conversationNotFound } from '../errors.js';
import type { MessageService } from './messages.js';

/** What a page of a user's conversations may be narrowed to. */
export type ConversationQuery = Parameters<ConversationRepository['listFor']>[3];

/** The user of a one-to-one conversation who is not `viewer` (the viewer, in a chat with themselves). */
const otherOf = (uids: [string, string], viewer: string): string => (uids[0] === viewer ? uids[1] : uids[0]);

/** Conversations as one user sees them: the other party, the last message and what is unread. */
export class ConversationService {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly users: UserRepository,
    private readonly groups: GroupRepository,
    private readonly messages: MessageRepository,
    private readonly messageService: MessageService,
    private readonly tags: ConversationTagRepository,
    private readonly blocks: BlockedUserRepository,
    private readonly pins: PinRepository,
    private readonly readState: ReadStateRepository,
  ) {}

  /** The conversation as stored, if it has one (a message, or a pin before the first). */
  find(appId: string, conversationId: string): Promise<StoredConversation | undefined> {
    return this.conversations.find(appId, conversationId);
  }

  /** The conversation as `uid` has it: none where they deleted it and nobody wrote since. */
  findFor(appId: string, conversationId: string, uid: string): Promise<StoredConversation | undefined> {
    return this.conversations.findFor(appId, conversationId, uid);
  }

  /** A page of the conversations of `uid` (an active user): their one-on-one chats and their groups'. */
  async listFor(
    appId: string,
    uid: string,
    query: ConversationQuery,
  ): Promise<{ user: User; conversations: StoredConversation[]; total: number }> {
    const user = await this.users.get(appId, uid);
    const guids = await this.groups.guidsOf(appId, user.uid);
    return { user, ...(await this.conversations.listFor(appId, user.uid, guids, query)) };
  }

  /** The id of the one-on-one conversation of `viewer` with `other`, both active users. */
  async withUser(appId: string, viewer: string, other: string): Promise<string> {
    const [from, to] = [await this.users.get(appId, viewer), await this.users.get(appId, other)];
    return conversationIdFor({ receiverType: 'user', sender: from.uid, receiver: to.uid });
  }

  /** The conversation's last message, if it has one. */
  async lastMessage(appId: string, conversationId: string): Promise<StoredMessage | undefined> {
    const lastId = (await this.conversations.find(appId, conversationId))?.lastMessageId;
    return lastId === undefined ? undefined : this.messages.find(appId, lastId);
  }

  /** How far `uid` read each of these conversations. */
  readPointers(appId: string, uid: string, conversationIds: string[]): Promise<Map<string, ReadPointer>> {
    return this.readState.forMember(appId, uid, conversationIds);
  }

  /** Message `messageId` and all after it are unread again for `uid`. */
  markUnreadFrom(appId: string, conversationId: string, uid: string, messageId: number): Promise<void> {
    return this.readState.markUnreadFrom(appId, conversationId, uid, messageId);
  }

  /** Sets the tags `uid` gives a conversation of the app (`ERR_CONVERSATION_NOT_FOUND` if none). */
  async tag(appId: string, uid: string, conversationId: string, tags: string[]): Promise<void> {
    if ((await this.conversations.find(appId, conversationId)) === undefined)
      throw conversationNotFound(conversationId);
    await this.tags.set(appId, uid, conversationId, tags);
  }

  /** Deletes the conversation for `uid` only (`ERR_CONVERSATION_NOT_FOUND` if they have none). */
  async deleteFor(appId: string, conversationId: string, uid: string): Promise<void> {
    if (!(await this.conversations.deleteFor(appId, conversationId, uid)))
      throw conversationNotFound(conversationId);
  }

  /**
   * Fills last messages, the other party, unread counts and the viewer's own pins (`pinnedAt`,
   * `pinnedBy`) for a page of conversations in a few queries.
   */
  async present(
    app: App,
    viewer: string,
    stored: ReadonlyArray<StoredConversation>,
  ): Promise<Conversation[]> {
    const { appId } = app;
    const others = stored.flatMap((item) => (item.uids === undefined ? [] : [otherOf(item.uids, viewer)]));
    const guids = stored.flatMap((item) => (item.guid === undefined ? [] : [item.guid]));
    const conversationIds = stored.map((item) => item.conversationId);
    const [lastRows, people, groupRows, counts, memberships, unread, tags, blocks, pins] = await Promise.all([
      this.messages.findMany(
        appId,
        stored.map((item) => item.lastMessageId),
      ),
      this.users.findMany(appId, others),
      this.groups.findMany(appId, guids),
      this.groups.memberCounts(appId, guids),
      this.groups.membershipsOf(appId, viewer, guids),
      stored.length === 0 ? [] : this.messages.unreadCounts(appId, { conversationIds, unreadBy: viewer }),
      this.tags.of(appId, viewer, conversationIds),
      this.blocks.relations(appId, viewer, others),
      this.pins.conversationPinsOf(appId, viewer, conversationIds),
    ]);
    const unreadById = new Map(unread.map((entry) => [entry.conversationId, entry.count]));
    const lastMessages = await this.messageService.present(app, [...lastRows.values()]);
    const lastById = new Map(lastMessages.map((message) => [message.id, message]));
    return stored.flatMap((item) => {
      let conversationWith: UserEntity | GroupEntity;
      if (item.conversationType === 'group' && item.guid !== undefined) {
        const group = groupRows.get(item.guid);
        if (group === undefined) return [];
        conversationWith = toGroupEntity(group, counts.get(item.guid) ?? 0, memberships.get(item.guid));
      } else {
        const other = item.uids === undefined ? undefined : people.get(otherOf(item.uids, viewer));
        if (other === undefined) return [];
        conversationWith = {
          ...toUserEntity(other),
          ...blockFlags(blocks.get(other.uid)),
          conversationId: item.conversationId,
        };
      }
      const conversation: Conversation = {
        conversationId: item.conversationId,
        conversationType: item.conversationType,
        unreadMessageCount: String(unreadById.get(item.conversationId) ?? 0),
        createdAt: item.createdAt,
        updatedAt: item.updatedAt,
        conversationWith,
      };
      const tagged = tags.get(item.conversationId);
      if (tagged !== undefined) conversation.tags = tagged;
      const pinnedAt = pins.get(item.conversationId);
      if (pinnedAt !== undefined) Object.assign(conversation, { pinnedAt, pinnedBy: viewer });
      const lastMessage = lastById.get(String(item.lastMessageId));
      if (lastMessage !== undefined) conversation.lastMessage = lastMessage;
      return [conversation];
    });
  }
}
