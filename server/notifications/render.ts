import { ALL_MENTION, USER_MENTION } from '../../shared/mentions.js';
import type { EntityRef, Message, UserEntity } from '../../shared/message.js';
import {
  PrivacyTemplateSetting,
  type NotificationSettings,
  type UserNotificationPreferences,
} from '../../shared/notification-settings.js';
import { renderTemplate } from './template.js';
import { CALL_TOPICS, type NotificationEvent, type Topic } from './triggers.js';

/**
 * Titles and bodies from the app's templates, Default or Privacy, for the message an event is
 * about. Events the templates do not cover (edits, deletions, reactions, member and call events)
 * get a fixed phrase as body and the text template's title.
 */

type Templates = NotificationSettings['templates'];
type MessageTemplate = Templates['textMessageTemplateDefault'];

export interface RenderedText {
  title: string;
  body: string;
}

/** `usePrivacyTemplate`: 1 default, 2 privacy, 3 privacy only for users who chose it in their preferences. */
export function usesPrivacyTemplates(
  settings: NotificationSettings,
  preferences: UserNotificationPreferences | undefined,
): boolean {
  switch (settings.templates.usePrivacyTemplate) {
    case PrivacyTemplateSetting.PRIVACY_TEMPLATES:
      return true;
    case PrivacyTemplateSetting.DEFAULT_UNLESS_USER_CHOOSES_PRIVACY:
      return preferences?.usePrivacyTemplate === true;
    default:
      return false;
  }
}

/** Display names of users, for writing `<@uid:…>` mentions as `@Name`. */
export type NameBook = ReadonlyMap<string, string>;

function readableText(text: string, names: NameBook): string {
  return text
    .replace(USER_MENTION, (_, uid: string) => `@${names.get(uid.toLowerCase()) ?? uid}`)
    .replaceAll(ALL_MENTION, '@all');
}

function entityOf(ref: EntityRef | undefined): Record<string, unknown> | undefined {
  return ref === undefined ? undefined : (ref.entity as Record<string, unknown>);
}

/**
 * The message as templates see it: mentions written `@Name`, and the actor as sender for member
 * and call events (`by`) and for reactions (`reactor`).
 */
export function messageForTemplates(message: Message, names: NameBook, reactor?: UserEntity): Message {
  const data = { ...message.data, entities: { ...message.data.entities } };
  if (typeof data.text === 'string') data.text = readableText(data.text, names);
  if (reactor !== undefined) {
    data.entities.sender = { entityType: 'user', entity: reactor };
  } else if (message.category === 'action' || message.category === 'call') {
    data.entities.sender = data.entities.by;
    data.entities.receiver = data.entities.for;
  }
  return { ...message, data };
}

/** The variables templates may name (service interface A, "Expression variables"). */
export function templateView(message: Message, messages: readonly Message[]): object {
  const sender = entityOf(message.data.entities.sender);
  const receiver = message.data.entities.receiver;
  return {
    message,
    messages,
    sender,
    senderDetails: sender,
    groupDetails: receiver?.entityType === 'group' ? receiver.entity : undefined,
  };
}

type MessageFamily =
  | 'text'
  | 'media'
  | 'custom'
  | 'poll'
  | 'reminder'
  | 'interactiveForm'
  | 'interactiveCard'
  | 'interactiveScheduler'
  | 'interactiveCustom';

const INTERACTIVE_FAMILIES: Record<string, MessageFamily> = {
  form: 'interactiveForm',
  card: 'interactiveCard',
  scheduler: 'interactiveScheduler',
};

function familyOf(message: Message): MessageFamily {
  if (message.category === 'interactive') return INTERACTIVE_FAMILIES[message.type] ?? 'interactiveCustom';
  if (message.category === 'custom') {
    if (message.type === 'extension_poll') return 'poll';
    if (message.type === 'extension_reminders') return 'reminder';
    return 'custom';
  }
  return message.type === 'text' ? 'text' : 'media';
}

function pick<Name extends string>(templates: Templates, name: Name, privacy: boolean) {
  const key = `${name}Template${privacy ? 'Privacy' : 'Default'}` as const;
  return templates[key as keyof Templates];
}

/** Renders `body`, or `fallback` when the body comes out empty (a custom message without text). */
function withFallback(body: string, fallback: string | undefined, view: object): string {
  const rendered = renderTemplate(body, view);
  return rendered.trim() === '' && fallback !== undefined ? renderTemplate(fallback, view) : rendered;
}

interface TemplateChoice {
  title: string;
  body: string;
  fallback?: string;
}

