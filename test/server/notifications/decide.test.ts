import { describe, expect, it } from 'vitest';
import { decide, preferenceFor } from '../../../server/notifications/decide.js';
import { SuppressReason } from '../../../server/notifications/reasons.js';
import {
  CALL_TOPICS,
  eventOfDelete,
  eventOfEdit,
  eventOfMessage,
  eventOfReaction,
  type NotificationEvent,
} from '../../../server/notifications/triggers.js';
import { message, mondayUtc, preferencesWith, recipient, settingsWith, user } from './fixtures.js';

const NOW = mondayUtc('12:00');
const APP = 'app-one';

type Kind = 'group' | 'oneOnOne';
const KINDS: Kind[] = ['group', 'oneOnOne'];
const sectionOf = (kind: Kind) => (kind === 'group' ? 'group' : 'oneOnOne');

/** The event of a new message, reply or quoted reply from alice, mentioning as asked. */
function messageEvent(
  kind: Kind,
  topic: 'messages' | 'replies' | 'quotedReplies',
  mention: 'none' | 'bob' | 'all' = 'none',
): NotificationEvent {
  const text = mention === 'bob' ? 'look <@uid:bob>' : mention === 'all' ? 'look <@all:all>' : 'look';
  const extra =
    topic === 'replies' ? { parentId: '7' } : topic === 'quotedReplies' ? { quotedMessageId: '7' } : {};
  const event = eventOfMessage(APP, message({ group: kind === 'group', data: { text }, extra }));
  if (event === undefined) throw new Error('expected an event');
  return event;
}

function verdictFor(event: NotificationEvent, settingsPatch: unknown, uid = 'bob', extra = {}) {
  return decide(settingsWith(settingsPatch), event, recipient(uid, extra), NOW);
}

const MESSAGE_TOPICS = [
  ['messages', SuppressReason.MESSAGES_PREFERENCE],
  ['replies', SuppressReason.REPLIES_PREFERENCE],
  ['quotedReplies', SuppressReason.QUOTED_REPLIES_PREFERENCE],
] as const;

describe('message, reply and quoted reply preferences (1 none, 2 all, 3 mentions only)', () => {
  const cases = KINDS.flatMap((kind) =>
    MESSAGE_TOPICS.flatMap(([topic, reason]) =>
      (['none', 'bob', 'all'] as const)
        .filter((mention) => mention !== 'all' || kind === 'group')
        .flatMap((mention) =>
          [1, 2, 3].map((value) => ({
            kind,
            topic,
            reason,
            mention,
            value,
            notified: value === 2 || (value === 3 && mention !== 'none'),
          })),
        ),
    ),
  );

  it.each(cases)(
    '$kind $topic set to $value, mention $mention: notified $notified',
    ({ kind, topic, reason, mention, value, notified }) => {
      const verdict = verdictFor(messageEvent(kind, topic, mention), {
        preferences: { [sectionOf(kind)]: { [`${topic}Setting`]: value } },
      });
      expect(verdict).toEqual(notified ? { notify: true } : { notify: false, reason });
    },
  );
});

describe('reaction preferences (1 none, 2 own messages, 3 all messages)', () => {
  const cases = KINDS.flatMap((kind) =>
    [true, false].flatMap((ownMessage) =>
      [1, 2, 3].map((value) => ({
        kind,
        ownMessage,
        value,
        notified: value === 3 || (value === 2 && ownMessage),
      })),
    ),
  );

  it.each(cases)('$kind reactions set to $value, own message $ownMessage: notified $notified', (c) => {
    const reacted = message({ group: c.kind === 'group', sender: c.ownMessage ? 'bob' : 'carol' });
    const event = eventOfReaction(APP, reacted, { reaction: '😂', by: user('dave') });
    const verdict = verdictFor(event, {
      preferences: { [sectionOf(c.kind)]: { reactionsSetting: c.value } },
    });
    expect(verdict).toEqual(
      c.notified ? { notify: true } : { notify: false, reason: SuppressReason.REACTIONS_PREFERENCE },
    );
  });
});

