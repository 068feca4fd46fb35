import { z } from 'zod';

/**
 * Contracts of the app-wide notification settings (`GET|PATCH|DELETE /v3/notifications/v1/settings`,
 * service interface A3-A5) and of one user's notification preferences
 * (`GET|PATCH|DELETE /v3/notifications/v1/preferences`).
 *
 * The settings object is the union of the members the service interface names and those CometChat's
 * own reference (its OpenAPI document and settings example) names, since each names members the
 * other lacks. A member only one of them names is filled from the app defaults when absent, so a
 * settings document written against either reference parses to the complete object.
 */

// --- Values of the integer settings -------------------------------------------------------------

/** Events that either notify or not: edits, deletions, group member events, calls. */
export const NotifySetting = { DONT_NOTIFY: 1, NOTIFY: 2 } as const;
/** Messages, replies and quoted replies: 3 narrows notifications to those that mention the user. */
export const MessageNotifySetting = { DONT_NOTIFY: 1, NOTIFY_ALL: 2, NOTIFY_MENTIONS_ONLY: 3 } as const;
/** Reactions: here 3 widens, from reactions to the user's own messages to reactions to any message. */
export const ReactionNotifySetting = {
  DONT_NOTIFY: 1,
  NOTIFY_OWN_MESSAGES: 2,
  NOTIFY_ALL_MESSAGES: 3,
} as const;
/** Do not disturb: documented for a user's `mutePreferences.dnd`; the app's `dndPreferenceSetting` shares it. */
export const DndSetting = { DISABLED: 1, ENABLED: 2 } as const;
/** Which templates notifications use; 3 lets each user opt into privacy templates in their preferences. */
export const PrivacyTemplateSetting = {
  DEFAULT_TEMPLATES: 1,
  PRIVACY_TEMPLATES: 2,
  DEFAULT_UNLESS_USER_CHOOSES_PRIVACY: 3,
} as const;

/** An integer setting that takes exactly the values of `values`; the error lists them with their meaning. */
function settingOf<const Values extends Readonly<Record<string, number>>>(values: Values) {
  const meanings = Object.entries(values).map(([meaning, value]) => `${value} (${meaning})`);
  return z.literal(Object.values(values) as Array<Values[keyof Values]>, {
    error: `expected one of ${meanings.join(', ')}`,
  });
}

const notifyChoice = settingOf(NotifySetting);
const messageNotifyChoice = settingOf(MessageNotifySetting);
const reactionNotifyChoice = settingOf(ReactionNotifySetting);
const dndChoice = settingOf(DndSetting);
const privacyTemplateChoice = settingOf(PrivacyTemplateSetting);

export type NotifySetting = z.infer<typeof notifyChoice>;
export type MessageNotifySetting = z.infer<typeof messageNotifyChoice>;
export type ReactionNotifySetting = z.infer<typeof reactionNotifyChoice>;
export type DndSetting = z.infer<typeof dndChoice>;
export type PrivacyTemplateSetting = z.infer<typeof privacyTemplateChoice>;

// --- Do-not-disturb schedule --------------------------------------------------------------------

const CLOCK_TIME_RULE = 'a clock time is an integer HHMM from 0 (00:00) to 2359 (23:59)';

/** A time of day written HHMM as one integer, as CometChat's schedules do: 930 is 09:30. */
export const ClockTime = z
  .number({ error: CLOCK_TIME_RULE })
  .int({ error: CLOCK_TIME_RULE })
  .min(0, { error: CLOCK_TIME_RULE })
  .max(2359, { error: CLOCK_TIME_RULE })
  .refine((time) => time % 100 < 60, { error: `${CLOCK_TIME_RULE}; its last two digits are minutes, 00-59` });
export type ClockTime = z.infer<typeof ClockTime>;

export const DaySchedule = z.strictObject({ from: ClockTime, to: ClockTime, dnd: z.boolean() });
export type DaySchedule = z.infer<typeof DaySchedule>;

