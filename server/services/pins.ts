import type { Kysely } from 'kysely';
import type { Conversation } from '../../shared/conversations.js';
import type { Message } from '../../shared/message.js';
import type { PinSaveAction, PinSaveFrameType } from '../../shared/realtime.js';
import type { ChatDatabase } from '../db/schema.js';
import { ChatError } from '../errors.js';
import type { ChatEvents, EventOrigin } from '../events.js';
import type { App } from '../repositories/apps.js';
import type { StoredConversation } from '../repositories/conversations.js';
import type { GroupRepository } from '../repositories/groups.js';
import type { MessageRepository, StoredMessage } from '../repositories/messages.js';
import type { PinRepository } from '../repositories/pins.js';
import type { ConversationService } from './conversations.js';
import { APP_SYSTEM_UID } from './entities.js';
import { rankOf } from './group-scopes.js';
import type { MessageService } from './messages.js';

/**
 * CometChat's caps (the SDK's `PIN_SAVE_DEFAULTS.MAX_LIMIT`): pins in one conversation, saves of
 * one user, conversations one user pins. The SDK reads them from the app settings' `parameters`.
 */
export const PIN_SAVE_LIMITS = { pinnedMessages: 100, savedMessages: 100, pinnedConversations: 100 };

/** The moderator's rank in `group-scopes.ts`: moderators, admins and the owner pin in a group. */
const MODERATOR_RANK = 2;

const notAllowed = (message: string, details: Record<string, unknown>): ChatError =>
  new ChatError(403, 'ERR_ACTION_NOT_ALLOWED', message, details);

const limitReached = (what: string, limit: number): ChatError =>
  new ChatError(400, 'ERR_LIMIT_EXCEEDED', `${what}: at most ${limit}.`, { limit });

/** Only messages people sent take pins and saves: not action messages, not deleted ones. */
function requirePinnable(row: StoredMessage, id: string): void {
  if (row.category === 'action' || row.deletedAt !== undefined) {
    throw new ChatError(
      400,
      'ERR_MESSAGE_ACTION_NOT_ALLOWED',
      `The message ${id} is ${row.deletedAt === undefined ? 'an action message' : 'deleted'} and cannot be pinned or saved.`,
      { id },
    );
  }
}

/** Who hears of a change to a message's pin: its group, or both users of its one-to-one conversation. */
const audienceOf = (row: StoredMessage): { guid: string } | { uids: string[] } =>
  row.receiverType === 'group' ? { guid: row.receiver } : { uids: [row.sender, row.receiver] };

/**
 * Pinned messages, saved messages and pinned conversations, with CometChat's rules. A pin is the
 * conversation's: in a one-to-one conversation either user pins, in a group a moderator, an admin
 * or the owner (anyone else: `ERR_ACTION_NOT_ALLOWED`); the app pins as `app_system`. Everyone in
 * the conversation sees it and hears of it. A save and a pinned conversation are the user's alone:
 * only their own sessions hear of them. All are idempotent; someone else's message answers as a
 * missing one.
 */
export class PinService {
  constructor(
    private readonly db: Kysely<ChatDatabase>,
    private readonly pins: PinRepository,
    private readonly messages: MessageRepository,
    private readonly messageService: MessageService,
    private readonly groups: GroupRepository,
    private readonly conversationService: ConversationService,
    private readonly events: ChatEvents,
  ) {}

  /** Pins (or unpins) a message as `onBehalfOf`, or as the app; answers the message as the actor sees it. */
  async pinMessage(
    app: App,
    id: string,
    onBehalfOf: string | undefined,
    pinned: boolean,
    origin: EventOrigin,
  ): Promise<Message> {
    const { appId } = app;
    const visible = await this.messageService.getVisible(app, id, onBehalfOf);
    if (onBehalfOf !== undefined && visible.receiverType === 'group') {
      const group = await this.groups.get(appId, visible.receiver);
      const rank = rankOf(group, await this.groups.member(appId, group.guid, onBehalfOf));
      if (rank < MODERATOR_RANK) {
        throw notAllowed(
          `Only a moderator, an admin or the owner of the group ${group.guid} pins or unpins its messages.`,
          { uid: onBehalfOf, guid: group.guid },
        );
      }
    }
    const pinner = onBehalfOf ?? APP_SYSTEM_UID;
    const changed = await this.db.transaction().execute(async (trx) => {
      const row = await this.messages.getForChange(appId, id, trx);
      const messageId = Number(row.id);
      if (!pinned) return this.pins.unpinMessage(appId, messageId, trx);
      requirePinnable(row, id);
      const others = await this.pins.pinnedCountExcept(appId, row.conversationId, messageId, trx);
      if (others >= PIN_SAVE_LIMITS.pinnedMessages)
        throw limitReached('pinned messages in a conversation', PIN_SAVE_LIMITS.pinnedMessages);
      await this.pins.pinMessage(appId, messageId, row.conversationId, pinner, Date.now(), trx);
      return true;
    });
    const [shared] = await this.messageService.present(app, [visible]);
    if (shared === undefined) throw new Error('a presented message went missing');
    if (changed) {
      this.emit(appId, pinned ? 'message_pinned' : 'message_unpinned', pinned ? 'pinned' : 'unpinned', {
        to: audienceOf(visible),
        sender: pinner,
        message: shared,
        origin,
      });
    }
    return onBehalfOf === undefined ? shared : this.presentTo(app, visible, onBehalfOf);
  }