describe('edit and delete preferences (1 none, 2 notify; not overridable)', () => {
  const cases = KINDS.flatMap((kind) =>
    (['messageEdited', 'messageDeleted'] as const).flatMap((topic) =>
      [1, 2].map((value) => ({ kind, topic, value, notified: value === 2 })),
    ),
  );

  it.each(cases)('$kind $topic set to $value: notified $notified', ({ kind, topic, value, notified }) => {
    const changed = message({ group: kind === 'group' });
    const event = topic === 'messageEdited' ? eventOfEdit(APP, changed) : eventOfDelete(APP, changed);
    const verdict = verdictFor(
      event,
      { preferences: { [sectionOf(kind)]: { [`${topic}Setting`]: value } } },
      'bob',
      // A user's own preferences cannot turn these on or off.
      { preferences: preferencesWith({ groupPreferences: { groupMessages: 1 } }) },
    );
    expect(verdict).toEqual(
      notified ? { notify: true } : { notify: false, reason: SuppressReason.MESSAGE_ACTIONS_PREFERENCE },
    );
  });
});

const MEMBER_ACTIONS = [
  ['added', 'memberAdded'],
  ['joined', 'memberJoined'],
  ['left', 'memberLeft'],
  ['kicked', 'memberKicked'],
  ['banned', 'memberBanned'],
  ['unbanned', 'memberUnbanned'],
  ['scopeChanged', 'memberScopeChanged'],
] as const;

function memberEvent(action: string): NotificationEvent {
  const event = eventOfMessage(
    APP,
    message({ group: true, category: 'action', type: 'groupMember', data: { action, text: undefined } }),
  );
  if (event === undefined) throw new Error('expected an event');
  return event;
}

describe('group member event preferences (1 none, 2 notify)', () => {
  const cases = MEMBER_ACTIONS.flatMap(([action, topic]) =>
    [1, 2].map((value) => ({ action, topic, value, notified: value === 2 })),
  );

  it.each(cases)('$action set to $value: notified $notified', ({ action, topic, value, notified }) => {
    const verdict = verdictFor(memberEvent(action), {
      preferences: { group: { [`${topic}Setting`]: value } },
    });
    expect(verdict).toEqual(
      notified ? { notify: true } : { notify: false, reason: SuppressReason.GROUP_ACTIONS_PREFERENCE },
    );
  });
});

describe('call preferences (1 none, 2 notify)', () => {
  const cases = CALL_TOPICS.flatMap((action) =>
    [1, 2].map((value) => ({ action, value, notified: value === 2 })),
  );

  it.each(cases)('$action set to $value: notified $notified', ({ action, value, notified }) => {
    const event = eventOfMessage(APP, message({ category: 'call', type: 'audio', data: { action } }));
    if (event === undefined) throw new Error('expected an event');
    const verdict = verdictFor(event, { preferences: { call: { [`${action}Setting`]: value } } });
    expect(verdict).toEqual(
      notified ? { notify: true } : { notify: false, reason: SuppressReason.CALL_PREFERENCE },
    );
  });
});