/** Which template members render a message for this recipient. */
function messageTemplateFor(
  templates: Templates,
  privacy: boolean,
  message: Message,
  mention: 'user' | 'all' | undefined,
): TemplateChoice {
  const group = message.receiverType === 'group';
  if (mention === 'user') {
    const t = pick(templates, 'userMention', privacy) as Templates['userMentionTemplateDefault'];
    return {
      title: group ? t.titleGroup : t.titleOneOnOne,
      body: group ? t.bodyGroup : t.bodyOneOnOne,
      fallback: t.body_fallback,
    };
  }
  if (mention === 'all') {
    const t = pick(templates, 'groupMention', privacy) as Templates['groupMentionTemplateDefault'];
    return { title: t.titleGroup, body: t.body, fallback: t.body_fallback };
  }
  const family = familyOf(message);
  if (family === 'media') {
    const t = pick(templates, 'mediaMessage', privacy) as Templates['mediaMessageTemplateDefault'];
    const bodies: Record<string, string> = {
      audio: t.body_audio,
      file: t.body_file,
      image: t.body_image,
      video: t.body_video,
    };
    return { title: group ? t.titleGroup : t.titleOneOnOne, body: bodies[message.type] ?? t.body_file };
  }
  const name =
    family === 'text' || family === 'custom' || family === 'poll' || family === 'reminder'
      ? `${family}Message`
      : family;
  const t = pick(templates, name, privacy) as MessageTemplate & { body_fallback?: string };
  return { title: group ? t.titleGroup : t.titleOneOnOne, body: t.body, fallback: t.body_fallback };
}

const GROUP_MEMBER_VERBS: Partial<Record<Topic, string>> = {
  memberAdded: 'added',
  memberKicked: 'kicked',
  memberBanned: 'banned',
  memberUnbanned: 'unbanned',
  memberScopeChanged: 'changed the scope of',
};

function nameOf(ref: EntityRef | undefined): string {
  const name = entityOf(ref)?.name;
  return typeof name === 'string' ? name : '';
}

/** The body of events that have no template of their own. */
function fixedBody(event: NotificationEvent, recipientUid: string): string {
  const { message, topic } = event;
  const entities = message.data.entities;
  if (topic === 'messageEdited') return 'Edited a message';
  if (topic === 'messageDeleted') return 'Deleted a message';
  if (event.reaction !== undefined) {
    const whose = message.sender === recipientUid ? 'your message' : 'a message';
    return `Reacted to ${whose}: ${event.reaction.reaction}`;
  }
  if ((CALL_TOPICS as readonly string[]).includes(topic)) {
    const kind = message.type === 'video' ? 'video' : 'audio';
    const phrases: Record<string, string> = {
      initiated: `Incoming ${kind} call`,
      ongoing: `Ongoing ${kind} call`,
      cancelled: `Cancelled ${kind} call`,
      busy: `Busy on another ${kind} call`,
      rejected: `Rejected ${kind} call`,
      unanswered: `Missed ${kind} call`,
      ended: `Ended ${kind} call`,
    };
    return phrases[topic] ?? `${kind} call`;
  }
  const by = nameOf(entities.by);
  if (topic === 'memberJoined') return `${by} joined`;
  if (topic === 'memberLeft') return `${by} left`;
  return `${by} ${GROUP_MEMBER_VERBS[topic] ?? 'updated'} ${nameOf(entities.on)}`;
}

const TEMPLATED_TOPICS: ReadonlySet<Topic> = new Set(['messages', 'replies', 'quotedReplies']);

/**
 * The title and body one recipient sees. `shown` is the event's message prepared with
 * `messageForTemplates`; mentions pick the mention templates for the users they name.
 */
export function renderNotificationText(
  settings: NotificationSettings,
  privacy: boolean,
  event: NotificationEvent,
  shown: Message,
  recipientUid: string,
): RenderedText {
  const view = templateView(shown, [shown]);
  const templates = settings.templates;
  if (!TEMPLATED_TOPICS.has(event.topic)) {
    const t = pick(templates, 'textMessage', privacy) as MessageTemplate;
    const title = renderTemplate(shown.receiverType === 'group' ? t.titleGroup : t.titleOneOnOne, view);
    return { title, body: fixedBody(event, recipientUid) };
  }
  const mention = event.mentions.has(recipientUid) ? 'user' : event.mentionsAll ? 'all' : undefined;
  const choice = messageTemplateFor(templates, privacy, shown, mention);
  return {
    title: renderTemplate(choice.title, view),
    body: withFallback(choice.body, choice.fallback, view),
  };
}

/** One message of an email or SMS batch, as its body line. */
export function renderMessageLine(settings: NotificationSettings, privacy: boolean, shown: Message): string {
  const choice = messageTemplateFor(settings.templates, privacy, shown, undefined);
  return withFallback(choice.body, choice.fallback, templateView(shown, [shown]));
}

/** Email subject or SMS text for a batch of messages in one conversation, latest last. */
export function renderDigestText(
  settings: NotificationSettings,
  privacy: boolean,
  channel: 'email' | 'sms',
  shown: readonly Message[],
): string {
  const latest = shown[shown.length - 1];
  if (latest === undefined) return '';
  const view = templateView(latest, shown);
  const group = latest.receiverType === 'group';
  if (channel === 'email') {
    const t = pick(settings.templates, 'emailSubject', privacy) as Templates['emailSubjectTemplateDefault'];
    return renderTemplate(group ? t.subjectGroup : t.subjectOneOnOne, view);
  }
  const t = pick(settings.templates, 'smsContent', privacy) as Templates['smsContentTemplateDefault'];
  return renderTemplate(group ? t.bodyGroup : t.bodyOneOnOne, view);
}