export const WeekSchedule = z.strictObject({
  monday: DaySchedule,
  tuesday: DaySchedule,
  wednesday: DaySchedule,
  thursday: DaySchedule,
  friday: DaySchedule,
  saturday: DaySchedule,
  sunday: DaySchedule,
});
export type WeekSchedule = z.infer<typeof WeekSchedule>;

// --- App settings: preferences ------------------------------------------------------------------
// A `*Override` flag says whether users may override that app setting with their own preferences.

const OneOnOnePreferences = z.strictObject({
  messagesSetting: messageNotifyChoice,
  messagesOverride: z.boolean(),
  repliesSetting: messageNotifyChoice,
  repliesOverride: z.boolean(),
  quotedRepliesSetting: messageNotifyChoice,
  quotedRepliesOverride: z.boolean(),
  reactionsSetting: reactionNotifyChoice,
  reactionsOverride: z.boolean(),
  messageEditedSetting: notifyChoice,
  messageDeletedSetting: notifyChoice,
});

/** A group has the message settings of a one-on-one chat, plus its member events. */
const GroupPreferences = OneOnOnePreferences.extend({
  memberLeftSetting: notifyChoice,
  memberLeftOverride: z.boolean(),
  memberAddedSetting: notifyChoice,
  memberAddedOverride: z.boolean(),
  memberJoinedSetting: notifyChoice,
  memberJoinedOverride: z.boolean(),
  memberKickedSetting: notifyChoice,
  memberKickedOverride: z.boolean(),
  memberBannedSetting: notifyChoice,
  memberBannedOverride: z.boolean(),
  memberUnbannedSetting: notifyChoice,
  memberUnbannedOverride: z.boolean(),
  memberScopeChangedSetting: notifyChoice,
  memberScopeChangedOverride: z.boolean(),
});

const CallPreferences = z.strictObject({
  initiatedSetting: notifyChoice,
  initiatedOverride: z.boolean(),
  ongoingSetting: notifyChoice,
  ongoingOverride: z.boolean(),
  cancelledSetting: notifyChoice,
  cancelledOverride: z.boolean(),
  busySetting: notifyChoice,
  busyOverride: z.boolean(),
  rejectedSetting: notifyChoice,
  rejectedOverride: z.boolean(),
  unansweredSetting: notifyChoice,
  unansweredOverride: z.boolean(),
  endedSetting: notifyChoice,
  endedOverride: z.boolean(),
});

const MutePreferences = z.strictObject({
  dndPreferenceSetting: dndChoice,
  dndPreferenceOverride: z.boolean(),
  schedulePreferenceSetting: WeekSchedule,
  schedulePreferenceOverride: z.boolean(),
  mutedGroupsOverride: z.boolean(),
  mutedOneOnOnesOverride: z.boolean(),
});

const count = z.number().int().nonnegative();

/** Email and SMS notifications batch messages: at most one per interval, capped per day. */
const DigestPreferences = z.strictObject({
  notifyForUnreadOnly: z.boolean(),
  intervalInSeconds: count,
  maxPerDay: count,
  maxPerDayPerConversation: count,
  includeMessageObjectSetting: z.boolean(),
  includeSenderMetadataSetting: z.boolean(),
  includeReceiverMetadataSetting: z.boolean(),
  includeMessageMetadataSetting: z.boolean(),
});

const PushPreferences = z.strictObject({
  includeMessageObjectSetting: z.boolean(),
  includeSenderMetadataSetting: z.boolean(),
  includeReceiverMetadataSetting: z.boolean(),
  trimTextFieldSetting: z.boolean(),
  includeMessageMetadataSetting: z.boolean(),
  /** Free data for the app's own push handling; a patch replaces it whole. */
  customJson: z.record(z.string(), z.unknown()),
});

const Preferences = z.strictObject({
  group: GroupPreferences,
  oneOnOne: OneOnOnePreferences,
  call: CallPreferences,
  bypassPreferencesForMentions: z.boolean(),
  mute: MutePreferences,
  email: DigestPreferences,
  sms: DigestPreferences,
  push: PushPreferences,
});

