import { z } from 'zod';
import { Interaction, Metadata, Reaction, ReceiverType, UserEntity } from './message.js';

/**
 * Frames of CometChat's realtime channel (client protocol §3): one JSON object per text frame.
 * The chat service validates what clients send with these schemas; the browser client types what
 * it sends and receives with them (types only: no zod reaches the widget).
 */

/** The envelope every frame shares (§3.3). `deviceId` names the SDK session that caused the event. */
export const RealtimeFrame = z.object({
  appId: z.string().optional(),
  type: z.string(),
  receiver: z.string().optional(),
  receiverType: ReceiverType.optional(),
  sender: z.string().optional(),
  /** Receipts only: who sent the message being acknowledged. */
  messageSender: z.string().optional(),
  deviceId: z.string().optional(),
  body: z.unknown(),
});
/** A frame; `Type` and `Body` narrow it to one kind. */
export type RealtimeFrame<Type extends string = string, Body = unknown> = Omit<
  z.infer<typeof RealtimeFrame>,
  'type' | 'body'
> & { type: Type; body: Body };

export const TypingAction = z.enum(['started', 'ended'], { error: 'must be started or ended' });

export const TypingBody = z.object({
  action: TypingAction,
  user: UserEntity,
  metadata: Metadata.optional(),
});
export type TypingBody = z.infer<typeof TypingBody>;

export const ReceiptAction = z.enum(['delivered', 'read', 'deliveredToAll', 'readByAll']);
export type ReceiptAction = z.infer<typeof ReceiptAction>;

export const ReceiptBody = z.object({
  action: ReceiptAction,
  messageId: z.string(),
  user: UserEntity,
  timestamp: z.number().optional(),
});
export type ReceiptBody = z.infer<typeof ReceiptBody>;

export const PresenceBody = z.object({
  action: z.enum(['online', 'available', 'offline']),
  user: UserEntity,
  timestamp: z.number().optional(),
});
export type PresenceBody = z.infer<typeof PresenceBody>;

export const InteractionCompletedBody = z.object({
  messageId: z.string(),
  user: UserEntity,
  interactions: z.array(Interaction),
});
export type InteractionCompletedBody = z.infer<typeof InteractionCompletedBody>;

export const ReactionAction = z.enum(['message_reaction_added', 'message_reaction_removed']);
export type ReactionAction = z.infer<typeof ReactionAction>;

/**
 * A `reaction` frame's body: the reaction, what happened to it, and where the message lives; the
 * SDK builds its `ReactionEvent` (`onMessageReactionAdded` / `Removed`) from these fields.
 */
export const ReactionEventBody = Reaction.extend({
  action: ReactionAction,
  conversationId: z.string(),
  parentId: z.string().optional(),
});
export type ReactionEventBody = z.infer<typeof ReactionEventBody>;

/**
 * The SDK's pin and save frames (`CometChatPinSaveEvent`): the frame's `type` says what happened
 * and `body.action` repeats it; `body.message` (or `body.conversation`) is the changed entity.
 * Pins of messages reach the conversation; saves and pinned conversations only the user's sessions.
 */
export type PinSaveFrameType =
  | 'message_pinned'
  | 'message_unpinned'
  | 'message_saved'
  | 'message_unsaved'
  | 'conversation_pinned'
  | 'conversation_unpinned';
export type PinSaveAction = 'pinned' | 'unpinned' | 'saved' | 'unsaved';

// What clients send (§3.2, §3.4). Fields the service does not use (the SDK's `sender`, `user`,
// `params`) are allowed and dropped: the service fixes the sender to the socket's user.

/** A UID or GUID a frame is addressed to, lower-cased as the service stores it. */
const FrameTarget = z
  .string({ error: 'must be a UID or GUID' })
  .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1-100 of A-Z, a-z, 0-9, _ or -')
  .transform((id) => id.toLowerCase());

/** The SDK's `endTyping` with a plain object says `chat`/`groupchat` (pitfall 9): read as user/group. */
export function normaliseReceiverType(value: unknown): ReceiverType | undefined {
  if (value === 'user' || value === 'chat') return 'user';
  if (value === 'group' || value === 'groupchat') return 'group';
  return undefined;
}

const SentReceiverType = z.unknown().transform((value, context): ReceiverType => {
  const type = normaliseReceiverType(value);
  if (type !== undefined) return type;
  context.addIssue({ code: 'custom', message: 'must be user or group' });
  return z.NEVER;
});

const ClientFrame = RealtimeFrame.pick({ appId: true, deviceId: true });

export const PresenceSubscription = z.enum(['NONE', 'ALL_USERS', 'ROLES', 'FRIENDS']);
export type PresenceSubscription = z.infer<typeof PresenceSubscription>;

/** The first frame: the JWT of `PUT /me` and what presence the client wants to hear of. */
export const AuthFrame = ClientFrame.extend({
  type: z.literal('auth'),
  body: z.object({
    auth: z.string().min(1).max(4096),
    deviceId: z.string().optional(),
    presenceSubscription: PresenceSubscription.optional(),
    roles: z.array(z.string().max(100)).max(100).optional(),
  }),
});
export type AuthFrame = z.infer<typeof AuthFrame>;

export const TypingFrame = ClientFrame.extend({
  type: z.literal('typing_indicator'),
  receiver: FrameTarget,
  receiverType: SentReceiverType,
  body: z.object({ action: TypingAction, metadata: Metadata.optional() }),
});

export const TransientFrame = ClientFrame.extend({
  type: z.literal('transient_message'),
  receiver: FrameTarget,
  receiverType: SentReceiverType,
  body: z.object({ data: Metadata.default({}) }),
});

/** A read or delivery receipt; the service adds the timestamp and passes it to the message's sender. */
export const ReceiptFrame = ClientFrame.extend({
  type: z.literal('receipts'),
  body: z.object({
    action: z.enum(['read', 'delivered'], { error: 'must be read or delivered' }),
    messageId: z
      .union([z.string(), z.number()], { error: 'must be a message id' })
      .transform(String)
      .pipe(z.string().regex(/^\d{1,15}$/, 'must be a message id')),
  }),
});

/** The frames a logged-in client sends that the service acts on. */
export const SocketRequest = z.discriminatedUnion('type', [TypingFrame, TransientFrame, ReceiptFrame]);
export type SocketRequest = z.infer<typeof SocketRequest>;

/** Frame types the service acts on once a socket is logged in; others are ignored, as the SDK sends more. */
export const SOCKET_REQUEST_TYPES: ReadonlySet<string> = new Set(
  SocketRequest.options.map((option) => option.shape.type.value),
);

/** The keep-alive the client sends every 15 s (§3.5); the answer is `{"action":"pong"}`. */
export const PingFrame = z.object({ action: z.literal('ping') });

/**
 * The service's answer to a frame it cannot take, shaped like its auth refusal: `code` as a string,
 * and a message naming the field at fault. The SDK ignores frame types it does not know.
 */
export const FrameError = z.object({
  type: z.literal('error'),
  body: z.object({ code: z.literal('400'), status: z.literal('ERROR'), message: z.string() }),
});
export type FrameError = z.infer<typeof FrameError>;
