import {
  DndSetting,
  MessageNotifySetting,
  NotifySetting,
  ReactionNotifySetting,
  type NotificationSettings,
  type UserNotificationPreferences,
  type WeekSchedule,
} from '../../shared/notification-settings.js';
import { SuppressReason } from './reasons.js';
import { scheduledDndEnd } from './schedule.js';
import {
  CALL_TOPICS,
  type CallTopic,
  type ConversationType,
  type NotificationEvent,
  type Topic,
} from './triggers.js';

/**
 * Whether one recipient is notified of one event, before any channel is chosen: the app setting
 * for the event and conversation type, the user's own preference where the app's `*Override`
 * allows it, mentions, then do-not-disturb, the weekly schedule and muted conversations.
 */

export interface Recipient {
  uid: string;
  /** Their saved preferences; absent when they never saved any, so the app settings apply. */
  preferences: UserNotificationPreferences | undefined;
  /** IANA time zone for the weekly schedule. */
  timeZone: string;
  /** They muted this conversation: the group, or their one-on-one chat with the actor. */
  mutedConversation: boolean;
}

/**
 * `heldUntil` (epoch ms): decided inside the recipient's do-not-disturb schedule, so notified once
 * it ends, if the conversation is not muted and the message not read by then.
 */
export type Verdict = { notify: true; heldUntil?: number } | { notify: false; reason: SuppressReason };

const NOTIFY: Verdict = { notify: true };
const suppress = (reason: SuppressReason): Verdict => ({ notify: false, reason });

type UserGroupKey = keyof UserNotificationPreferences['groupPreferences'];
type UserOneOnOneKey = keyof UserNotificationPreferences['oneOnOnePreferences'];

/** The user preference that stands for each topic, where users have one. */
const USER_KEYS: Partial<Record<Topic, { group: UserGroupKey; oneOnOne?: UserOneOnOneKey }>> = {
  messages: { group: 'groupMessages', oneOnOne: 'oneOnOneMessages' },
  replies: { group: 'groupReplies', oneOnOne: 'oneOnOneReplies' },
  quotedReplies: { group: 'groupQuotedReplies', oneOnOne: 'oneOnOneQuotedReplies' },
  reactions: { group: 'groupReactions', oneOnOne: 'oneOnOneReactions' },
  memberLeft: { group: 'groupMemberLeft' },
  memberAdded: { group: 'groupMemberAdded' },
  memberJoined: { group: 'groupMemberJoined' },
  memberKicked: { group: 'groupMemberKicked' },
  memberBanned: { group: 'groupMemberBanned' },
  memberUnbanned: { group: 'groupMemberUnbanned' },
  memberScopeChanged: { group: 'groupMemberScopeChanged' },
};

const isCallTopic = (topic: Topic): topic is CallTopic => (CALL_TOPICS as readonly Topic[]).includes(topic);

function reasonFor(topic: Topic): SuppressReason {
  switch (topic) {
    case 'messages':
      return SuppressReason.MESSAGES_PREFERENCE;
    case 'replies':
      return SuppressReason.REPLIES_PREFERENCE;
    case 'quotedReplies':
      return SuppressReason.QUOTED_REPLIES_PREFERENCE;
    case 'reactions':
      return SuppressReason.REACTIONS_PREFERENCE;
    case 'messageEdited':
    case 'messageDeleted':
      return SuppressReason.MESSAGE_ACTIONS_PREFERENCE;
    default:
      return isCallTopic(topic) ? SuppressReason.CALL_PREFERENCE : SuppressReason.GROUP_ACTIONS_PREFERENCE;
  }
}