const soundName = z.string().min(1, { error: 'a sound name must not be empty' });
const Sound = z.strictObject({ chat: soundName, call: soundName });

// --- App settings: templates --------------------------------------------------------------------

/** A stray or unclosed brace pair would reach users verbatim, so every `{{` must close around an expression. */
function hasClosedExpressions(text: string): boolean {
  const outsideExpressions = text.replace(/\{\{[^{}]+\}\}/g, '');
  return !outsideExpressions.includes('{{') && !outsideExpressions.includes('}}');
}

/** Template text: free text with `{{...}}` expressions such as `{{message.data.text}}`. */
const TemplateText = z.string().refine(hasClosedExpressions, {
  error: 'every "{{" must be closed by "}}" around an expression, as in {{message.data.text}}',
});

const MessageTemplate = z.strictObject({
  titleOneOnOne: TemplateText,
  titleGroup: TemplateText,
  body: TemplateText,
});
/** `body_fallback` is used when `body` renders empty. */
const FallbackMessageTemplate = MessageTemplate.extend({ body_fallback: TemplateText });
const MediaMessageTemplate = z.strictObject({
  titleOneOnOne: TemplateText,
  titleGroup: TemplateText,
  body_audio: TemplateText,
  body_file: TemplateText,
  body_image: TemplateText,
  body_video: TemplateText,
});
const UserMentionTemplate = z.strictObject({
  titleOneOnOne: TemplateText,
  titleGroup: TemplateText,
  bodyOneOnOne: TemplateText,
  bodyGroup: TemplateText,
  body_fallback: TemplateText,
});
/** An @all mention happens only in groups. */
const GroupMentionTemplate = z.strictObject({
  titleGroup: TemplateText,
  body: TemplateText,
  body_fallback: TemplateText,
});
const EmailSubjectTemplate = z.strictObject({ subjectGroup: TemplateText, subjectOneOnOne: TemplateText });
const SmsContentTemplate = z.strictObject({ bodyGroup: TemplateText, bodyOneOnOne: TemplateText });

const Templates = z.strictObject({
  usePrivacyTemplate: privacyTemplateChoice,
  textMessageTemplateDefault: MessageTemplate,
  textMessageTemplatePrivacy: MessageTemplate,
  mediaMessageTemplateDefault: MediaMessageTemplate,
  mediaMessageTemplatePrivacy: MediaMessageTemplate,
  customMessageTemplateDefault: FallbackMessageTemplate,
  customMessageTemplatePrivacy: FallbackMessageTemplate,
  pollMessageTemplateDefault: FallbackMessageTemplate,
  pollMessageTemplatePrivacy: FallbackMessageTemplate,
  reminderMessageTemplateDefault: FallbackMessageTemplate,
  reminderMessageTemplatePrivacy: FallbackMessageTemplate,
  interactiveFormTemplateDefault: MessageTemplate,
  interactiveFormTemplatePrivacy: MessageTemplate,
  interactiveCardTemplateDefault: MessageTemplate,
  interactiveCardTemplatePrivacy: MessageTemplate,
  interactiveSchedulerTemplateDefault: MessageTemplate,
  interactiveSchedulerTemplatePrivacy: MessageTemplate,
  interactiveCustomTemplateDefault: MessageTemplate,
  interactiveCustomTemplatePrivacy: MessageTemplate,
  userMentionTemplateDefault: UserMentionTemplate,
  userMentionTemplatePrivacy: UserMentionTemplate,
  groupMentionTemplateDefault: GroupMentionTemplate,
  groupMentionTemplatePrivacy: GroupMentionTemplate,
  emailSubjectTemplateDefault: EmailSubjectTemplate,
  emailSubjectTemplatePrivacy: EmailSubjectTemplate,
  smsContentTemplateDefault: SmsContentTemplate,
  smsContentTemplatePrivacy: SmsContentTemplate,
});

