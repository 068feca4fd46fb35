import { z } from 'zod';
import { ElementId, HttpUrl, InteractiveFormData } from './interactive.js';

/**
 * Contracts of CometChat's message: the body of `POST /v3/messages` and `POST /v3/bots/{uid}/messages`,
 * the message object the service answers with, its user and group entities, and the body of
 * `PATCH /v3/messages/{id}/interacted`. Limits come from CometChat's documented constraints.
 */

/** CometChat: "Up to 25 tags, 100 characters each". */
export const MAX_TAGS = 25;
export const MAX_TAG_LENGTH = 100;
/** CometChat: a message is at most 65 KB (~65,536 characters) including metadata. Measured in UTF-8 bytes. */
export const MAX_MESSAGE_BYTES = 65_536;

/** UIDs and GUIDs: 1-100 of a-z, 0-9, `-` and `_`. CometChat lower-cases them; so do we when comparing. */
const ENTITY_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

function entityId(what: string) {
  return z.string().regex(ENTITY_ID_PATTERN, `${what} is 1-100 of a-z, 0-9, "-" or "_"`);
}
export const Uid = entityId('a UID');
export const Guid = entityId('a GUID');

export const ReceiverType = z.enum(['user', 'group'], { error: 'receiverType must be user or group' });
export type ReceiverType = z.infer<typeof ReceiverType>;

/** `action` and `call` messages are written by the service itself, never sent by a client. */
export const MessageCategory = z.enum(['message', 'custom', 'interactive', 'action', 'call']);
export type MessageCategory = z.infer<typeof MessageCategory>;

export const MEDIA_TYPES = ['image', 'file', 'audio', 'video'] as const;

/** Free key/value data carried by a message, user or group. */
export const Metadata = z.record(z.string(), z.unknown());

/** Epoch seconds; an upper bound well below epoch milliseconds catches a server sending `Date.now()`. */
export const EpochSeconds = z
  .int()
  .nonnegative()
  .max(99_999_999_999, 'timestamps are epoch seconds, not milliseconds');

const utf8 = new TextEncoder();

/**
 * Whether `text` takes more than `limit` bytes as UTF-8. A UTF-16 code unit is at most 3 bytes, so
 * a text short enough is not encoded at all (nearly every message: encoding one was a copy per send).
 */
function longerThanBytes(text: string, limit: number): boolean {
  return text.length * 3 > limit && utf8.encode(text).length > limit;
}

/** The spec types `size` as a string; live responses send a number. Both are a byte count. */
export const Attachment = z.looseObject({
  url: HttpUrl,
  name: z.string().optional(),
  mimeType: z.string().optional(),
  extension: z.string().optional(),
  size: z.union([z.int().nonnegative(), z.string().regex(/^\d+$/, 'size is a number of bytes')]).optional(),
});
export type Attachment = z.infer<typeof Attachment>;

const MessageText = z
  .string({ error: (issue) => (issue.input === undefined ? 'text is required' : 'text must be a string') })
  .refine((text) => text.trim().length > 0, 'text must not be empty');

const TextData = z.looseObject({ text: MessageText, metadata: Metadata.optional() });

const MediaData = z
  .looseObject({
    url: HttpUrl.optional(),
    attachments: z.array(Attachment).min(1, 'give at least one attachment').optional(),
    metadata: Metadata.optional(),
  })
  .refine((data) => data.url !== undefined || data.attachments !== undefined, {
    message: 'a media message needs data.url or data.attachments',
    path: ['attachments'],
  });

const CustomData = z.looseObject({
  customData: z.record(z.string(), z.unknown(), { error: 'customData must be an object' }),
  metadata: Metadata.optional(),
});

const FormMessageData = InteractiveFormData.safeExtend({ metadata: Metadata.optional() });

