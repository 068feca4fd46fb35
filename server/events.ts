import { EventEmitter } from 'node:events';
import type { Interaction, Message, ReceiverType } from '../shared/message.js';
import type { PinSaveAction, PinSaveFrameType, ReactionEventBody } from '../shared/realtime.js';

/** Sessions that ended: these auth tokens of the user, or all of them when `authTokens` is absent. */
export interface EndedSessions {
  uid: string;
  authTokens?: readonly string[];
}

/**
 * Who caused an event and from which SDK session. The realtime fan-out stamps the event's frames
 * with `deviceId`, so the session that caused it drops them as its own echo.
 */
export interface EventOrigin {
  /** The user the request acted as; absent when the app acted through the server API on its own. */
  uid?: string | undefined;
  /** The SDK session (the client API's `resource` header) the request came from. */
  deviceId?: string | undefined;
}

/** The origin of what the app does on its own: no user acted, from no device (seeding the demo). */
export const APP_ORIGIN: EventOrigin = {};

/**
 * What happened in the chat store, emitted after the change is committed. The realtime channel,
 * the agent bridge and the notifications engine attach here instead of wrapping the routes.
 */
export interface ChatEventMap {
  /**
   * A message was stored: sent by a user or bot, or an action message the service wrote.
   * `decision`, here and below, is the notifications' decision-queue row the change stored in its
   * transaction, when notifications wanted one (services/decisions.ts).
   */
  message: [appId: string, message: Message, origin: EventOrigin, decision?: number];
  messageEdited: [appId: string, message: Message, origin: EventOrigin, decision?: number];
  /**
   * Moderation ruled on a message: a rule held it back (`data.moderation.status` `disapproved`) or
   * a moderator approved it and it was sent. Only its sender hears of it.
   */
  messageModerated: [appId: string, message: Message, origin: EventOrigin];
  messageDeleted: [appId: string, message: Message, origin: EventOrigin, decision?: number];
  interaction: [
    appId: string,
    event: { messageId: string; uid: string; interactions: Interaction[]; goalCompleted: boolean },
    origin: EventOrigin,
  ];
  /** A user added or removed a reaction: the frame's body, and the message's sender and receiver. */
  reaction: [
    appId: string,
    event: { body: ReactionEventBody; messageSender: string; receiver: string; receiverType: ReceiverType },
    origin: EventOrigin,
    decision?: number,
  ];
  /**
   * A message was pinned or unpinned (heard by its conversation: `to` is its group, or both users),
   * saved or unsaved, or a conversation pinned or unpinned (heard only by `to`, the user's sessions).
   */
  pinSave: [
    appId: string,
    event: {
      type: PinSaveFrameType;
      action: PinSaveAction;
      conversationId: string;
      to: { guid: string } | { uids: string[] };
      sender: string;
      receiver: string;
      receiverType: ReceiverType;
      body: { message: Message } | { conversation: unknown };
    },
    origin: EventOrigin,
  ];
  /**
   * Sessions were revoked (logout, a token deleted, a user's tokens flushed or pruned, the user
   * deleted or deactivated): the realtime channel closes their sockets at once.
   */
  sessionsEnded: [appId: string, ended: EndedSessions];
}

export class ChatEvents extends EventEmitter<ChatEventMap> {}