/** Every member required: the shape the server stores and returns. */
const CompleteNotificationSettings = z.strictObject({
  preferences: Preferences,
  sound: Sound,
  templates: Templates,
});
export type NotificationSettings = z.output<typeof CompleteNotificationSettings>;

// --- App defaults -------------------------------------------------------------------------------

type DeepReadonly<T> = T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

function deepFreeze<T extends object>(value: T): DeepReadonly<T> {
  for (const member of Object.values(value)) {
    if (typeof member === 'object' && member !== null) deepFreeze(member);
  }
  return Object.freeze(value) as DeepReadonly<T>;
}

/**
 * A deep copy of JSON data in which no two members share an object. `structuredClone` keeps shared
 * references, so a later write to one member would show up in the others.
 */
function copyData<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyData) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, copyData(member)])) as T;
}

const SENDER_NAME = '{{message.data.entities.sender.entity.name}}';
const RECEIVER_NAME = '{{message.data.entities.receiver.entity.name}}';
const TITLES = { titleOneOnOne: SENDER_NAME, titleGroup: `${SENDER_NAME} @ ${RECEIVER_NAME}` };
const MESSAGE_TEXT = '{{message.data.text}}';
/** A fresh week in which do-not-disturb is off all day. */
function noDndAllWeek(): WeekSchedule {
  const weekdays = WeekSchedule.keyof().options;
  return Object.fromEntries(weekdays.map((day) => [day, { from: 0, to: 2359, dnd: false }])) as WeekSchedule;
}
const DIGEST_DEFAULTS = {
  notifyForUnreadOnly: true,
  intervalInSeconds: 7200,
  maxPerDay: 20,
  maxPerDayPerConversation: 2,
  includeMessageObjectSetting: false,
  includeSenderMetadataSetting: true,
  includeReceiverMetadataSetting: true,
  includeMessageMetadataSetting: true,
};
const SMS_LINK = 'Read them at https://your-website.com.';
const EMAIL_SUBJECTS = {
  subjectGroup: 'New messages in {{groupDetails.name}}',
  subjectOneOnOne: 'New messages from {{senderDetails.name}}',
};
const SMS_BODIES = {
  bodyGroup: `You've received {{messages.length}} message(s) in {{groupDetails.name}}! ${SMS_LINK}`,
  bodyOneOnOne: `You've received {{messages.length}} message(s) from {{senderDetails.name}}! ${SMS_LINK}`,
};

/** Message notifications by default, the same in one-on-one chats and groups. */
const ONE_ON_ONE_DEFAULTS: NotificationSettings['preferences']['oneOnOne'] = {
  messagesSetting: MessageNotifySetting.NOTIFY_ALL,
  messagesOverride: true,
  repliesSetting: MessageNotifySetting.NOTIFY_ALL,
  repliesOverride: true,
  quotedRepliesSetting: MessageNotifySetting.NOTIFY_ALL,
  quotedRepliesOverride: true,
  reactionsSetting: ReactionNotifySetting.NOTIFY_OWN_MESSAGES,
  reactionsOverride: true,
  messageEditedSetting: NotifySetting.NOTIFY,
  messageDeletedSetting: NotifySetting.NOTIFY,
};

/**
 * The settings a new app starts with and `DELETE /notifications/v1/settings` restores: the values of
 * CometChat's settings example and the service interface's defaults. Templates neither shows are
 * written in the same manner: sender titles, the content as body, a generic phrase for privacy.
 */
