import type { Kysely } from 'kysely';
import type { Message, Reaction } from '../../shared/message.js';
import type { ReactionAction } from '../../shared/realtime.js';
import type { ChatDatabase } from '../db/schema.js';
import { ChatError } from '../errors.js';
import type { ChatEvents, EventOrigin } from '../events.js';
import type { App } from '../repositories/apps.js';
import type { BlockedUserRepository } from '../repositories/blocked-users.js';
import type { MessageRepository, StoredMessage } from '../repositories/messages.js';
import type { ReactionCursor, ReactionRepository, StoredReaction } from '../repositories/reactions.js';
import { toUserEntity, type UserRepository } from '../repositories/users.js';
import { nowSeconds } from '../time.js';
import { actionSnapshot } from './entities.js';
import type { NotifiedChanges } from './decisions.js';
import { blockedError, type MessageService } from './messages.js';

/** How many different reactions one user may leave on one message. */
export const MAX_REACTIONS_PER_USER = 20;

/**
 * Reactions to messages: whoever can see a message may react to it with any number of different
 * reactions (up to `MAX_REACTIONS_PER_USER`), each once. Adding one twice or removing one never
 * given changes nothing and is answered with the message as it stands. Two users where either
 * blocked the other cannot react in their one-to-one conversation, as they cannot message there;
 * taking back a reaction left before the block stays possible.
 */
export class ReactionService {
  constructor(
    private readonly db: Kysely<ChatDatabase>,
    private readonly messages: MessageRepository,
    private readonly reactions: ReactionRepository,
    private readonly messageService: MessageService,
    private readonly users: UserRepository,
    private readonly blocks: BlockedUserRepository,
    private readonly events: ChatEvents,
    private readonly notified: NotifiedChanges,
  ) {}

  /** Adds `uid`'s reaction; answers with the message and its reactions as `uid` sees them. */
  add(app: App, id: string, uid: string, reaction: string, origin: EventOrigin): Promise<Message> {
    return this.change(app, id, uid, reaction, 'message_reaction_added', origin);
  }

  /** Removes `uid`'s reaction; answers with the message and its reactions as `uid` sees them. */
  remove(app: App, id: string, uid: string, reaction: string, origin: EventOrigin): Promise<Message> {
    return this.change(app, id, uid, reaction, 'message_reaction_removed', origin);
  }

  private async change(
    app: App,
    id: string,
    uid: string,
    reaction: string,
    action: ReactionAction,
    origin: EventOrigin,
  ): Promise<Message> {
    const appId = app.appId;
    const user = await this.users.get(appId, uid);
    const visible = await this.messageService.getVisible(app, id, user.uid);
    if (action === 'message_reaction_added' && visible.receiverType === 'user') {
      const other = visible.sender === user.uid ? visible.receiver : visible.sender;
      const block = (await this.blocks.relations(appId, user.uid, [other])).get(other);
      if (block !== undefined) throw blockedError(user.uid, other, block);
    }
    // An added reaction notifies (a removed one does not): its decision is queued with it.
    const rowOf = action === 'message_reaction_added' ? await this.notified.rowsFor(appId) : undefined;
    // The message is read again under the write lock, so a reaction never lands on a message
    // deleted in between.
    const { message, changed, decisionId } = await this.db.transaction().execute(async (trx) => {
      const current = await this.messages.getForChange(appId, id, trx);
      const messageId = Number(current.id);
      // A reaction changes the message: clients catching up read it among the updated ones.
      const touch = async <T>(changed: T | undefined) => {
        if (changed !== undefined)
          await this.messages.update(appId, messageId, { updatedAt: nowSeconds() }, trx);
        return changed;
      };
      if (action === 'message_reaction_removed')
        return {
          message: current,
          changed: await touch(await this.reactions.remove(appId, messageId, user.uid, reaction, trx)),
          decisionId: undefined,
        };
      if (current.category === 'action' || current.deletedAt !== undefined) {
        throw new ChatError(
          400,
          'ERR_MESSAGE_ACTION_NOT_ALLOWED',
          `The message ${id} is ${current.deletedAt === undefined ? 'an action message' : 'deleted'} and takes no reactions.`,
          { id },
        );
      }
      const added = await touch(
        await this.reactions.add(appId, messageId, user.uid, reaction, nowSeconds(), trx),
      );
      if (
        added !== undefined &&
        (await this.reactions.countOf(appId, messageId, user.uid, trx)) > MAX_REACTIONS_PER_USER
      ) {
        throw new ChatError(
          400,
          'ERR_REACTIONS_LIMIT_EXCEEDED',
          `reaction: a user leaves at most ${MAX_REACTIONS_PER_USER} different reactions on a message.`,
          { field: 'reaction', id },
        );
      }
      const decisionId =
        added === undefined || rowOf === undefined
          ? undefined
          : await this.messages.queueDecision(
              appId,
              rowOf({ kind: 'reaction', reaction: { reaction, by: actionSnapshot(toUserEntity(user)) } }),
              messageId,
              trx,
            );
      return { message: current, changed: added, decisionId };
    });
    if (changed !== undefined) {
      this.events.emit(
        'reaction',
        appId,
        {
          body: {
            action,
            ...this.toReaction(changed, toUserEntity(user)),
            conversationId: message.conversationId,
            ...(message.parentId === undefined ? {} : { parentId: String(message.parentId) }),
          },
          messageSender: message.sender,
          receiver: message.receiver,
          receiverType: message.receiverType,
        },
        origin,
        decisionId,
      );
    }
    const [presented] = await this.messageService.present(app, [message], { viewer: user.uid });
    if (presented === undefined) throw new Error('a presented message went missing');
    return presented;
  }

  /**
   * A page of the reactions to a message `viewer` can see (the server API without a user sees all),
   * of one reaction if named, with who reacted.
   */
  async list(
    app: App,
    id: string,
    viewer: string | undefined,
    reaction: string | undefined,
    cursor: ReactionCursor,
    limit: number,
  ): Promise<Reaction[]> {
    const message: StoredMessage = await this.messageService.getVisible(app, id, viewer);
    const given = await this.reactions.list(app.appId, Number(message.id), reaction, cursor, limit);
    const people = await this.users.findMany(app.appId, new Set(given.map((item) => item.uid)));
    return given.map((item) => {
      const person = people.get(item.uid);
      const entity =
        person === undefined
          ? { uid: item.uid, name: item.uid, role: 'default', status: 'offline' }
          : toUserEntity(person);
      return this.toReaction(item, entity);
    });
  }

  private toReaction(given: StoredReaction, reactedBy: Reaction['reactedBy']): Reaction {
    return {
      id: String(given.id),
      messageId: String(given.messageId),
      reaction: given.reaction,
      uid: given.uid,
      reactedAt: given.reactedAt,
      reactedBy: actionSnapshot(reactedBy),
    };
  }
}