describe('user preferences where the app lets users override', () => {
  const OVERRIDABLE = [
    ['group', 'messages', 'groupPreferences', 'groupMessages'],
    ['group', 'replies', 'groupPreferences', 'groupReplies'],
    ['group', 'quotedReplies', 'groupPreferences', 'groupQuotedReplies'],
    ['group', 'reactions', 'groupPreferences', 'groupReactions'],
    ['group', 'memberAdded', 'groupPreferences', 'groupMemberAdded'],
    ['group', 'memberJoined', 'groupPreferences', 'groupMemberJoined'],
    ['group', 'memberLeft', 'groupPreferences', 'groupMemberLeft'],
    ['group', 'memberKicked', 'groupPreferences', 'groupMemberKicked'],
    ['group', 'memberBanned', 'groupPreferences', 'groupMemberBanned'],
    ['group', 'memberUnbanned', 'groupPreferences', 'groupMemberUnbanned'],
    ['group', 'memberScopeChanged', 'groupPreferences', 'groupMemberScopeChanged'],
    ['oneOnOne', 'messages', 'oneOnOnePreferences', 'oneOnOneMessages'],
    ['oneOnOne', 'replies', 'oneOnOnePreferences', 'oneOnOneReplies'],
    ['oneOnOne', 'quotedReplies', 'oneOnOnePreferences', 'oneOnOneQuotedReplies'],
    ['oneOnOne', 'reactions', 'oneOnOnePreferences', 'oneOnOneReactions'],
  ] as const;

  function eventFor(kind: Kind, topic: string): NotificationEvent {
    if (topic === 'messages' || topic === 'replies' || topic === 'quotedReplies')
      return messageEvent(kind, topic);
    if (topic === 'reactions')
      return eventOfReaction(APP, message({ group: kind === 'group', sender: 'bob' }), {
        reaction: '👍',
        by: user('dave'),
      });
    const action = MEMBER_ACTIONS.find(([, name]) => name === topic)?.[0] ?? '';
    return memberEvent(action);
  }

  const cases = OVERRIDABLE.flatMap(([kind, topic, section, key]) => [
    { kind, topic, section, key, override: true, app: 2, user: 1, notified: false },
    { kind, topic, section, key, override: true, app: 1, user: 2, notified: true },
    { kind, topic, section, key, override: false, app: 2, user: 1, notified: true },
    { kind, topic, section, key, override: false, app: 1, user: 2, notified: false },
  ]);

  it.each(cases)(
    '$kind $topic: app $app, user $user, override $override: notified $notified',
    ({ kind, topic, section, key, override, app, user: userValue, notified }) => {
      const settings = settingsWith({
        preferences: { [sectionOf(kind)]: { [`${topic}Setting`]: app, [`${topic}Override`]: override } },
      });
      const who = recipient('bob', { preferences: preferencesWith({ [section]: { [key]: userValue } }) });
      expect(decide(settings, eventFor(kind, topic), who, NOW).notify).toBe(notified);
    },
  );

  it('applies the app setting to a user who never saved preferences', () => {
    const settings = settingsWith({ preferences: { group: { messagesSetting: 1, messagesOverride: true } } });
    expect(preferenceFor(settings, messageEvent('group', 'messages'), recipient('bob'))).toBe(1);
  });

  it('ignores call override flags: users have no call preferences', () => {
    const settings = settingsWith({
      preferences: { call: { initiatedSetting: 2, initiatedOverride: true } },
    });
    const event = eventOfMessage(
      APP,
      message({ category: 'call', type: 'video', data: { action: 'initiated' } }),
    );
    if (event === undefined) throw new Error('expected an event');
    const who = recipient('bob', {
      preferences: preferencesWith({ groupPreferences: { groupMessages: 1 } }),
    });
    expect(decide(settings, event, who, NOW)).toEqual({ notify: true });
  });
});

describe('do not disturb', () => {
  const cases = [
    { app: 2, override: true, userDnd: undefined, dnd: true },
    { app: 2, override: false, userDnd: 1, dnd: true },
    { app: 2, override: true, userDnd: 1, dnd: false },
    { app: 1, override: true, userDnd: 2, dnd: true },
    { app: 1, override: false, userDnd: 2, dnd: false },
    { app: 1, override: true, userDnd: undefined, dnd: false },
  ];

  it.each(cases)('app $app, override $override, user $userDnd: do not disturb $dnd', (c) => {
    const settings = settingsWith({
      preferences: { mute: { dndPreferenceSetting: c.app, dndPreferenceOverride: c.override } },
    });
    const preferences =
      c.userDnd === undefined ? undefined : preferencesWith({ mutePreferences: { dnd: c.userDnd } });
    const verdict = decide(
      settings,
      messageEvent('group', 'messages'),
      recipient('bob', { preferences }),
      NOW,
    );
    expect(verdict).toEqual(
      c.dnd ? { notify: false, reason: SuppressReason.DND_PREFERENCE } : { notify: true },
    );
  });
});

