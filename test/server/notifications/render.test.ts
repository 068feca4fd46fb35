import { describe, expect, it } from 'vitest';
import {
  messageForTemplates,
  renderDigestText,
  renderMessageLine,
  renderNotificationText,
  usesPrivacyTemplates,
} from '../../../server/notifications/render.js';
import {
  eventOfDelete,
  eventOfEdit,
  eventOfMessage,
  eventOfReaction,
  type NotificationEvent,
} from '../../../server/notifications/triggers.js';
import type { Message } from '../../../shared/message.js';
import { message, preferencesWith, settingsWith, user, type MessageShape } from './fixtures.js';

const APP = 'app-one';
const NO_NAMES = new Map<string, string>();

function eventOf(shape: MessageShape): NotificationEvent {
  const event = eventOfMessage(APP, message(shape));
  if (event === undefined) throw new Error('expected an event');
  return event;
}

function textFor(
  event: NotificationEvent,
  settingsPatch?: unknown,
  privacy = false,
  uid = 'bob',
  names = NO_NAMES,
) {
  const shown = messageForTemplates(event.message, names, event.reaction?.by);
  return renderNotificationText(settingsWith(settingsPatch), privacy, event, shown, uid);
}

describe('choosing Default or Privacy templates (usePrivacyTemplate)', () => {
  const cases = [
    { setting: 1, user: undefined, privacy: false },
    { setting: 1, user: true, privacy: false },
    { setting: 2, user: undefined, privacy: true },
    { setting: 2, user: false, privacy: true },
    { setting: 3, user: undefined, privacy: false },
    { setting: 3, user: false, privacy: false },
    { setting: 3, user: true, privacy: true },
  ];

  it.each(cases)('app $setting, user chose $user: privacy $privacy', ({ setting, user: choice, privacy }) => {
    const settings = settingsWith({ templates: { usePrivacyTemplate: setting } });
    const preferences = choice === undefined ? undefined : preferencesWith({ usePrivacyTemplate: choice });
    expect(usesPrivacyTemplates(settings, preferences)).toBe(privacy);
  });
});

describe('every expression variable', () => {
  const EVERY_VARIABLE = [
    's={{message.data.entities.sender.entity.name}}',
    'r={{message.data.entities.receiver.entity.name}}',
    't={{message.data.text}}',
    'it={{message.data.interactiveData.title}}',
    'ix={{message.data.interactiveData.text}}',
    'ty={{message.type}}',
    'g={{groupDetails.name}}',
    'sd={{senderDetails.name}}',
    'sn={{sender.name}}',
    'n={{messages.length}}',
  ].join(' ');
  const form = eventOf({
    group: true,
    category: 'interactive',
    type: 'form',
    data: { text: 'Fill me', interactiveData: { title: 'Survey', text: 'Tell us' } },
  });
  const expected =
    's=Name of alice r=Hiking Group t=Fill me it=Survey ix=Tell us ty=form g=Hiking Group sd=Name of alice sn=Name of alice n=1';

  it('renders each in a Default template', () => {
    const patch = {
      templates: { interactiveFormTemplateDefault: { titleGroup: 'x', body: EVERY_VARIABLE } },
    };
    expect(textFor(form, patch).body).toBe(expected);
  });

  it('renders each in a Privacy template', () => {
    const patch = {
      templates: { interactiveFormTemplatePrivacy: { titleGroup: EVERY_VARIABLE, body: 'x' } },
    };
    expect(textFor(form, patch, true).title).toBe(expected);
  });

  it('renders each in email subjects and SMS texts, with the batch size', () => {
    const batch = [
      message({ group: true, id: '1' }),
      message({ group: true, id: '2', data: { text: 'Second' } }),
    ];
    const patch = {
      templates: {
        emailSubjectTemplateDefault: { subjectGroup: EVERY_VARIABLE },
        smsContentTemplatePrivacy: { bodyGroup: EVERY_VARIABLE },
      },
    };
    const line =
      's=Name of alice r=Hiking Group t=Second it= ix= ty=text g=Hiking Group sd=Name of alice sn=Name of alice n=2';
    expect(renderDigestText(settingsWith(patch), false, 'email', batch)).toBe(line);
    expect(renderDigestText(settingsWith(patch), true, 'sms', batch)).toBe(line);
  });
});