/** Who gets the message: one receiver, or the UIDs and GUIDs of `multipleReceivers`, or both. */
const addressing = {
  receiver: z
    .string()
    .regex(ENTITY_ID_PATTERN, 'receiver is a UID or GUID: 1-100 of a-z, 0-9, "-" or "_"')
    .optional(),
  receiverType: ReceiverType.optional(),
  muid: z.string().min(1, 'muid must not be empty').max(255).optional(),
  multipleReceivers: z
    .looseObject({ uids: z.array(Uid).optional(), guids: z.array(Guid).optional() })
    .optional(),
  tags: z
    .array(
      z
        .string()
        .min(1, 'a tag must not be empty')
        .max(MAX_TAG_LENGTH, `a tag is at most ${MAX_TAG_LENGTH} characters`),
    )
    .max(MAX_TAGS, `at most ${MAX_TAGS} tags`)
    .optional(),
};

const TextMessageRequest = z.object({
  ...addressing,
  category: z.literal('message'),
  type: z.literal('text'),
  data: TextData,
});

const MediaMessageRequest = z.object({
  ...addressing,
  category: z.literal('message'),
  type: z.enum(MEDIA_TYPES),
  data: MediaData,
});

const CustomMessageRequest = z.object({
  ...addressing,
  category: z.literal('custom'),
  /** Any name the app gives its custom messages (`poll`, `location`, ...). */
  type: z.string().min(1, 'type must not be empty').max(100),
  data: CustomData,
});

const FormMessageRequest = z.object({
  ...addressing,
  category: z.literal('interactive'),
  type: z.literal('form', { error: 'the only interactive type supported is form' }),
  data: FormMessageData,
});

/**
 * Body of create message and send bot message. `data` is checked per category and type; unknown
 * top-level members (the SDK mirrors `text`, `customData` and the like at the top) are dropped.
 */
export const MessageRequest = z
  .discriminatedUnion(
    'category',
    [
      z.discriminatedUnion('type', [TextMessageRequest, MediaMessageRequest], {
        error: `type of a message-category message must be one of text, ${MEDIA_TYPES.join(', ')}`,
      }),
      CustomMessageRequest,
      FormMessageRequest,
    ],
    {
      error:
        'category must be message, custom or interactive (action and call messages come from the service)',
    },
  )
  .superRefine((request, ctx) => {
    const fanOut =
      (request.multipleReceivers?.uids?.length ?? 0) + (request.multipleReceivers?.guids?.length ?? 0);
    if (request.receiver === undefined && fanOut === 0) {
      ctx.addIssue({
        code: 'custom',
        message: 'receiver is required unless multipleReceivers names at least one uid or guid',
        path: ['receiver'],
      });
    }
    if (request.receiver !== undefined && request.receiverType === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'receiverType (user or group) is required with receiver',
        path: ['receiverType'],
      });
    }
    if (longerThanBytes(JSON.stringify(request.data), MAX_MESSAGE_BYTES)) {
      // Blame the text when it alone is too long: that is the field a client can fix.
      const text = 'text' in request.data ? request.data.text : undefined;
      const textTooLong =
        typeof text === 'string' && longerThanBytes(JSON.stringify(text), MAX_MESSAGE_BYTES);
      ctx.addIssue({
        code: 'custom',
        message: `a message's data is at most ${MAX_MESSAGE_BYTES} bytes of JSON, text and metadata included`,
        path: textTooLong ? ['data', 'text'] : ['data'],
      });
    }
  });
export type MessageRequest = z.infer<typeof MessageRequest>;

/**
 * The id of the conversation a message belongs to: `group_<guid>` for groups, and for one-to-one
 * chats the two UIDs joined by `_user_`, lower-cased and in ascending code-unit order, so both
 * directions of a chat share one id (`cometchat-uid-2_user_cometchat-uid-3` whoever sends).
 */
export function conversationIdFor(message: {
  receiverType: ReceiverType;
  sender: string;
  receiver: string;
}): string {
  const receiver = message.receiver.toLowerCase();
  if (message.receiverType === 'group') return `group_${receiver}`;
  const sender = message.sender.toLowerCase();
  // The order `sort()` gives two strings, without an array and a sort per message.
  return sender < receiver ? `${sender}_user_${receiver}` : `${receiver}_user_${sender}`;
}