  /** Saves (or unsaves) a message for `uid`; answers it with `savedAt` when saved. */
  async saveMessage(
    app: App,
    id: string,
    uid: string,
    saved: boolean,
    origin: EventOrigin,
  ): Promise<Message> {
    const { appId } = app;
    const visible = await this.messageService.getVisible(app, id, uid);
    const messageId = Number(visible.id);
    let changed: boolean;
    if (saved) {
      requirePinnable(visible, id);
      changed = await this.db.transaction().execute(async (trx) => {
        if ((await this.pins.countSaved(appId, uid, trx)) >= PIN_SAVE_LIMITS.savedMessages) {
          const already = await this.pins.savedAtOf(appId, uid, [messageId]);
          if (already.size > 0) return false;
          throw limitReached('saved messages of a user', PIN_SAVE_LIMITS.savedMessages);
        }
        return this.pins.save(appId, uid, messageId, Date.now(), trx);
      });
    } else changed = await this.pins.unsave(appId, uid, messageId);
    const message = await this.presentTo(app, visible, uid);
    if (changed) {
      this.emit(appId, saved ? 'message_saved' : 'message_unsaved', saved ? 'saved' : 'unsaved', {
        to: { uids: [uid] },
        sender: uid,
        message,
        origin,
      });
    }
    return message;
  }

  /**
   * Pins (or unpins) `conversation` to the top of `uid`'s list; a conversation without messages yet
   * can be pinned too. Answers the conversation as the server API shows it, with `pinnedAt`/`pinnedBy`.
   */
  async pinConversation(
    app: App,
    uid: string,
    conversation: StoredConversation,
    pinned: boolean,
    origin: EventOrigin,
  ): Promise<Conversation> {
    const { appId } = app;
    const { conversationId } = conversation;
    const changed = pinned
      ? await this.db.transaction().execute(async (trx) => {
          const count = await this.pins.countPinnedConversations(appId, uid, trx);
          if (count >= PIN_SAVE_LIMITS.pinnedConversations) {
            if ((await this.pins.conversationPinsOf(appId, uid, [conversationId])).size > 0) return false;
            throw limitReached('pinned conversations of a user', PIN_SAVE_LIMITS.pinnedConversations);
          }
          return this.pins.pinConversation(appId, uid, conversationId, Date.now(), trx);
        })
      : await this.pins.unpinConversation(appId, uid, conversationId);
    const [presented] = await this.conversationService.present(app, uid, [conversation]);
    if (presented === undefined) throw new Error('a presented conversation went missing');
    if (changed) {
      const other = conversation.uids?.find((member) => member !== uid) ?? uid;
      this.events.emit(
        'pinSave',
        appId,
        {
          type: pinned ? 'conversation_pinned' : 'conversation_unpinned',
          action: pinned ? 'pinned' : 'unpinned',
          conversationId,
          to: { uids: [uid] },
          sender: uid,
          receiver: conversation.guid ?? other,
          receiverType: conversation.conversationType,
          body: { conversation: presented },
        },
        origin,
      );
    }
    return presented;
  }

  /** The ids of a conversation's pinned messages, newest pin first (at most `limit`), and how many there are. */
  async pinnedIn(
    appId: string,
    conversationId: string,
    limit: number,
  ): Promise<{ ids: number[]; total: number }> {
    const [ids, total] = await Promise.all([
      this.pins.pinnedIn(appId, conversationId, limit),
      this.pins.countPinnedIn(appId, conversationId),
    ]);
    return { ids, total };
  }

  /** The ids of the messages `uid` saved, newest save first (at most `limit`), and how many there are. */
  async savedBy(appId: string, uid: string, limit: number): Promise<{ ids: number[]; total: number }> {
    const [ids, total] = await Promise.all([
      this.pins.savedBy(appId, uid, limit),
      this.pins.countSaved(appId, uid),
    ]);
    return { ids, total };
  }

  /** The message as `viewer` reads it: with their own `savedAt`. */
  private async presentTo(app: App, row: StoredMessage, viewer: string): Promise<Message> {
    const [message] = await this.messageService.present(app, [row], { viewer });
    if (message === undefined) throw new Error('a presented message went missing');
    return message;
  }

  private emit(
    appId: string,
    type: PinSaveFrameType,
    action: PinSaveAction,
    change: {
      to: { guid: string } | { uids: string[] };
      sender: string;
      message: Message;
      origin: EventOrigin;
    },
  ): void {
    const { message } = change;
    this.events.emit(
      'pinSave',
      appId,
      {
        type,
        action,
        conversationId: message.conversationId,
        to: change.to,
        sender: change.sender,
        receiver: message.receiver,
        receiverType: message.receiverType,
        body: { message },
      },
      change.origin,
    );
  }
}
