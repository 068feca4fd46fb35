import type { FormValues } from '../interactive-values.js';
import type { InteractiveFormData } from '../interactive.js';
import type { GroupEntity, Interaction, Message, UserEntity } from '../message.js';

/** Form values by element id, as a submitted form reports them. */
export type { FormValues };

/**
 * Wire shapes of CometChat's client protocol (REST + WebSocket) as
 * `reference/cometchat-client-protocol.md` describes them. Types only: the browser client checks the
 * few fields it relies on by hand instead of shipping zod to every page that embeds the widget.
 */

export type { GroupEntity, Interaction, InteractiveFormData, Message, UserEntity };

export type ConversationType = 'user' | 'group';

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

export interface Conversation {
  conversationId: string;
  conversationType: ConversationType;
  conversationWith: UserEntity | GroupEntity;
  lastMessage?: Message;
  unreadMessageCount?: number;
  unreadMentionsCount?: number;
  lastReadMessageId?: string;
  latestMessageId?: string;
  updatedAt?: number;
}

export interface Pagination {
  total: number;
  count: number;
  per_page: number;
  current_page: number;
  total_pages: number;
}

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

/**
 * Body of `PATCH /messages/{id}/interacted`. `interactions` is the SDK's; `formData` is Parley's
 * addition so the service can run the form's apiAction itself (its secret headers never reach a client).
 */
export interface InteractedRequest {
  interactions: string[];
  formData?: FormValues;
}

// WebSocket frames (§3)

/** The envelope every realtime frame shares. */
export interface RealtimeFrame<Type extends string = string, Body = unknown> {
  appId?: string;
  type: Type;
  receiver?: string;
  receiverType?: ConversationType;
  sender?: string;
  /** Receipts only: who sent the message being acknowledged. */
  messageSender?: string;
  /** The SDK session that caused the event; frames of one's own session are echoes. */
  deviceId?: string;
  body: Body;
}

export interface TypingBody {
  action: 'started' | 'ended';
  user: UserEntity;
  metadata?: Record<string, unknown>;
}

export type ReceiptAction = 'delivered' | 'read' | 'deliveredToAll' | 'readByAll';

export interface ReceiptBody {
  action: ReceiptAction;
  messageId: string;
  user: UserEntity;
  timestamp?: number;
}

export interface PresenceBody {
  action: 'online' | 'available' | 'offline';
  user: UserEntity;
  timestamp?: number;
}

export interface InteractionCompletedBody {
  messageId: string;
  user: UserEntity;
  interactions: Interaction[];
}