/** The setting that applies to `recipient` for the event: 1, 2 or 3 as in CometChat's value tables. */
export function preferenceFor(
  settings: NotificationSettings,
  event: NotificationEvent,
  recipient: Recipient,
): number {
  const { topic } = event;
  const preferences = settings.preferences;
  if (isCallTopic(topic)) {
    // Users have no call preferences to override with, so the call `*Override` flags change nothing.
    return preferences.call[`${topic}Setting`];
  }
  const section = (event.conversationType === 'group' ? preferences.group : preferences.oneOnOne) as Record<
    string,
    number | boolean | undefined
  >;
  const appValue = section[`${topic}Setting`];
  if (typeof appValue !== 'number') return NotifySetting.DONT_NOTIFY;
  const overridable = section[`${topic}Override`] === true;
  const user = recipient.preferences;
  const keys = USER_KEYS[topic];
  if (!overridable || user === undefined || keys === undefined) return appValue;
  if (event.conversationType === 'group') return user.groupPreferences[keys.group];
  return keys.oneOnOne === undefined ? appValue : user.oneOnOnePreferences[keys.oneOnOne];
}

function mentioned(event: NotificationEvent, uid: string): boolean {
  return event.mentions.has(uid);
}

/** Whether the preference value lets the event through for this recipient. */
function preferenceAllows(value: number, event: NotificationEvent, uid: string): boolean {
  if (value === NotifySetting.DONT_NOTIFY) return false;
  switch (event.topic) {
    case 'messages':
    case 'replies':
    case 'quotedReplies':
      return value === MessageNotifySetting.NOTIFY_ALL || mentioned(event, uid) || event.mentionsAll;
    case 'reactions':
      return value === ReactionNotifySetting.NOTIFY_ALL_MESSAGES || event.message.sender === uid;
    default:
      return value === NotifySetting.NOTIFY;
  }
}

function dndOn(settings: NotificationSettings, recipient: Recipient): boolean {
  const mute = settings.preferences.mute;
  const user = recipient.preferences;
  const value =
    mute.dndPreferenceOverride && user !== undefined ? user.mutePreferences.dnd : mute.dndPreferenceSetting;
  return value === DndSetting.ENABLED;
}

/** The weekly do-not-disturb schedule that applies to the recipient: their own where the app allows it. */
export function scheduleOf(
  settings: NotificationSettings,
  preferences: UserNotificationPreferences | undefined,
): WeekSchedule {
  const mute = settings.preferences.mute;
  return mute.schedulePreferenceOverride && preferences !== undefined
    ? preferences.mutePreferences.schedule
    : mute.schedulePreferenceSetting;
}

/** `mutedGroupsOverride` / `mutedOneOnOnesOverride`: whether users may mute conversations of that kind. */
export function mutesHonoured(settings: NotificationSettings, conversationType: ConversationType): boolean {
  const mute = settings.preferences.mute;
  return conversationType === 'group' ? mute.mutedGroupsOverride : mute.mutedOneOnOnesOverride;
}

/**
 * The verdict for one recipient at `now` (epoch ms). With `bypassPreferencesForMentions`, a user
 * mentioned by name is notified whatever the event preferences and conversation mutes say; do not
 * disturb and the schedule still hold, since they are the user's own "not now". Do not disturb
 * has no end, so it suppresses; the schedule's spans end, so they hold the notification until then
 * (a schedule covering the whole week suppresses).
 */
export function decide(
  settings: NotificationSettings,
  event: NotificationEvent,
  recipient: Recipient,
  now: number,
): Verdict {
  const bypass = settings.preferences.bypassPreferencesForMentions && mentioned(event, recipient.uid);
  if (!bypass && !preferenceAllows(preferenceFor(settings, event, recipient), event, recipient.uid))
    return suppress(reasonFor(event.topic));
  if (dndOn(settings, recipient)) return suppress(SuppressReason.DND_PREFERENCE);
  if (!bypass && recipient.mutedConversation && mutesHonoured(settings, event.conversationType))
    return suppress(SuppressReason.MUTE_PREFERENCE);
  const end = scheduledDndEnd(scheduleOf(settings, recipient.preferences), now, recipient.timeZone);
  if (end === undefined) return suppress(SuppressReason.SCHEDULE_PREFERENCE);
  return end > now ? { notify: true, heldUntil: end } : NOTIFY;
}
