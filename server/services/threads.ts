import type { Message } from '../../shared/message.js';
import { ChatError } from '../errors.js';
import type { App } from '../repositories/apps.js';
import type { MessageFilter, MessageRepository } from '../repositories/messages.js';
import type { ThreadSubscriptionRepository } from '../repositories/thread-subscriptions.js';
import type { MessageService } from './messages.js';

/**
 * A thread as the SDK's `ThreadsRequest` reads it (`MessageThread`): the parent message itself, with
 * its id as `parentMessageId`, its `replyCount`, the `lastReply`, `updatedAt` (when that reply was
 * sent: the list's cursor) and whether the reader follows it (`threadSubscribed`).
 */
export type Thread = Message & {
  parentMessageId: string;
  lastReply: Message;
  threadSubscribed: boolean;
};

/**
 * Following threads (`subscribeToThread` / `unsubscribeFromThread`) and listing them. A user follows
 * the threads they start or reply in, and those they follow explicitly; an unfollow holds until
 * they follow again. Only a message people sent that is no reply roots a thread.
 */
export class ThreadService {
  constructor(
    private readonly messages: MessageRepository,
    private readonly subscriptions: ThreadSubscriptionRepository,
    private readonly messageService: MessageService,
  ) {}

  /** Follows (or unfollows) the thread under message `id` as `uid`; idempotent. */
  async follow(app: App, id: string, uid: string, subscribed: boolean): Promise<void> {
    const parent = await this.messageService.getVisible(app, id, uid);
    if (parent.parentId !== undefined || parent.category === 'action') {
      throw new ChatError(
        400,
        'ERR_MESSAGE_ACTION_NOT_ALLOWED',
        `The message ${id} is ${parent.parentId === undefined ? 'an action message' : 'a reply'} and roots no thread.`,
        { id },
      );
    }
    await this.subscriptions.choose(app.appId, uid, parent.id, subscribed);
  }

  /**
   * Which of these root messages `viewer` follows the thread of (the SDK's `isThreadSubscribed()`):
   * an explicit follow or unfollow, else whether they wrote the message or replied under it.
   */
  async followed(appId: string, viewer: string, roots: ReadonlyArray<Message>): Promise<Set<string>> {
    const ids = roots
      .filter((message) => message.parentId === undefined)
      .map((message) => Number(message.id));
    if (ids.length === 0) return new Set();
    const [choice, repliedIn] = await Promise.all([
      this.subscriptions.choicesOf(appId, viewer, ids),
      this.messages.threadsRepliedIn(appId, viewer, ids),
    ]);
    return new Set(
      roots
        .filter((message) => {
          const id = Number(message.id);
          return (
            message.parentId === undefined &&
            (choice.get(id) ?? (message.sender === viewer || repliedIn.has(id)))
          );
        })
        .map((message) => message.id),
    );
  }

  /**
   * A page of the threads among the messages `filter` selects, as `viewer` reads them, the latest
   * reply first, before the cursor; with `participated`, only those `viewer` follows.
   */
  async list(
    app: App,
    viewer: string,
    filter: MessageFilter,
    participated: boolean,
    cursor: { updatedAt?: number | undefined; id?: number | undefined },
    limit: number,
  ): Promise<Thread[]> {
    const { appId } = app;
    const page = await this.messages.threadPage(
      appId,
      filter,
      participated ? viewer : undefined,
      cursor,
      limit,
    );
    if (page.length === 0) return [];
    const parentIds = page.map((thread) => thread.parentId);
    const [rows, followed] = await Promise.all([
      this.messages.findMany(appId, [...parentIds, ...page.map((thread) => thread.lastReplyId)]),
      this.subscriptions.choicesOf(appId, viewer, parentIds),
    ]);
    const presented = await this.messageService.present(app, [...rows.values()], { viewer });
    const byId = new Map(presented.map((message) => [message.id, message]));
    return page.flatMap((thread) => {
      const parent = byId.get(String(thread.parentId));
      const lastReply = byId.get(String(thread.lastReplyId));
      if (parent === undefined || lastReply === undefined) return [];
      return [
        {
          ...parent,
          parentMessageId: parent.id,
          lastReply,
          updatedAt: thread.updatedAt,
          threadSubscribed: followed.get(thread.parentId) ?? (participated || parent.sender === viewer),
        },
      ];
    });
  }
}