export const UserEntity = z.looseObject({
  uid: z.string().min(1),
  name: z.string(),
  avatar: z.string().optional(),
  link: z.string().optional(),
  status: z.string(),
  statusMessage: z.string().optional(),
  role: z.string(),
  metadata: Metadata.optional(),
  tags: z.array(z.string()).optional(),
  createdAt: EpochSeconds.optional(),
  updatedAt: EpochSeconds.optional(),
  lastActiveAt: EpochSeconds.optional(),
  deactivatedAt: EpochSeconds.optional(),
  blockedByMe: z.boolean().optional(),
  hasBlockedMe: z.boolean().optional(),
  /** Present when the user is the receiver entity of a one-to-one message. */
  conversationId: z.string().optional(),
});
export type UserEntity = z.infer<typeof UserEntity>;

export const GroupEntity = z.looseObject({
  guid: z.string().min(1),
  name: z.string(),
  type: z.enum(['public', 'private', 'password']),
  icon: z.string().optional(),
  description: z.string().optional(),
  owner: z.string().optional(),
  metadata: Metadata.optional(),
  membersCount: z.int().nonnegative().optional(),
  scope: z.string().optional(),
  hasJoined: z.boolean().optional(),
  joinedAt: EpochSeconds.optional(),
  tags: z.array(z.string()).optional(),
  conversationId: z.string().optional(),
  createdAt: EpochSeconds.optional(),
  updatedAt: EpochSeconds.optional(),
  updatedBy: z.string().optional(),
});
export type GroupEntity = z.infer<typeof GroupEntity>;

/** `{entity, entityType}`: users and groups; messages (edited/deleted actions); calls (call actions). */
const EntityRef = z.discriminatedUnion('entityType', [
  z.object({ entityType: z.literal('user'), entity: UserEntity }),
  z.object({ entityType: z.literal('group'), entity: GroupEntity }),
  z.object({
    entityType: z.literal('message'),
    get entity(): z.ZodType<Message> {
      return Message;
    },
  }),
  z.object({ entityType: z.literal('call'), entity: z.looseObject({}) }),
]);
export type EntityRef = z.infer<typeof EntityRef>;

export const Interaction = z.looseObject({ elementId: ElementId, interactedAt: EpochSeconds });
export type Interaction = z.infer<typeof Interaction>;

/** How many reacted to a message with one reaction, and whether the reader did (`data.reactions`). */
export const ReactionCount = z.object({
  reaction: z.string().min(1),
  count: z.int().positive(),
  reactedByMe: z.boolean().optional(),
});
export type ReactionCount = z.infer<typeof ReactionCount>;

/** One user's reaction: the items of `GET /messages/{id}/reactions` and the body of a `reaction` frame. */
export const Reaction = z.object({
  id: z.string().min(1),
  messageId: z.string().min(1),
  reaction: z.string().min(1),
  uid: z.string().min(1),
  reactedAt: EpochSeconds,
  reactedBy: UserEntity,
});
export type Reaction = z.infer<typeof Reaction>;

/** A reaction is an emoji or a short text such as `:thumbsup:`; control characters are refused. */
export const MAX_REACTION_LENGTH = 64;
export const ReactionText = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_REACTION_LENGTH, `must be at most ${MAX_REACTION_LENGTH} characters`)
  .refine(
    // eslint-disable-next-line no-control-regex -- control characters are what this refuses
    (text) => !/[\u0000-\u001f\u007f]/.test(text) && text.trim() === text,
    'must be an emoji or short text without spaces around it',
  );

/**
 * A message's `data` as the service returns it: `entities.sender`/`receiver` on messages users send,
 * `entities.by`/`for`/`on` on action and call messages; the rest depends on category and type.
 */
