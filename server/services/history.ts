import type {
  MessageCursor,
  MessageFilter,
  MessageRepository,
  StoredMessage,
  UnreadCount,
} from '../repositories/messages.js';
import type { ReadStateRepository, ReceiptMark } from '../repositories/read-state.js';
import type { GroupRepository } from '../repositories/groups.js';
import type { UserRepository } from '../repositories/users.js';

/**
 * What message lists read: pages of stored messages by filter and cursor, counts, a client's
 * message by its `muid`, and the receipts members gave. Who may see what is the caller's scope
 * (`visibleTo`, a conversation); presenting the messages is the message service's.
 */
export class HistoryService {
  constructor(
    private readonly messages: MessageRepository,
    private readonly readState: ReadStateRepository,
    private readonly users: UserRepository,
    private readonly groups: GroupRepository,
  ) {}

  /** The scope of the messages `uid` can see: their one-on-one chats and their groups' (an active user). */
  async visibleTo(appId: string, uid: string): Promise<MessageFilter> {
    const user = await this.users.get(appId, uid);
    return { visibleTo: { uid: user.uid, guids: await this.groups.guidsOf(appId, user.uid) } };
  }

  list(appId: string, filter: MessageFilter, cursor: MessageCursor, limit: number): Promise<StoredMessage[]> {
    return this.messages.list(appId, filter, cursor, limit);
  }

  count(appId: string, filter: MessageFilter): Promise<number> {
    return this.messages.count(appId, filter);
  }

  /** How many messages `unreadBy` has not read, per conversation. */
  unreadCounts(appId: string, filter: MessageFilter & { unreadBy: string }): Promise<UnreadCount[]> {
    return this.messages.unreadCounts(appId, filter);
  }

  /** Message `id` of the app, whoever may see it: the caller checks. */
  find(appId: string, id: number): Promise<StoredMessage | undefined> {
    return this.messages.find(appId, id);
  }

  /** The message `sender` sent with their own id `muid`. */
  findByMuid(appId: string, sender: string, muid: string): Promise<StoredMessage | undefined> {
    return this.messages.findByMuid(appId, sender, muid);
  }

  /** Each member's receipts in these conversations from message `fromMessageId` on, by conversation and UID. */
  receiptsFrom(
    appId: string,
    conversationIds: ReadonlyArray<string>,
    fromMessageId: number,
  ): Promise<Map<string, Map<string, ReceiptMark[]>>> {
    return this.readState.marksFrom(appId, conversationIds, fromMessageId);
  }
}