export const DEFAULT_NOTIFICATION_SETTINGS: DeepReadonly<NotificationSettings> =
  deepFreeze<NotificationSettings>({
    preferences: {
      group: {
        ...ONE_ON_ONE_DEFAULTS,
        memberLeftSetting: NotifySetting.DONT_NOTIFY,
        memberLeftOverride: true,
        memberAddedSetting: NotifySetting.DONT_NOTIFY,
        memberAddedOverride: true,
        memberJoinedSetting: NotifySetting.DONT_NOTIFY,
        memberJoinedOverride: true,
        memberKickedSetting: NotifySetting.DONT_NOTIFY,
        memberKickedOverride: true,
        memberBannedSetting: NotifySetting.DONT_NOTIFY,
        memberBannedOverride: true,
        memberUnbannedSetting: NotifySetting.DONT_NOTIFY,
        memberUnbannedOverride: true,
        memberScopeChangedSetting: NotifySetting.DONT_NOTIFY,
        memberScopeChangedOverride: true,
      },
      oneOnOne: ONE_ON_ONE_DEFAULTS,
      call: {
        initiatedSetting: NotifySetting.DONT_NOTIFY,
        initiatedOverride: false,
        ongoingSetting: NotifySetting.DONT_NOTIFY,
        ongoingOverride: false,
        cancelledSetting: NotifySetting.DONT_NOTIFY,
        cancelledOverride: false,
        busySetting: NotifySetting.DONT_NOTIFY,
        busyOverride: false,
        rejectedSetting: NotifySetting.DONT_NOTIFY,
        rejectedOverride: false,
        unansweredSetting: NotifySetting.DONT_NOTIFY,
        unansweredOverride: false,
        endedSetting: NotifySetting.DONT_NOTIFY,
        endedOverride: false,
      },
      bypassPreferencesForMentions: false,
      mute: {
        dndPreferenceSetting: DndSetting.DISABLED,
        dndPreferenceOverride: true,
        schedulePreferenceSetting: noDndAllWeek(),
        schedulePreferenceOverride: true,
        mutedGroupsOverride: true,
        mutedOneOnOnesOverride: true,
      },
      email: { ...DIGEST_DEFAULTS },
      sms: { ...DIGEST_DEFAULTS },
      push: {
        includeMessageObjectSetting: false,
        includeSenderMetadataSetting: true,
        includeReceiverMetadataSetting: true,
        trimTextFieldSetting: false,
        includeMessageMetadataSetting: true,
        customJson: {},
      },
    },
    sound: { chat: 'default', call: 'default' },
    templates: {
      usePrivacyTemplate: PrivacyTemplateSetting.DEFAULT_UNLESS_USER_CHOOSES_PRIVACY,
      textMessageTemplateDefault: { ...TITLES, body: MESSAGE_TEXT },
      textMessageTemplatePrivacy: { ...TITLES, body: 'New message' },
      mediaMessageTemplateDefault: {
        ...TITLES,
        body_audio: '🔈 Has sent an audio',
        body_file: '📄 Has sent a file',
        body_image: '📷 Has sent an image',
        body_video: '🎥 Has sent a video',
      },
      mediaMessageTemplatePrivacy: {
        ...TITLES,
        body_audio: 'New audio message',
        body_file: 'New file message',
        body_image: 'New image message',
        body_video: 'New video message',
      },
      customMessageTemplateDefault: { ...TITLES, body: MESSAGE_TEXT, body_fallback: 'New message' },
      customMessageTemplatePrivacy: { ...TITLES, body: 'New message', body_fallback: 'New message' },
      pollMessageTemplateDefault: { ...TITLES, body: MESSAGE_TEXT, body_fallback: '' },
      pollMessageTemplatePrivacy: { ...TITLES, body: MESSAGE_TEXT, body_fallback: '' },
      reminderMessageTemplateDefault: { ...TITLES, body: MESSAGE_TEXT, body_fallback: '' },
      reminderMessageTemplatePrivacy: { ...TITLES, body: MESSAGE_TEXT, body_fallback: '' },
      interactiveFormTemplateDefault: { ...TITLES, body: '{{message.data.interactiveData.title}}' },
      interactiveFormTemplatePrivacy: { ...TITLES, body: 'New form message' },
      interactiveCardTemplateDefault: { ...TITLES, body: '{{message.data.interactiveData.text}}' },
      interactiveCardTemplatePrivacy: { ...TITLES, body: 'New card message' },
      interactiveSchedulerTemplateDefault: { ...TITLES, body: '{{message.data.interactiveData.title}}' },
      interactiveSchedulerTemplatePrivacy: { ...TITLES, body: 'New scheduler message' },
      // A custom interactive message has no documented text field to show.
      interactiveCustomTemplateDefault: { ...TITLES, body: 'New message' },
      interactiveCustomTemplatePrivacy: { ...TITLES, body: 'New message' },
      userMentionTemplateDefault: {
        ...TITLES,
        bodyOneOnOne: `${SENDER_NAME} mentioned you: ${MESSAGE_TEXT}`,
        bodyGroup: `${SENDER_NAME} mentioned you in ${RECEIVER_NAME}: ${MESSAGE_TEXT}`,
        body_fallback: 'New mention',
      },
      userMentionTemplatePrivacy: {
        ...TITLES,
        bodyOneOnOne: `${SENDER_NAME} mentioned you`,
        bodyGroup: `${SENDER_NAME} mentioned you in ${RECEIVER_NAME}`,
        body_fallback: 'New mention',
      },
      groupMentionTemplateDefault: {
        titleGroup: TITLES.titleGroup,
        body: `${SENDER_NAME} mentioned everyone: ${MESSAGE_TEXT}`,
        body_fallback: 'New mention',
      },
      groupMentionTemplatePrivacy: {
        titleGroup: TITLES.titleGroup,
        body: `${SENDER_NAME} mentioned everyone`,
        body_fallback: 'New mention',
      },
      emailSubjectTemplateDefault: { ...EMAIL_SUBJECTS },
      emailSubjectTemplatePrivacy: { ...EMAIL_SUBJECTS },
      smsContentTemplateDefault: { ...SMS_BODIES },
      smsContentTemplatePrivacy: { ...SMS_BODIES },
    },
  });