export const MessageData = z.looseObject({
  text: z.string().optional(),
  metadata: Metadata.optional(),
  attachments: z.array(Attachment).optional(),
  url: z.string().optional(),
  customData: Metadata.optional(),
  action: z.string().optional(),
  interactions: z.array(Interaction).optional(),
  reactions: z.array(ReactionCount).optional(),
  entities: z.looseObject({
    sender: EntityRef.optional(),
    receiver: EntityRef.optional(),
    by: EntityRef.optional(),
    for: EntityRef.optional(),
    on: EntityRef.optional(),
  }),
});

const MessageObject = z.looseObject({
  id: z.string().min(1),
  muid: z.string().optional(),
  conversationId: z.string().min(1),
  sender: z.string().min(1),
  receiver: z.string().min(1),
  receiverType: ReceiverType,
  category: MessageCategory,
  type: z.string().min(1),
  data: MessageData,
  sentAt: EpochSeconds,
  updatedAt: EpochSeconds,
  editedAt: EpochSeconds.optional(),
  editedBy: z.string().optional(),
  deletedAt: EpochSeconds.optional(),
  deletedBy: z.string().optional(),
  readAt: EpochSeconds.optional(),
  deliveredAt: EpochSeconds.optional(),
  parentId: z.string().optional(),
  replyCount: z.int().nonnegative().optional(),
  tags: z.array(z.string()).optional(),
  /** Pinned to its conversation: when, and by whom (the latest pinner; `app_system` for the app). */
  pinnedAt: EpochSeconds.optional(),
  pinnedBy: z.string().optional(),
  /** When the reader saved the message; only the saver ever sees it. */
  savedAt: EpochSeconds.optional(),
});

/** The message object of every response and realtime event. */
export const Message: z.ZodType<z.infer<typeof MessageObject>> = MessageObject.superRefine((message, ctx) => {
  if (message.conversationId !== conversationIdFor(message)) {
    ctx.addIssue({
      code: 'custom',
      message: `conversationId must be ${conversationIdFor(message)} for this sender and receiver`,
      path: ['conversationId'],
    });
  }
  // The SDK builds getSender()/getReceiver() from these; without them its listeners break.
  if (message.category !== 'action' && message.category !== 'call') {
    for (const side of ['sender', 'receiver'] as const) {
      if (message.data.entities[side] === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `a ${message.category} message carries data.entities.${side}`,
          path: ['data', 'entities', side],
        });
      }
    }
  }
});
export type Message = z.infer<typeof MessageObject>;

/** CometChat's success envelope around one resource: `{data: <resource>}`. */
export function dataEnvelope<T extends z.ZodType>(data: T): z.ZodObject<{ data: T }> {
  return z.object({ data });
}

export const MessageEnvelope = dataEnvelope(Message);
export type MessageEnvelope = z.infer<typeof MessageEnvelope>;

/**
 * Body of `PATCH /v3/messages/{id}/interacted` on both APIs: the SDK's `interactions` (as its
 * markAsInteracted sends them), plus Parley's `formData`, the values a form's apiAction sends: the
 * service runs the action itself, so its secret headers never reach a client.
 */
export const InteractionsRequest = z.object({
  interactions: z.array(ElementId).min(1, 'name at least one element id').max(100),
  formData: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]), {
      error: 'formData maps element ids to values',
    })
    .optional(),
});
export type InteractionsRequest = z.infer<typeof InteractionsRequest>;

/**
 * The answer to `PATCH /v3/messages/{id}/interacted`, the same on both APIs: the message's
 * interactions now, whether its goal is met, and the apiAction the submission ran (`completed`
 * when its receiver answered 2xx; nothing the receiver answered is passed on).
 */
export const InteractedAnswer = dataEnvelope(
  z.object({
    success: z.literal(true),
    message: z.string(),
    interactions: z.array(Interaction),
    interactionGoalCompleted: z.boolean(),
    action: z
      .object({
        elementId: ElementId,
        status: z.enum(['completed', 'failed']),
        httpStatus: z.number().int().optional(),
      })
      .optional(),
  }),
);
export type InteractedAnswer = z.infer<typeof InteractedAnswer>;
