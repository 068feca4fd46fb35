import type { Message } from '../../shared/message.js';
import type { NotificationSettings } from '../../shared/notification-settings.js';
import { presentTo } from '../services/private-metadata.js';
import type { RenderedText } from './render.js';
import { CALL_TOPICS, type NotificationEvent } from './triggers.js';

/**
 * What push, email and SMS webhooks receive about a message, shaped by the app's `include*`
 * flags: the message object only when asked for, and without the sender's, receiver's or
 * message's metadata unless those are asked for too.
 */

/** FCM and APNs refuse payloads above 4 KB; `trimTextFieldSetting` shortens text to fit. */
export const PUSH_PAYLOAD_LIMIT_BYTES = 4096;

export interface IncludeFlags {
  includeMessageObjectSetting: boolean;
  includeSenderMetadataSetting: boolean;
  includeReceiverMetadataSetting: boolean;
  includeMessageMetadataSetting: boolean;
}

function withoutMetadata(ref: unknown): unknown {
  if (typeof ref !== 'object' || ref === null) return ref;
  const { entity, ...rest } = ref as { entity?: Record<string, unknown> };
  if (entity === undefined) return ref;
  const { metadata: _dropped, ...kept } = entity;
  return { ...rest, entity: kept };
}

/**
 * The message object for a payload, or undefined when the app does not include it. A payload
 * travels to someone's device or mailbox, so no user's `metadata["@private"]` goes with it, even
 * where the app includes metadata.
 */
export function messageObjectFor(message: Message, flags: IncludeFlags): Message | undefined {
  if (!flags.includeMessageObjectSetting) return undefined;
  const copy = structuredClone(message) as Message & { metadata?: unknown };
  const entities = copy.data.entities as Record<string, unknown>;
  if (!flags.includeSenderMetadataSetting) entities.sender = withoutMetadata(entities.sender);
  if (!flags.includeReceiverMetadataSetting) entities.receiver = withoutMetadata(entities.receiver);
  if (!flags.includeMessageMetadataSetting) {
    delete copy.data.metadata;
    delete copy.metadata;
  }
  return presentTo(copy, undefined);
}

const utf8Bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** The longest prefix of `text` (whole characters, then an ellipsis) with which `build` fits the push limit. */
function fitText(text: string, build: (text: string) => PushDetails): PushDetails {
  const characters = Array.from(text);
  const withKept = (kept: number): PushDetails =>
    build(kept === characters.length ? text : kept === 0 ? '' : `${characters.slice(0, kept).join('')}…`);
  const fits = (kept: number): boolean => utf8Bytes(withKept(kept)) <= PUSH_PAYLOAD_LIMIT_BYTES;
  if (fits(characters.length)) return withKept(characters.length);
  let low = 0;
  let high = characters.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return withKept(low);
}

/**
 * `trimTextFieldSetting`: shortens the message object's text, then if need be the body (which
 * templates often fill with the same text), until the payload fits the push limit.
 */
function trimTextToFit(details: PushDetails): PushDetails {
  if (utf8Bytes(details) <= PUSH_PAYLOAD_LIMIT_BYTES) return details;
  const message = details.message;
  const text = message?.data.text;
  const withShortText =
    message !== undefined && typeof text === 'string'
      ? fitText(text, (kept) => ({
          ...details,
          message: { ...message, data: { ...message.data, text: kept } },
        }))
      : details;
  return fitText(withShortText.body, (kept) => ({ ...withShortText, body: kept }));
}

/** `notificationDetails` of a push webhook call, in CometChat's push payload terms. */
export interface PushDetails {
  title: string;
  body: string;
  /** Collapses repeated notifications about the same thing on the device. */
  tag: string;
  sender: string;
  senderName: string;
  senderAvatar?: string;
  receiver: string;
  receiverName: string;
  receiverAvatar?: string;
  receiverType: 'user' | 'group';
  conversationId: string;
  type: 'chat' | 'call';
  callAction?: string;
  callType?: string;
  sentAt: number;
  sound: string;
  message?: Message;
  custom?: Record<string, unknown>;
}

function field(entity: unknown, name: string): string | undefined {
  const value =
    typeof entity === 'object' && entity !== null ? (entity as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The push payload for an event; `shown` is the message as templates saw it (actor as sender). */
export function pushDetails(
  settings: NotificationSettings,
  event: NotificationEvent,
  shown: Message,
  text: RenderedText,
): PushDetails {
  const push = settings.preferences.push;
  const call = (CALL_TOPICS as readonly string[]).includes(event.topic);
  const sender = shown.data.entities.sender?.entity;
  const receiver = shown.data.entities.receiver?.entity;
  const details: PushDetails = {
    title: text.title,
    body: text.body,
    tag: event.reaction === undefined ? event.message.id : event.occurrence,
    sender: field(sender, 'uid') ?? event.actor,
    senderName: field(sender, 'name') ?? event.actor,
    receiver: event.message.receiver,
    receiverName: field(receiver, 'name') ?? event.message.receiver,
    receiverType: event.message.receiverType,
    conversationId: event.message.conversationId,
    type: call ? 'call' : 'chat',
    sentAt: event.message.sentAt,
    sound: call ? settings.sound.call : settings.sound.chat,
  };
  const senderAvatar = field(sender, 'avatar');
  if (senderAvatar !== undefined) details.senderAvatar = senderAvatar;
  const receiverAvatar = field(receiver, 'avatar') ?? field(receiver, 'icon');
  if (receiverAvatar !== undefined) details.receiverAvatar = receiverAvatar;
  if (call) {
    details.callAction = event.topic;
    details.callType = event.message.type;
  }
  if (Object.keys(push.customJson).length > 0) details.custom = push.customJson;
  const message = messageObjectFor(event.message, push);
  if (message !== undefined) details.message = message;
  return push.trimTextFieldSetting ? trimTextToFit(details) : details;
}