// --- The settings schema ------------------------------------------------------------------------

/** Members of `section` that fall back to `defaults` when absent (a fresh copy each time). */
function defaultedMembers<Shape extends z.core.$ZodShape, Key extends keyof Shape & string>(
  section: z.ZodObject<Shape, z.core.$strict>,
  defaults: Readonly<Record<Key, unknown>>,
  keys: readonly Key[],
): { [K in Key]: z.ZodDefault<Shape[K]> } {
  const members: Record<string, z.ZodType> = {};
  for (const key of keys) {
    const member = section.shape[key] as z.core.$ZodType;
    members[key] = z._default(member, () => copyData(defaults[key]));
  }
  return members as { [K in Key]: z.ZodDefault<Shape[K]> };
}

/** Named by CometChat's example, not by the service interface. */
const QUOTED_REPLY_MEMBERS = ['quotedRepliesSetting', 'quotedRepliesOverride'] as const;
/** Named by the service interface, not by CometChat. */
const DIGEST_INCLUDE_MEMBERS = [
  'includeMessageObjectSetting',
  'includeSenderMetadataSetting',
  'includeReceiverMetadataSetting',
  'includeMessageMetadataSetting',
] as const;
/** Each named by only one reference: poll and reminder by CometChat's example, interactive by the service interface, mentions by CometChat's OpenAPI schema. */
const SINGLE_SOURCE_TEMPLATES = [
  'pollMessageTemplateDefault',
  'pollMessageTemplatePrivacy',
  'reminderMessageTemplateDefault',
  'reminderMessageTemplatePrivacy',
  'interactiveFormTemplateDefault',
  'interactiveFormTemplatePrivacy',
  'interactiveCardTemplateDefault',
  'interactiveCardTemplatePrivacy',
  'interactiveSchedulerTemplateDefault',
  'interactiveSchedulerTemplatePrivacy',
  'interactiveCustomTemplateDefault',
  'interactiveCustomTemplatePrivacy',
  'userMentionTemplateDefault',
  'userMentionTemplatePrivacy',
  'groupMentionTemplateDefault',
  'groupMentionTemplatePrivacy',
] as const;

/**
 * The app settings `{preferences, sound, templates}` (A3 response, stored settings). Parses to the
 * complete object: members only one reference names are filled from the app defaults when absent.
 */