describe('weekly schedule', () => {
  const evenings = { monday: { from: 1100, to: 1300, dnd: true } };

  const heldTillOne = { notify: true, heldUntil: mondayUtc('13:01') };

  it('holds a notification inside the app schedule until the span ends', () => {
    const verdict = verdictFor(messageEvent('group', 'messages'), {
      preferences: { mute: { schedulePreferenceSetting: evenings } },
    });
    expect(verdict).toEqual(heldTillOne);
  });

  it("reads the user's own schedule when the app lets them override it", () => {
    const preferences = preferencesWith({ mutePreferences: { schedule: evenings } });
    expect(verdictFor(messageEvent('group', 'messages'), undefined, 'bob', { preferences })).toEqual(
      heldTillOne,
    );
  });

  it('suppresses rather than holds a notification for a muted conversation inside the schedule', () => {
    const patch = { preferences: { mute: { schedulePreferenceSetting: evenings } } };
    expect(verdictFor(messageEvent('group', 'messages'), patch, 'bob', { mutedConversation: true })).toEqual({
      notify: false,
      reason: SuppressReason.MUTE_PREFERENCE,
    });
  });

  it('suppresses a notification when the schedule covers the whole week: it would never go out', () => {
    const always = { from: 0, to: 2359, dnd: true };
    const week = Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
        day,
        always,
      ]),
    );
    expect(
      verdictFor(messageEvent('group', 'messages'), {
        preferences: { mute: { schedulePreferenceSetting: week } },
      }),
    ).toEqual({ notify: false, reason: SuppressReason.SCHEDULE_PREFERENCE });
  });

  it("ignores the user's schedule when the app does not let them override it", () => {
    const preferences = preferencesWith({ mutePreferences: { schedule: evenings } });
    const patch = { preferences: { mute: { schedulePreferenceOverride: false } } };
    expect(verdictFor(messageEvent('group', 'messages'), patch, 'bob', { preferences })).toEqual({
      notify: true,
    });
  });

  it("reads the schedule in the user's time zone", () => {
    // 12:00 UTC is 21:00 in Tokyo, outside 11:00-13:00.
    const patch = { preferences: { mute: { schedulePreferenceSetting: evenings } } };
    expect(verdictFor(messageEvent('group', 'messages'), patch, 'bob', { timeZone: 'Asia/Tokyo' })).toEqual({
      notify: true,
    });
  });
});

describe('muted conversations', () => {
  const cases = [
    { kind: 'group' as Kind, honoured: true, notified: false },
    { kind: 'group' as Kind, honoured: false, notified: true },
    { kind: 'oneOnOne' as Kind, honoured: true, notified: false },
    { kind: 'oneOnOne' as Kind, honoured: false, notified: true },
  ];

  it.each(cases)(
    '$kind muted, mutes allowed $honoured: notified $notified',
    ({ kind, honoured, notified }) => {
      const flag = kind === 'group' ? 'mutedGroupsOverride' : 'mutedOneOnOnesOverride';
      const verdict = verdictFor(
        messageEvent(kind, 'messages'),
        { preferences: { mute: { [flag]: honoured } } },
        'bob',
        {
          mutedConversation: true,
        },
      );
      expect(verdict).toEqual(
        notified ? { notify: true } : { notify: false, reason: SuppressReason.MUTE_PREFERENCE },
      );
    },
  );
});

describe('bypassPreferencesForMentions', () => {
  const off = { preferences: { group: { messagesSetting: 1 }, bypassPreferencesForMentions: true } };

  it('notifies a mentioned user whose preference says not to', () => {
    expect(verdictFor(messageEvent('group', 'messages', 'bob'), off)).toEqual({ notify: true });
  });

  it("notifies a mentioned user who overrode the app with 'don't notify'", () => {
    const preferences = preferencesWith({ groupPreferences: { groupMessages: 1 } });
    const patch = { preferences: { bypassPreferencesForMentions: true } };
    expect(verdictFor(messageEvent('group', 'messages', 'bob'), patch, 'bob', { preferences })).toEqual({
      notify: true,
    });
  });

  it('notifies a mentioned user who muted the conversation', () => {
    expect(
      verdictFor(messageEvent('group', 'messages', 'bob'), off, 'bob', { mutedConversation: true }),
    ).toEqual({
      notify: true,
    });
  });

  it('still holds do not disturb for a mentioned user', () => {
    const patch = {
      preferences: { ...off.preferences, mute: { dndPreferenceSetting: 2, dndPreferenceOverride: false } },
    };
    expect(verdictFor(messageEvent('group', 'messages', 'bob'), patch)).toEqual({
      notify: false,
      reason: SuppressReason.DND_PREFERENCE,
    });
  });

  it('does not lift preferences for users who were not mentioned', () => {
    expect(verdictFor(messageEvent('group', 'messages', 'bob'), off, 'carol')).toEqual({
      notify: false,
      reason: SuppressReason.MESSAGES_PREFERENCE,
    });
  });

  it('does not count @all as a mention that lifts preferences', () => {
    expect(verdictFor(messageEvent('group', 'messages', 'all'), off)).toEqual({
      notify: false,
      reason: SuppressReason.MESSAGES_PREFERENCE,
    });
  });

  it('leaves preferences in force when the setting is off', () => {
    const patch = { preferences: { group: { messagesSetting: 1 }, bypassPreferencesForMentions: false } };
    expect(verdictFor(messageEvent('group', 'messages', 'bob'), patch)).toEqual({
      notify: false,
      reason: SuppressReason.MESSAGES_PREFERENCE,
    });
  });
});
