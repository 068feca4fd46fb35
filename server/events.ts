import { EventEmitter } from 'node:events';
import type { Interaction, Message } from '../shared/message.js';

/** Sessions that ended: these auth tokens of the user, or all of them when `authTokens` is absent. */
export interface EndedSessions {
  uid: string;
  authTokens?: readonly string[];
}

/**
 * What happened in the chat store, emitted after the change is committed. The realtime channel,
 * the agent bridge and the notifications engine attach here instead of wrapping the routes.
 */
export interface ChatEventMap {
  /** A message was stored: sent by a user or bot, or an action message the service wrote. */
  message: [appId: string, message: Message];
  messageEdited: [appId: string, message: Message];
  messageDeleted: [appId: string, message: Message];
  interaction: [
    appId: string,
    event: { messageId: string; uid: string; interactions: Interaction[]; goalCompleted: boolean },
  ];
  /**
   * Sessions were revoked (logout, a token deleted, a user's tokens flushed or pruned, the user
   * deleted or deactivated): the realtime channel closes their sockets at once.
   */
  sessionsEnded: [appId: string, ended: EndedSessions];
}

export class ChatEvents extends EventEmitter<ChatEventMap> {}