describe('default templates, Default against Privacy', () => {
  const cases: Array<{
    name: string;
    shape: MessageShape;
    title: string;
    body: string;
    privateBody: string;
  }> = [
    {
      name: 'one-on-one text',
      shape: {},
      title: 'Name of alice',
      body: 'Hello there',
      privateBody: 'New message',
    },
    {
      name: 'group text',
      shape: { group: true },
      title: 'Name of alice @ Hiking Group',
      body: 'Hello there',
      privateBody: 'New message',
    },
    {
      name: 'image',
      shape: { type: 'image', data: { text: undefined } },
      title: 'Name of alice',
      body: '📷 Has sent an image',
      privateBody: 'New image message',
    },
    {
      name: 'audio',
      shape: { type: 'audio' },
      title: 'Name of alice',
      body: '🔈 Has sent an audio',
      privateBody: 'New audio message',
    },
    {
      name: 'video',
      shape: { type: 'video' },
      title: 'Name of alice',
      body: '🎥 Has sent a video',
      privateBody: 'New video message',
    },
    {
      name: 'file',
      shape: { type: 'file' },
      title: 'Name of alice',
      body: '📄 Has sent a file',
      privateBody: 'New file message',
    },
    {
      name: 'custom message without text (body_fallback)',
      shape: { category: 'custom', type: 'location', data: { text: undefined, customData: { lat: 1 } } },
      title: 'Name of alice',
      body: 'New message',
      privateBody: 'New message',
    },
    {
      name: 'interactive form',
      shape: { category: 'interactive', type: 'form', data: { interactiveData: { title: 'Survey' } } },
      title: 'Name of alice',
      body: 'Survey',
      privateBody: 'New form message',
    },
    {
      name: 'interactive card',
      shape: { category: 'interactive', type: 'card', data: { interactiveData: { text: 'Card text' } } },
      title: 'Name of alice',
      body: 'Card text',
      privateBody: 'New card message',
    },
    {
      name: 'interactive scheduler',
      shape: { category: 'interactive', type: 'scheduler', data: { interactiveData: { title: 'Book' } } },
      title: 'Name of alice',
      body: 'Book',
      privateBody: 'New scheduler message',
    },
    {
      name: 'custom interactive',
      shape: { category: 'interactive', type: 'customInteractive' },
      title: 'Name of alice',
      body: 'New message',
      privateBody: 'New message',
    },
  ];

  it.each(cases)('$name', ({ shape, title, body, privateBody }) => {
    const event = eventOf(shape);
    expect(textFor(event)).toEqual({ title, body });
    expect(textFor(event, undefined, true)).toEqual({ title, body: privateBody });
  });

  it('uses the poll and reminder templates for their custom types', () => {
    const patch = {
      templates: {
        pollMessageTemplateDefault: { body: 'Poll: {{message.data.text}}' },
        reminderMessageTemplateDefault: { body: 'Reminder: {{message.data.text}}' },
      },
    };
    expect(textFor(eventOf({ category: 'custom', type: 'extension_poll' }), patch).body).toBe(
      'Poll: Hello there',
    );
    expect(textFor(eventOf({ category: 'custom', type: 'extension_reminders' }), patch).body).toBe(
      'Reminder: Hello there',
    );
  });
});

