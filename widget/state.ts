// The widget's state as its elements see it: plain data the store publishes and views render.
// Views import these types (and nothing else of the store); the store is the only writer.
import type {
  ChannelState,
  ChatTarget,
  Conversation,
  GroupEntity,
  Me,
  Message,
  MessageCursor,
  UserEntity,
} from '../shared/chat-client/index.js';
import type { MentionCandidate } from './mentions.js';

/** A message on its way: shown at once, replaced by the stored message when the service has it. */
export interface PendingMessage {
  muid: string;
  text: string;
  createdAt: number;
  status: 'sending' | 'queued' | 'failed';
}

/**
 * Where a form's report of a pressed button or a submission stands: none yet (`idle`), on its way
 * (`pending`), refused or lost with the reason (`failed`), or recorded by the service (`done`).
 */
export type Submission =
  | { state: 'idle' }
  | { state: 'pending'; elementId: string }
  | { state: 'failed'; elementId: string; message: string }
  | { state: 'done'; elementId: string };

export const IDLE_SUBMISSION: Submission = { state: 'idle' };

/** Files on their way as one media message: shown with their progress until the service has it. */
export interface Upload {
  muid: string;
  files: File[];
  /** The share of the bytes sent, from 0 to 1. */
  progress: number;
  /**
   * Why it failed: the service's code and details (`ERR_FILE_TOO_LARGE` with `maxBytes`,
   * `ERR_FILE_TYPE_NOT_ALLOWED` with the `field` of the file, `files.N`), or `ERR_NETWORK`.
   */
  error?: { code: string; message: string; details: Record<string, unknown> };
}

/** The replies to one message, shown over its conversation. */
/** Files chosen to send, shown for a look before they are sent, and files on their way. */
export interface Attachable {
  drafts: File[];
  uploads: Upload[];
}

export interface RepliesState extends Attachable {
  parent: Message;
  /** Oldest first, without duplicates. */
  messages: Message[];
  older?: MessageCursor;
  loading: boolean;
  /** Why the last load or reply failed. */
  error?: string;
}

export interface ThreadState extends Attachable {
  target: ChatTarget;
  peer?: UserEntity | GroupEntity;
  /** Oldest first, without duplicates. */
  messages: Message[];
  pending: PendingMessage[];
  /** Where the next older page starts; absent when the beginning is loaded. */
  older?: MessageCursor;
  loading: boolean;
  loadingOlder: boolean;
  error?: string;
  /** The highest id of this user's messages the other side has read, or has received. */
  readUpTo: number;
  deliveredUpTo: number;
  typing: UserEntity[];
  /** The latest report of each form message (by message id) that this user submitted here. */
  submissions: Readonly<Record<string, Submission>>;
  /** Who a message here can `@` mention, once asked for (a group's members and the agents). */
  mentionCandidates: MentionCandidate[];
  /** The open thread of replies, if any. */
  replies?: RepliesState;
  /** Names of who reacted, by `<message id> <reaction>`, once asked for. */
  reactors: Readonly<Record<string, string[]>>;
  /** The first message that was unread when the conversation opened ("New messages" goes above it). */
  unreadFrom?: string;
}

export interface ChatState {
  phase: 'idle' | 'signing-in' | 'ready' | 'signed-out' | 'error';
  error?: string;
  me?: Me;
  connection: ChannelState;
  /** The socket was up and is lost: the user should know messages wait for it. */
  reconnecting: boolean;
  conversations: Conversation[];
  conversationsLoaded: boolean;
  active?: ChatTarget;
  threads: ReadonlyMap<string, ThreadState>;
  unread: number;
}