export const NotificationSettings = CompleteNotificationSettings.extend({
  preferences: Preferences.extend({
    group: GroupPreferences.extend(
      defaultedMembers(
        GroupPreferences,
        DEFAULT_NOTIFICATION_SETTINGS.preferences.group,
        QUOTED_REPLY_MEMBERS,
      ),
    ),
    oneOnOne: OneOnOnePreferences.extend(
      defaultedMembers(
        OneOnOnePreferences,
        DEFAULT_NOTIFICATION_SETTINGS.preferences.oneOnOne,
        QUOTED_REPLY_MEMBERS,
      ),
    ),
    email: DigestPreferences.extend(
      defaultedMembers(
        DigestPreferences,
        DEFAULT_NOTIFICATION_SETTINGS.preferences.email,
        DIGEST_INCLUDE_MEMBERS,
      ),
    ),
    sms: DigestPreferences.extend(
      defaultedMembers(
        DigestPreferences,
        DEFAULT_NOTIFICATION_SETTINGS.preferences.sms,
        DIGEST_INCLUDE_MEMBERS,
      ),
    ),
  }),
  templates: Templates.extend(
    defaultedMembers(Templates, DEFAULT_NOTIFICATION_SETTINGS.templates, SINGLE_SOURCE_TEMPLATES),
  ),
});

// --- Partial updates ----------------------------------------------------------------------------

type StrictSection = z.ZodObject<z.core.$ZodShape, z.core.$strict>;

type PartialDeep<Schema> =
  Schema extends z.ZodObject<infer Shape, z.core.$strict>
    ? z.ZodObject<
        { -readonly [K in keyof Shape]: z.ZodOptional<Extract<PartialDeep<Shape[K]>, z.core.SomeType>> },
        z.core.$strict
      >
    : Schema;

/** Every member optional at every depth, unknown members still rejected; leaves keep their rules. */
function partialDeep<Section extends StrictSection>(section: Section): PartialDeep<Section> {
  const members = Object.fromEntries(
    Object.entries(section.shape).map(([key, member]) => [
      key,
      z.optional(member instanceof z.ZodObject ? partialDeep(member as StrictSection) : member),
    ]),
  );
  return z.strictObject(members) as unknown as PartialDeep<Section>;
}

function namesAMember(body: object): boolean {
  return Object.values(body).some((member) => member !== undefined);
}

/** Body of `PATCH /notifications/v1/settings` (A4): any members of the settings, at least one. */
export const NotificationSettingsPatch = partialDeep(CompleteNotificationSettings).refine(namesAMember, {
  error: 'name at least one of preferences, sound or templates to update',
});
export type NotificationSettingsPatch = z.infer<typeof NotificationSettingsPatch>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Writes `patch` into `target`: members the schema declares as objects merge, anything else is replaced. */
function writePatch(section: StrictSection, target: Record<string, unknown>, patch: object): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const member = section.shape[key];
    const current = target[key];
    if (member instanceof z.ZodObject && isRecord(current) && isRecord(value)) {
      writePatch(member as StrictSection, current, value);
    } else {
      target[key] = copyData(value);
    }
  }
}

/** A new object: `current` with `patch` applied; shares nothing with either argument. */
function applyPatch<Value extends object>(
  section: StrictSection,
  current: DeepReadonly<Value>,
  patch: object,
): Value {
  const merged = copyData(current) as Value;
  writePatch(section, merged as Record<string, unknown>, patch);
  return merged;
}

/** The settings after `PATCH /notifications/v1/settings`; `patch` is a parsed `NotificationSettingsPatch`. */
export function mergeNotificationSettings(
  current: DeepReadonly<NotificationSettings>,
  patch: NotificationSettingsPatch,
): NotificationSettings {
  return applyPatch<NotificationSettings>(CompleteNotificationSettings, current, patch);
}

// --- One user's preferences ---------------------------------------------------------------------

