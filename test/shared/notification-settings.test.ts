import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { zodErrorToEnvelope } from '../../shared/errors.js';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  DEFAULT_USER_NOTIFICATION_PREFERENCES,
  DndSetting,
  MessageNotifySetting,
  NotificationSettings,
  NotificationSettingsPatch,
  NotifySetting,
  PrivacyTemplateSetting,
  ReactionNotifySetting,
  UserNotificationPreferences,
  UserNotificationPreferencesPatch,
  mergeNotificationSettings,
  mergeUserNotificationPreferences,
} from '../../shared/notification-settings.js';

/** A documented response `{data: ...}`, stored as a JSON file under fixtures/notifications. */
function fixtureData(name: string): Record<string, unknown> {
  const url = new URL(`./fixtures/notifications/${name}`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { data: Record<string, unknown> }).data;
}

/** CometChat's `GET /notifications/v1/settings` example: cometchat-rest.md §2e and the OpenAPI document (identical). */
const settingsExample = () => fixtureData('settings-example.json');
/** CometChat's `DELETE /notifications/v1/preferences` example. */
const preferencesResetExample = () => fixtureData('user-preferences-reset-example.json');

function valueAt(value: unknown, dottedPath: string): unknown {
  return dottedPath
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
}

/** `{a: {b: value}}` from `'a.b'`: the smallest body that sets one member. */
function bodySetting(dottedPath: string, value: unknown): Record<string, unknown> {
  return dottedPath.split('.').reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<
    string,
    unknown
  >;
}

