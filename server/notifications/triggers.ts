import { ALL_MENTION } from '../../shared/mentions.js';
import type { Message } from '../../shared/message.js';
import type { Reaction } from '../services/decisions.js';

/**
 * Chat events in the engine's terms: which preference governs them (`topic`), the trigger name the
 * logs use (CometChat's `trigger` enum, plus the call actions it leaves out), who caused them (never
 * notified) and who may be mentioned.
 */

export const CALL_TOPICS = [
  'initiated',
  'ongoing',
  'cancelled',
  'busy',
  'rejected',
  'unanswered',
  'ended',
] as const;
export type CallTopic = (typeof CALL_TOPICS)[number];

export const GROUP_MEMBER_TOPICS = {
  added: 'memberAdded',
  joined: 'memberJoined',
  left: 'memberLeft',
  kicked: 'memberKicked',
  banned: 'memberBanned',
  unbanned: 'memberUnbanned',
  scopeChanged: 'memberScopeChanged',
} as const;
export type GroupMemberAction = keyof typeof GROUP_MEMBER_TOPICS;
export type GroupMemberTopic = (typeof GROUP_MEMBER_TOPICS)[GroupMemberAction];

/** Messages, replies and quoted replies: the topics whose setting 3 means "mentions only". */
export type MessageTopic = 'messages' | 'replies' | 'quotedReplies';

export type Topic =
  MessageTopic | 'reactions' | 'messageEdited' | 'messageDeleted' | GroupMemberTopic | CallTopic;

const GROUP_MEMBER_TRIGGERS: Record<GroupMemberTopic, string> = {
  memberAdded: 'after_group_members_added',
  memberJoined: 'after_group_joined',
  memberLeft: 'after_group_left',
  memberKicked: 'after_group_members_kicked',
  memberBanned: 'after_group_members_banned',
  memberUnbanned: 'after_group_members_unbanned',
  memberScopeChanged: 'after_scope_changed',
};

export type ConversationType = 'group' | 'oneOnOne';

/** The emoji, and who reacted. */
export type { Reaction };

export interface NotificationEvent {
  appId: string;
  topic: Topic;
  trigger: string;
  /** The new, edited, deleted or reacted-to message; the action or call message for member and call events. */
  message: Message;
  /** Who caused the event; never notified of it. */
  actor: string;
  conversationType: ConversationType;
  /**
   * Users the message mentions: the keys of its `data.mentions`, which the message service fills from
   * the text's `<@uid:…>` with users who exist and, in a group, are members.
   */
  mentions: ReadonlySet<string>;
  /** `<@all:all>` in a group message. */
  mentionsAll: boolean;
  reaction?: Reaction;
  /** Unique per event for its message, so a second edit or reaction is a new notification. */
  occurrence: string;
}

function textOf(message: Message): string {
  return typeof message.data.text === 'string' ? message.data.text : '';
}

export function mentionsIn(message: Message): Set<string> {
  const mentions: unknown = (message.data as { mentions?: unknown }).mentions;
  return new Set(typeof mentions === 'object' && mentions !== null ? Object.keys(mentions) : []);
}

function conversationTypeOf(message: Message): ConversationType {
  return message.receiverType === 'group' ? 'group' : 'oneOnOne';
}

function messageTopic(message: Message): MessageTopic {
  const extra = message as Record<string, unknown>;
  if (extra.quotedMessageId !== undefined || extra.quotedMessage !== undefined) return 'quotedReplies';
  return message.parentId === undefined ? 'messages' : 'replies';
}

const noMentions: ReadonlySet<string> = new Set();

/** A message from the `message` event: sent, a group member action, or a call; edit/delete actions come separately. */
export function eventOfMessage(appId: string, message: Message): NotificationEvent | undefined {
  const base = {
    appId,
    message,
    actor: message.sender,
    conversationType: conversationTypeOf(message),
    occurrence: message.id,
  };
  if (message.category === 'action') {
    const action = message.data.action as GroupMemberAction | undefined;
    if (message.type !== 'groupMember' || action === undefined || !(action in GROUP_MEMBER_TOPICS))
      return undefined;
    const topic = GROUP_MEMBER_TOPICS[action];
    return {
      ...base,
      topic,
      trigger: GROUP_MEMBER_TRIGGERS[topic],
      mentions: noMentions,
      mentionsAll: false,
    };
  }
  if (message.category === 'call') {
    const action = message.data.action as CallTopic | undefined;
    if (action === undefined || !CALL_TOPICS.includes(action)) return undefined;
    return { ...base, topic: action, trigger: action, mentions: noMentions, mentionsAll: false };
  }
  return {
    ...base,
    topic: messageTopic(message),
    trigger: 'after_message',
    mentions: mentionsIn(message),
    mentionsAll: base.conversationType === 'group' && textOf(message).includes(ALL_MENTION),
  };
}

export function eventOfEdit(appId: string, message: Message): NotificationEvent {
  return {
    appId,
    topic: 'messageEdited',
    trigger: 'message_edited',
    message,
    actor: message.editedBy ?? message.sender,
    conversationType: conversationTypeOf(message),
    mentions: noMentions,
    mentionsAll: false,
    occurrence: `${message.id}@${message.editedAt ?? message.updatedAt}`,
  };
}

export function eventOfDelete(appId: string, message: Message): NotificationEvent {
  return {
    appId,
    topic: 'messageDeleted',
    trigger: 'message_deleted',
    message,
    actor: message.deletedBy ?? message.sender,
    conversationType: conversationTypeOf(message),
    mentions: noMentions,
    mentionsAll: false,
    occurrence: message.id,
  };
}

/** A reaction added to `message`. */
export function eventOfReaction(appId: string, message: Message, reaction: Reaction): NotificationEvent {
  return {
    appId,
    topic: 'reactions',
    trigger: 'message_reaction_added',
    message,
    actor: reaction.by.uid.toLowerCase(),
    conversationType: conversationTypeOf(message),
    mentions: noMentions,
    mentionsAll: false,
    reaction,
    // Encoded: the occurrence ends up in the idempotency key header, which must be plain ASCII.
    occurrence: `${message.id}:${reaction.by.uid.toLowerCase()}:${encodeURIComponent(reaction.reaction)}`,
  };
}