describe('mentions', () => {
  const names = new Map([['bob', 'Bob Ross']]);

  it('uses the user mention template for the user mentioned, writing mentions as @Name', () => {
    const event = eventOf({ group: true, data: { text: 'hey <@uid:bob>' } });
    expect(textFor(event, undefined, false, 'bob', names)).toEqual({
      title: 'Name of alice @ Hiking Group',
      body: 'Name of alice mentioned you in Hiking Group: hey @Bob Ross',
    });
    expect(textFor(event, undefined, true, 'bob', names).body).toBe(
      'Name of alice mentioned you in Hiking Group',
    );
  });

  it('uses the plain template for other recipients of the same message', () => {
    const event = eventOf({ group: true, data: { text: 'hey <@uid:bob>' } });
    expect(textFor(event, undefined, false, 'carol', names).body).toBe('hey @Bob Ross');
  });

  it('uses the one-on-one mention body in a one-on-one', () => {
    const event = eventOf({ data: { text: 'hey <@uid:bob>' } });
    expect(textFor(event, undefined, false, 'bob', names).body).toBe(
      'Name of alice mentioned you: hey @Bob Ross',
    );
  });

  it('uses the group mention template for @all', () => {
    const event = eventOf({ group: true, data: { text: 'lunch <@all:all>' } });
    expect(textFor(event).body).toBe('Name of alice mentioned everyone: lunch @all');
    expect(textFor(event, undefined, true).body).toBe('Name of alice mentioned everyone');
  });

  it('falls back to body_fallback when a mention body renders empty', () => {
    const patch = { templates: { userMentionTemplateDefault: { bodyGroup: '{{message.data.nothing}}' } } };
    const event = eventOf({ group: true, data: { text: 'hey <@uid:bob>' } });
    expect(textFor(event, patch).body).toBe('New mention');
  });
});

describe('events without templates of their own', () => {
  it('describes an edit with the sender as title', () => {
    expect(textFor(eventOfEdit(APP, message()))).toEqual({
      title: 'Name of alice',
      body: 'Edited a message',
    });
  });

  it('describes a deletion', () => {
    expect(textFor(eventOfDelete(APP, message({ group: true })))).toEqual({
      title: 'Name of alice @ Hiking Group',
      body: 'Deleted a message',
    });
  });

  it('names the reactor as title and says whose message', () => {
    const event = eventOfReaction(APP, message({ sender: 'bob' }), { reaction: '😂', by: user('carol') });
    expect(textFor(event, undefined, false, 'bob')).toEqual({
      title: 'Name of carol',
      body: 'Reacted to your message: 😂',
    });
    expect(textFor(event, undefined, false, 'dave').body).toBe('Reacted to a message: 😂');
  });

  function actionMessage(action: string): Message {
    return message({
      group: true,
      category: 'action',
      type: 'groupMember',
      data: { action, text: undefined },
    });
  }

  it.each([
    ['added', 'Name of alice added Name of erin'],
    ['kicked', 'Name of alice kicked Name of erin'],
    ['banned', 'Name of alice banned Name of erin'],
    ['unbanned', 'Name of alice unbanned Name of erin'],
    ['scopeChanged', 'Name of alice changed the scope of Name of erin'],
    ['joined', 'Name of alice joined'],
    ['left', 'Name of alice left'],
  ])('describes a member %s', (action, body) => {
    const base = actionMessage(action);
    const withEntities: Message = {
      ...base,
      data: {
        ...base.data,
        entities: {
          by: { entityType: 'user', entity: user('alice') },
          on: { entityType: 'user', entity: user('erin') },
          for: { entityType: 'group', entity: { guid: 'hikers', name: 'Hiking Group', type: 'public' } },
        },
      },
    };
    const event = eventOfMessage(APP, withEntities);
    if (event === undefined) throw new Error('expected an event');
    expect(textFor(event)).toEqual({ title: 'Name of alice @ Hiking Group', body });
  });

  it.each([
    ['initiated', 'audio', 'Incoming audio call'],
    ['unanswered', 'video', 'Missed video call'],
    ['cancelled', 'audio', 'Cancelled audio call'],
  ])('describes a call %s', (action, type, body) => {
    const event = eventOfMessage(APP, message({ category: 'call', type, data: { action } }));
    if (event === undefined) throw new Error('expected an event');
    expect(textFor(event).body).toBe(body);
  });
});

describe('batch lines', () => {
  it('renders each message of an email or SMS batch with its message template', () => {
    const settings = settingsWith();
    expect(renderMessageLine(settings, false, message({ type: 'image' }))).toBe('📷 Has sent an image');
    expect(renderMessageLine(settings, true, message())).toBe('New message');
  });

  it('fills the default SMS text for a one-on-one batch', () => {
    const batch = [message({ id: '1' }), message({ id: '2' }), message({ id: '3' })];
    expect(renderDigestText(settingsWith(), false, 'sms', batch)).toBe(
      "You've received 3 message(s) from Name of alice! Read them at https://your-website.com.",
    );
    expect(renderDigestText(settingsWith(), false, 'email', batch)).toBe('New messages from Name of alice');
  });
});