function failure(schema: z.ZodType, input: unknown): { field: string; message: string } {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  const { message, details } = zodErrorToEnvelope(result.error).error;
  return { field: details.field as string, message };
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

describe('NotificationSettings', () => {
  it("parses CometChat's settings example, keeping every value it gives", () => {
    const example = settingsExample();
    expect(NotificationSettings.parse(example)).toMatchObject(example);
  });

  it('fills the members the example lacks from the app defaults', () => {
    const parsed = NotificationSettings.parse(settingsExample());
    expect(parsed.preferences.email.includeSenderMetadataSetting).toBe(true);
    expect(parsed.preferences.sms.includeMessageObjectSetting).toBe(false);
    expect(parsed.templates.interactiveFormTemplateDefault).toEqual(
      DEFAULT_NOTIFICATION_SETTINGS.templates.interactiveFormTemplateDefault,
    );
    expect(parsed.templates.userMentionTemplatePrivacy).toEqual(
      DEFAULT_NOTIFICATION_SETTINGS.templates.userMentionTemplatePrivacy,
    );
  });

  it('fills the quoted-reply members a document written against the service interface lacks', () => {
    const settings = structuredClone(DEFAULT_NOTIFICATION_SETTINGS) as NotificationSettings;
    const {
      quotedRepliesSetting: _setting,
      quotedRepliesOverride: _override,
      ...group
    } = settings.preferences.group;
    const parsed = NotificationSettings.parse({
      ...settings,
      preferences: { ...settings.preferences, group },
    });
    expect(parsed.preferences.group.quotedRepliesSetting).toBe(MessageNotifySetting.NOTIFY_ALL);
    expect(parsed.preferences.group.quotedRepliesOverride).toBe(true);
  });

  it.each([
    [
      'preferences.group',
      [
        'messagesSetting',
        'messageEditedSetting',
        'messageDeletedSetting',
        'repliesSetting',
        'reactionsSetting',
        'memberLeftSetting',
        'memberAddedSetting',
        'memberJoinedSetting',
        'memberKickedSetting',
        'memberBannedSetting',
        'memberUnbannedSetting',
        'memberScopeChangedSetting',
        'messagesOverride',
        'repliesOverride',
        'reactionsOverride',
        'memberLeftOverride',
        'memberAddedOverride',
        'memberJoinedOverride',
        'memberKickedOverride',
        'memberBannedOverride',
        'memberUnbannedOverride',
        'memberScopeChangedOverride',
      ],
    ],
    [
      'preferences.oneOnOne',
      [
        'messagesSetting',
        'repliesSetting',
        'messageEditedSetting',
        'messageDeletedSetting',
        'reactionsSetting',
        'messagesOverride',
        'repliesOverride',
        'reactionsOverride',
      ],
    ],
    [
      'preferences.call',
      [
        'busySetting',
        'cancelledSetting',
        'endedSetting',
        'initiatedSetting',
        'ongoingSetting',
        'rejectedSetting',
        'unansweredSetting',
        'initiatedOverride',
        'ongoingOverride',
        'cancelledOverride',
        'rejectedOverride',
        'unansweredOverride',
        'busyOverride',
        'endedOverride',
      ],
    ],
    [
      'preferences.mute',
      [
        'dndPreferenceSetting',
        'dndPreferenceOverride',
        'schedulePreferenceOverride',
        'mutedGroupsOverride',
        'mutedOneOnOnesOverride',
        'schedulePreferenceSetting',
      ],
    ],
    [
      'preferences.email',
      [
        'notifyForUnreadOnly',
        'intervalInSeconds',
        'maxPerDay',
        'maxPerDayPerConversation',
        'includeMessageObjectSetting',
        'includeSenderMetadataSetting',
        'includeReceiverMetadataSetting',
        'includeMessageMetadataSetting',
      ],
    ],
    [
      'preferences.push',
      [
        'includeMessageObjectSetting',
        'includeSenderMetadataSetting',
        'includeReceiverMetadataSetting',
        'trimTextFieldSetting',
        'includeMessageMetadataSetting',
        'customJson',
      ],
    ],
    ['templates.interactiveCardTemplatePrivacy', ['titleOneOnOne', 'titleGroup', 'body']],
    ['templates.customMessageTemplateDefault', ['titleOneOnOne', 'titleGroup', 'body', 'body_fallback']],
    [
      'templates.userMentionTemplateDefault',
      ['titleOneOnOne', 'titleGroup', 'bodyOneOnOne', 'bodyGroup', 'body_fallback'],
    ],
    ['templates.groupMentionTemplatePrivacy', ['titleGroup', 'body', 'body_fallback']],
  ])('has every member the service interface names in %s', (path, members) => {
    expect(Object.keys(valueAt(DEFAULT_NOTIFICATION_SETTINGS, path) as object)).toEqual(
      expect.arrayContaining(members),
    );
  });

  it('has every template object the service interface or CometChat names, as Default and Privacy', () => {
    const kinds = [
      'textMessage',
      'mediaMessage',
      'customMessage',
      'pollMessage',
      'reminderMessage',
      'interactiveForm',
      'interactiveCard',
      'interactiveScheduler',
      'interactiveCustom',
      'userMention',
      'groupMention',
      'emailSubject',
      'smsContent',
    ];
    const expected = kinds.flatMap((kind) => [`${kind}TemplateDefault`, `${kind}TemplatePrivacy`]);
    expect(Object.keys(DEFAULT_NOTIFICATION_SETTINGS.templates).sort()).toEqual(
      ['usePrivacyTemplate', ...expected].sort(),
    );
  });

  it.each([
    ['preferences.group.messagesSetting', MessageNotifySetting.NOTIFY_MENTIONS_ONLY],
    ['preferences.group.repliesSetting', MessageNotifySetting.NOTIFY_MENTIONS_ONLY],
    ['preferences.group.quotedRepliesSetting', MessageNotifySetting.NOTIFY_MENTIONS_ONLY],
    ['preferences.oneOnOne.messagesSetting', MessageNotifySetting.NOTIFY_MENTIONS_ONLY],
    ['preferences.oneOnOne.reactionsSetting', ReactionNotifySetting.NOTIFY_ALL_MESSAGES],
    ['templates.usePrivacyTemplate', PrivacyTemplateSetting.DEFAULT_UNLESS_USER_CHOOSES_PRIVACY],
    ['preferences.mute.schedulePreferenceSetting.friday', { from: 2200, to: 730, dnd: true }],
    ['preferences.mute.schedulePreferenceSetting.sunday.to', 2359],
    ['templates.pollMessageTemplateDefault.body_fallback', ''],
  ])('accepts %s = %j', (path, value) => {
    expect(NotificationSettingsPatch.safeParse(bodySetting(path, value)).success).toBe(true);
  });
});

describe('DEFAULT_NOTIFICATION_SETTINGS', () => {
  it('is a complete settings object that parses unchanged', () => {
    expect(NotificationSettings.parse(DEFAULT_NOTIFICATION_SETTINGS)).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it("agrees with CometChat's example on every member the example gives, apart from its sample customJson", () => {
    const example = settingsExample() as { preferences: { push: Record<string, unknown> } };
    delete example.preferences.push.customJson;
    expect(DEFAULT_NOTIFICATION_SETTINGS).toMatchObject(example);
    expect(DEFAULT_NOTIFICATION_SETTINGS.preferences.push.customJson).toEqual({});
  });

  it.each([
    ['preferences.group.messagesSetting', 2],
    ['preferences.group.repliesSetting', 2],
    ['preferences.group.messageEditedSetting', 2],
    ['preferences.group.messageDeletedSetting', 2],
    ['preferences.group.reactionsSetting', 2],
    ['preferences.oneOnOne.messagesSetting', 2],
    ['preferences.oneOnOne.repliesSetting', 2],
    ['preferences.oneOnOne.messageEditedSetting', 2],
    ['preferences.oneOnOne.messageDeletedSetting', 2],
    ['preferences.oneOnOne.reactionsSetting', 2],
    ['preferences.group.memberLeftSetting', 1],
    ['preferences.group.memberScopeChangedSetting', 1],
    ['preferences.call.initiatedSetting', 1],
    ['preferences.call.busySetting', 1],
    ['preferences.call.initiatedOverride', false],
    ['preferences.call.endedOverride', false],
    ['preferences.mute.dndPreferenceSetting', 1],
    ['preferences.mute.schedulePreferenceSetting.wednesday', { from: 0, to: 2359, dnd: false }],
    ['preferences.email.notifyForUnreadOnly', true],
    ['preferences.email.intervalInSeconds', 7200],
    ['preferences.email.maxPerDay', 20],
    ['preferences.email.maxPerDayPerConversation', 2],
    ['preferences.email.includeMessageObjectSetting', false],
    ['preferences.email.includeSenderMetadataSetting', true],
    ['preferences.email.includeReceiverMetadataSetting', true],
    ['preferences.email.includeMessageMetadataSetting', true],
    ['preferences.sms.intervalInSeconds', 7200],
    ['preferences.sms.includeMessageObjectSetting', false],
    ['preferences.sms.includeMessageMetadataSetting', true],
    ['preferences.push.includeMessageObjectSetting', false],
    ['preferences.push.trimTextFieldSetting', false],
    ['preferences.push.includeSenderMetadataSetting', true],
    ['preferences.push.includeReceiverMetadataSetting', true],
    ['preferences.push.includeMessageMetadataSetting', true],
    ['sound.chat', 'default'],
    ['sound.call', 'default'],
    ['templates.textMessageTemplateDefault.titleOneOnOne', '{{message.data.entities.sender.entity.name}}'],
    [
      'templates.textMessageTemplateDefault.titleGroup',
      '{{message.data.entities.sender.entity.name}} @ {{message.data.entities.receiver.entity.name}}',
    ],
    ['templates.textMessageTemplateDefault.body', '{{message.data.text}}'],
    ['templates.textMessageTemplatePrivacy.body', 'New message'],
    ['templates.interactiveFormTemplateDefault.body', '{{message.data.interactiveData.title}}'],
    ['templates.interactiveCardTemplateDefault.body', '{{message.data.interactiveData.text}}'],
    ['templates.emailSubjectTemplateDefault.subjectGroup', 'New messages in {{groupDetails.name}}'],
    ['templates.emailSubjectTemplateDefault.subjectOneOnOne', 'New messages from {{senderDetails.name}}'],
  ])('has %s = %j, as the references list', (path, value) => {
    expect(valueAt(DEFAULT_NOTIFICATION_SETTINGS, path)).toEqual(value);
  });

  it('shares no object between two members, so a copy can be changed one member at a time', () => {
    const copy = structuredClone(DEFAULT_NOTIFICATION_SETTINGS) as NotificationSettings;
    copy.preferences.mute.schedulePreferenceSetting.monday.dnd = true;
    copy.preferences.email.maxPerDay = 5;
    copy.templates.emailSubjectTemplateDefault.subjectGroup = 'Changed';
    expect(copy.preferences.mute.schedulePreferenceSetting.tuesday.dnd).toBe(false);
    expect(copy.preferences.sms.maxPerDay).toBe(20);
    expect(copy.templates.emailSubjectTemplatePrivacy.subjectGroup).toBe(
      'New messages in {{groupDetails.name}}',
    );
  });

  it('is frozen at every depth', () => {
    const monday = DEFAULT_NOTIFICATION_SETTINGS.preferences.mute.schedulePreferenceSetting.monday;
    expect(Object.isFrozen(DEFAULT_NOTIFICATION_SETTINGS)).toBe(true);
    expect(Object.isFrozen(monday)).toBe(true);
    expect(() => {
      (monday as { dnd: boolean }).dnd = true;
    }).toThrow(TypeError);
  });
});

describe('NotificationSettingsPatch', () => {
  it('accepts a patch naming one member deep inside', () => {
    const patch = { preferences: { mute: { schedulePreferenceSetting: { monday: { dnd: true } } } } };
    expect(NotificationSettingsPatch.parse(patch)).toEqual(patch);
  });

  it('accepts the update body A4 describes: edited/deleted settings and call settings without overrides', () => {
    const patch = {
      preferences: {
        group: {
          messageEditedSetting: NotifySetting.DONT_NOTIFY,
          messageDeletedSetting: NotifySetting.NOTIFY,
        },
        call: { initiatedSetting: NotifySetting.NOTIFY, endedSetting: NotifySetting.NOTIFY },
      },
    };
    expect(NotificationSettingsPatch.parse(patch)).toEqual(patch);
  });

  it('accepts a complete settings object', () => {
    expect(NotificationSettingsPatch.parse(DEFAULT_NOTIFICATION_SETTINGS)).toEqual(
      DEFAULT_NOTIFICATION_SETTINGS,
    );
  });

  it('adds no default for members the patch leaves out', () => {
    expect(NotificationSettingsPatch.parse({ templates: { usePrivacyTemplate: 2 } })).toEqual({
      templates: { usePrivacyTemplate: 2 },
    });
  });

  it.each([
    { case: 'an empty body', body: {}, field: 'body' },
    { case: 'a body that is not an object', body: [], field: 'body' },
    { case: 'preferences that are null', body: { preferences: null }, field: 'preferences' },
  ])('rejects a settings patch with $case, naming $field', ({ body, field }) => {
    expect(failure(NotificationSettingsPatch, body).field).toBe(field);
  });

  it.each([
    ['preferences.group.messagesSetting', 4],
    ['preferences.oneOnOne.reactionsSetting', 0],
    ['preferences.group.messagesSetting', '2'],
    ['preferences.call.busySetting', 3],
    ['preferences.group.memberLeftSetting', 3],
    ['preferences.oneOnOne.messageEditedSetting', 3],
    ['preferences.mute.dndPreferenceSetting', 3],
    ['preferences.group.messagesOverride', 'yes'],
    ['preferences.bypassPreferencesForMentions', 0],
    ['preferences.mute.schedulePreferenceSetting.monday.from', 2360],
    ['preferences.mute.schedulePreferenceSetting.tuesday.to', 1299],
    ['preferences.mute.schedulePreferenceSetting.wednesday.from', -1],
    ['preferences.mute.schedulePreferenceSetting.thursday.to', 12.5],
    ['preferences.mute.schedulePreferenceSetting.friday.from', '09:00'],
    ['preferences.mute.schedulePreferenceSetting.saturday.dnd', 'true'],
    ['preferences.email.intervalInSeconds', -5],
    ['preferences.sms.maxPerDay', 2.5],
    ['preferences.push.customJson', []],
    ['preferences.push.customJson', '{"a":1}'],
    ['sound.chat', ''],
    ['sound.call', 42],
    ['templates.usePrivacyTemplate', 4],
    ['templates.usePrivacyTemplate', true],
    ['templates.textMessageTemplateDefault.body', 7],
    ['templates.textMessageTemplateDefault.body', 'Hi {{message.data.text'],
    ['templates.smsContentTemplatePrivacy.bodyGroup', 'done}}'],
    ['templates.emailSubjectTemplateDefault.subjectGroup', 'In {{}}'],
  ])('rejects a settings patch setting %s to %j, naming that member', (field, value) => {
    expect(failure(NotificationSettingsPatch, bodySetting(field, value)).field).toBe(field);
  });

  it('lists the values an integer setting takes, with their meaning', () => {
    const { message } = failure(
      NotificationSettingsPatch,
      bodySetting('preferences.group.repliesSetting', 0),
    );
    expect(message).toBe(
      'preferences.group.repliesSetting: expected one of 1 (DONT_NOTIFY), 2 (NOTIFY_ALL), 3 (NOTIFY_MENTIONS_ONLY)',
    );
  });

  it.each([
    ['body', { preference: {} }, 'preference'],
    ['preferences.group', bodySetting('preferences.group.messagesSettings', 2), 'messagesSettings'],
    [
      'preferences.mute.schedulePreferenceSetting',
      bodySetting('preferences.mute.schedulePreferenceSetting.funday', {}),
      'funday',
    ],
    [
      'templates.mediaMessageTemplateDefault',
      bodySetting('templates.mediaMessageTemplateDefault.body', 'x'),
      'body',
    ],
    ['preferences.oneOnOne', bodySetting('preferences.oneOnOne.memberLeftSetting', 1), 'memberLeftSetting'],
  ])('rejects an unknown member of %s, naming it', (field, body, member) => {
    const problem = failure(NotificationSettingsPatch, body);
    expect(problem.field).toBe(field);
    expect(problem.message).toContain(`"${member}"`);
  });
});

describe('NotificationSettings, complete', () => {
  it('rejects settings missing a member both references name, naming it', () => {
    const settings = structuredClone(DEFAULT_NOTIFICATION_SETTINGS) as NotificationSettings;
    const { busySetting: _busy, ...call } = settings.preferences.call;
    const body = { ...settings, preferences: { ...settings.preferences, call } };
    expect(failure(NotificationSettings, body).field).toBe('preferences.call.busySetting');
  });

  it('rejects an unknown member even where a default would fill in', () => {
    const settings = structuredClone(DEFAULT_NOTIFICATION_SETTINGS) as NotificationSettings;
    const body = { ...settings, templates: { ...settings.templates, videoTemplateDefault: {} } };
    expect(failure(NotificationSettings, body)).toMatchObject({ field: 'templates' });
  });
});

describe('mergeNotificationSettings', () => {
  it('changes the named members and keeps their siblings', () => {
    const merged = mergeNotificationSettings(DEFAULT_NOTIFICATION_SETTINGS, {
      preferences: { group: { messagesSetting: MessageNotifySetting.NOTIFY_MENTIONS_ONLY } },
    });
    expect(merged.preferences.group.messagesSetting).toBe(MessageNotifySetting.NOTIFY_MENTIONS_ONLY);
    expect(merged.preferences.group.repliesSetting).toBe(
      DEFAULT_NOTIFICATION_SETTINGS.preferences.group.repliesSetting,
    );
    expect(merged.preferences.oneOnOne).toEqual(DEFAULT_NOTIFICATION_SETTINGS.preferences.oneOnOne);
    expect(merged.templates).toEqual(DEFAULT_NOTIFICATION_SETTINGS.templates);
  });

  it('merges one member of one day of the schedule', () => {
    const merged = mergeNotificationSettings(DEFAULT_NOTIFICATION_SETTINGS, {
      preferences: { mute: { schedulePreferenceSetting: { monday: { dnd: true, from: 2200 } } } },
    });
    expect(merged.preferences.mute.schedulePreferenceSetting.monday).toEqual({
      from: 2200,
      to: 2359,
      dnd: true,
    });
    expect(merged.preferences.mute.schedulePreferenceSetting.tuesday).toEqual({
      from: 0,
      to: 2359,
      dnd: false,
    });
  });

  it('replaces customJson whole, so a patch can drop keys', () => {
    const current = mergeNotificationSettings(DEFAULT_NOTIFICATION_SETTINGS, {
      preferences: { push: { customJson: { hello: 'world', region: 'eu' } } },
    });
    const merged = mergeNotificationSettings(current, {
      preferences: { push: { customJson: { region: 'us' } } },
    });
    expect(merged.preferences.push.customJson).toEqual({ region: 'us' });
  });

  it('returns settings that still parse', () => {
    const merged = mergeNotificationSettings(DEFAULT_NOTIFICATION_SETTINGS, {
      sound: { chat: 'chime' },
      templates: {
        usePrivacyTemplate: PrivacyTemplateSetting.PRIVACY_TEMPLATES,
        textMessageTemplatePrivacy: { body: 'Psst' },
      },
    });
    expect(NotificationSettings.parse(merged)).toEqual(merged);
  });

  it('leaves the current settings untouched', () => {
    const current = structuredClone(DEFAULT_NOTIFICATION_SETTINGS) as NotificationSettings;
    mergeNotificationSettings(current, {
      preferences: { call: { busySetting: NotifySetting.NOTIFY } },
      sound: { call: 'ring' },
    });
    expect(current).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it('returns an object that shares nothing with its arguments', () => {
    const patch = { preferences: { push: { customJson: { tags: ['a'] } } } };
    const merged = mergeNotificationSettings(DEFAULT_NOTIFICATION_SETTINGS, patch);
    merged.preferences.group.messagesSetting = MessageNotifySetting.DONT_NOTIFY;
    patch.preferences.push.customJson.tags.push('b');
    expect(DEFAULT_NOTIFICATION_SETTINGS.preferences.group.messagesSetting).toBe(
      MessageNotifySetting.NOTIFY_ALL,
    );
    expect(merged.preferences.push.customJson).toEqual({ tags: ['a'] });
    expect(Object.isFrozen(merged.preferences.mute.schedulePreferenceSetting.monday)).toBe(false);
  });
});

describe('UserNotificationPreferences', () => {
  it("parses CometChat's reset example, which equals the defaults", () => {
    const example = preferencesResetExample();
    expect(UserNotificationPreferences.parse(example)).toEqual(example);
    expect(DEFAULT_USER_NOTIFICATION_PREFERENCES).toEqual(example);
  });

  it('has defaults that are frozen at every depth', () => {
    expect(Object.isFrozen(DEFAULT_USER_NOTIFICATION_PREFERENCES.mutePreferences.schedule.sunday)).toBe(true);
  });

  it.each(WEEKDAYS)('has a do-not-disturb schedule for %s', (day) => {
    expect(valueAt(DEFAULT_USER_NOTIFICATION_PREFERENCES, `mutePreferences.schedule.${day}`)).toEqual({
      from: 0,
      to: 2359,
      dnd: false,
    });
  });

  it('merges a patch into the current preferences without touching them', () => {
    const patch = UserNotificationPreferencesPatch.parse({
      groupPreferences: { groupMessages: MessageNotifySetting.NOTIFY_MENTIONS_ONLY },
      mutePreferences: { dnd: DndSetting.ENABLED, schedule: { sunday: { dnd: true } } },
      usePrivacyTemplate: false,
    });
    const merged = mergeUserNotificationPreferences(DEFAULT_USER_NOTIFICATION_PREFERENCES, patch);
    expect(merged.groupPreferences.groupMessages).toBe(MessageNotifySetting.NOTIFY_MENTIONS_ONLY);
    expect(merged.groupPreferences.groupReplies).toBe(MessageNotifySetting.NOTIFY_ALL);
    expect(merged.mutePreferences).toEqual({
      dnd: DndSetting.ENABLED,
      schedule: {
        ...DEFAULT_USER_NOTIFICATION_PREFERENCES.mutePreferences.schedule,
        sunday: { from: 0, to: 2359, dnd: true },
      },
    });
    expect(merged.usePrivacyTemplate).toBe(false);
    expect(DEFAULT_USER_NOTIFICATION_PREFERENCES.mutePreferences.dnd).toBe(DndSetting.DISABLED);
  });

  it.each([
    { case: 'an empty body', body: {}, field: 'body' },
    { case: 'an unknown preference group', body: { callPreferences: {} }, field: 'body' },
    {
      case: 'an app-settings member name',
      body: bodySetting('groupPreferences.messagesSetting', 2),
      field: 'groupPreferences',
    },
  ])('rejects a preferences patch with $case, naming $field', ({ body, field }) => {
    expect(failure(UserNotificationPreferencesPatch, body).field).toBe(field);
  });

  it.each([
    ['groupPreferences.groupMemberLeft', 3],
    ['oneOnOnePreferences.oneOnOneMessages', 0],
    ['mutePreferences.dnd', 3],
    ['mutePreferences.dnd', true],
    ['mutePreferences.schedule.monday.to', 2400],
    ['usePrivacyTemplate', 1],
  ])('rejects a preferences patch setting %s to %j, naming that member', (field, value) => {
    expect(failure(UserNotificationPreferencesPatch, bodySetting(field, value)).field).toBe(field);
  });
});