const GroupNotificationPreferences = z.strictObject({
  groupMessages: messageNotifyChoice,
  groupReplies: messageNotifyChoice,
  groupQuotedReplies: messageNotifyChoice,
  groupReactions: reactionNotifyChoice,
  groupMemberLeft: notifyChoice,
  groupMemberAdded: notifyChoice,
  groupMemberJoined: notifyChoice,
  groupMemberKicked: notifyChoice,
  groupMemberBanned: notifyChoice,
  groupMemberUnbanned: notifyChoice,
  groupMemberScopeChanged: notifyChoice,
});

const OneOnOneNotificationPreferences = z.strictObject({
  oneOnOneMessages: messageNotifyChoice,
  oneOnOneReplies: messageNotifyChoice,
  oneOnOneQuotedReplies: messageNotifyChoice,
  oneOnOneReactions: reactionNotifyChoice,
});

const MuteNotificationPreferences = z.strictObject({ dnd: dndChoice, schedule: WeekSchedule });

/**
 * One user's preferences (`GET|PATCH|DELETE /notifications/v1/preferences?uid=`). They apply where
 * the app's matching `*Override` allows; `usePrivacyTemplate` matters when the app's templates
 * setting is `DEFAULT_UNLESS_USER_CHOOSES_PRIVACY`.
 */
export const UserNotificationPreferences = z.strictObject({
  groupPreferences: GroupNotificationPreferences,
  oneOnOnePreferences: OneOnOneNotificationPreferences,
  mutePreferences: MuteNotificationPreferences,
  usePrivacyTemplate: z.boolean(),
});
export type UserNotificationPreferences = z.infer<typeof UserNotificationPreferences>;

/** What `DELETE /notifications/v1/preferences` restores, as CometChat's reset example shows. */
export const DEFAULT_USER_NOTIFICATION_PREFERENCES: DeepReadonly<UserNotificationPreferences> =
  deepFreeze<UserNotificationPreferences>({
    groupPreferences: {
      groupMessages: MessageNotifySetting.NOTIFY_ALL,
      groupReplies: MessageNotifySetting.NOTIFY_ALL,
      groupQuotedReplies: MessageNotifySetting.NOTIFY_ALL,
      groupReactions: ReactionNotifySetting.NOTIFY_OWN_MESSAGES,
      groupMemberLeft: NotifySetting.DONT_NOTIFY,
      groupMemberAdded: NotifySetting.DONT_NOTIFY,
      groupMemberJoined: NotifySetting.DONT_NOTIFY,
      groupMemberKicked: NotifySetting.DONT_NOTIFY,
      groupMemberBanned: NotifySetting.DONT_NOTIFY,
      groupMemberUnbanned: NotifySetting.DONT_NOTIFY,
      groupMemberScopeChanged: NotifySetting.DONT_NOTIFY,
    },
    oneOnOnePreferences: {
      oneOnOneMessages: MessageNotifySetting.NOTIFY_ALL,
      oneOnOneReplies: MessageNotifySetting.NOTIFY_ALL,
      oneOnOneQuotedReplies: MessageNotifySetting.NOTIFY_ALL,
      oneOnOneReactions: ReactionNotifySetting.NOTIFY_OWN_MESSAGES,
    },
    mutePreferences: { dnd: DndSetting.DISABLED, schedule: noDndAllWeek() },
    usePrivacyTemplate: true,
  });

/** Body of `PATCH /notifications/v1/preferences`: any members of the preferences, at least one. */
export const UserNotificationPreferencesPatch = partialDeep(UserNotificationPreferences).refine(
  namesAMember,
  {
    error:
      'name at least one of groupPreferences, oneOnOnePreferences, mutePreferences or usePrivacyTemplate',
  },
);
export type UserNotificationPreferencesPatch = z.infer<typeof UserNotificationPreferencesPatch>;

/** The preferences after `PATCH /notifications/v1/preferences`; `patch` is a parsed patch. */
export function mergeUserNotificationPreferences(
  current: DeepReadonly<UserNotificationPreferences>,
  patch: UserNotificationPreferencesPatch,
): UserNotificationPreferences {
  return applyPatch<UserNotificationPreferences>(UserNotificationPreferences, current, patch);
}
