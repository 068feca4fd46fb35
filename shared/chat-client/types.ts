import type { FormValues } from '../interactive-values.js';
import type { InteractiveFormData } from '../interactive.js';
import type { GroupEntity, Interaction, Message, ReceiverType, UserEntity } from '../message.js';

/** Form values by element id, as a submitted form reports them. */
export type { FormValues };

/**
 * Wire shapes of CometChat's client protocol (REST + WebSocket) as
 * `reference/cometchat-client-protocol.md` describes them. Types only, many of them inferred from the
 * zod schemas beside this folder and erased at build: the browser client checks the few fields it
 * relies on by hand instead of shipping zod to every page that embeds the widget.
 */

export type { GroupEntity, Interaction, InteractiveFormData, Message, UserEntity };

export type ConversationType = ReceiverType;

/** Whom a conversation is with: a user by UID or a group by GUID. */
export interface ChatTarget {
  type: ConversationType;
  id: string;
}

/** The settings object of `PUT /me` and `GET /settings` (§1.5); only the keys the client reads are named. */
export interface AppSettings {
  CHAT_HOST?: string;
  CHAT_WSS_PORT?: string | number;
  CLIENT_API_HOST?: string;
  ADMIN_API_HOST?: string;
  CHAT_API_VERSION?: string;
  [key: string]: unknown;
}

/** `PUT /me`: the logged-in user with the session's credentials. */
export interface Me extends UserEntity {
  authToken: string;
  /** Opaque; authenticates the WebSocket. */
  jwt: string;
  settings?: AppSettings;
}

export type { ClientConversation as Conversation } from '../conversations.js';

export type { Pagination } from '../users.js';

/** Where a page of history ends: the edge message of the page (§2.5). */
export interface MessageCursor {
  id: string;
  sentAt: number;
}

export interface MessagePage {
  /** Oldest first, as the protocol sends them. */
  messages: Message[];
  /** Pass as `before` to load the page before this one; absent when there is nothing older. */
  older?: MessageCursor;
}

export interface GroupMember {
  uid: string;
  name: string;
  scope?: string;
  avatar?: string;
  role?: string;
  status?: string;
}

/** What the client sends; `POST /messages` adds sender, ids and entities. */
export type OutgoingMessage =
  | { category: 'message'; type: 'text'; data: { text: string; metadata?: Record<string, unknown> } }
  | { category: 'custom'; type: string; data: { customData: Record<string, unknown> } }
  | { category: 'interactive'; type: 'form'; data: InteractiveFormData };

export type { InteractedAnswer, InteractionsRequest, Reaction, ReactionCount } from '../message.js';

// WebSocket frames (§3): the one definition is shared/realtime.ts.
export type {
  InteractionCompletedBody,
  PresenceBody,
  ReactionEventBody,
  RealtimeFrame,
  ReceiptAction,
  ReceiptBody,
  TypingBody,
} from '../realtime.js';
