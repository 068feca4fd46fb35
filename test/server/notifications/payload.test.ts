import { describe, expect, it } from 'vitest';
import { PUSH_PAYLOAD_LIMIT_BYTES, pushDetails } from '../../../server/notifications/payload.js';
import { messageForTemplates, renderNotificationText } from '../../../server/notifications/render.js';
import { eventOfMessage, type NotificationEvent } from '../../../server/notifications/triggers.js';
import { message, settingsWith, type MessageShape } from './fixtures.js';

const APP = 'app-one';

function eventOf(shape: MessageShape = {}): NotificationEvent {
  const event = eventOfMessage(APP, message({ data: { metadata: { draft: true } }, ...shape }));
  if (event === undefined) throw new Error('expected an event');
  return event;
}

function detailsFor(push: Record<string, unknown>, event = eventOf(), extra: Record<string, unknown> = {}) {
  const settings = settingsWith({ preferences: { push }, ...extra });
  const shown = messageForTemplates(event.message, new Map());
  return pushDetails(settings, event, shown, renderNotificationText(settings, false, event, shown, 'bob'));
}

const EVERYTHING = {
  includeMessageObjectSetting: true,
  includeSenderMetadataSetting: true,
  includeReceiverMetadataSetting: true,
  includeMessageMetadataSetting: true,
};

describe('push payload', () => {
  it("carries title, body, sender, receiver, conversation and the app's chat sound", () => {
    const details = detailsFor({}, eventOf(), { sound: { chat: 'ping.caf', call: 'ring.caf' } });
    expect(details).toEqual({
      title: 'Name of alice',
      body: 'Hello there',
      tag: '42',
      sender: 'alice',
      senderName: 'Name of alice',
      receiver: 'bob',
      receiverName: 'Name of bob',
      receiverType: 'user',
      conversationId: 'alice_user_bob',
      type: 'chat',
      sentAt: 1_795_000_000,
      sound: 'ping.caf',
    });
  });

  it('carries the call sound and call fields for call events', () => {
    const event = eventOf({ category: 'call', type: 'video', data: { action: 'initiated' } });
    const details = detailsFor({}, event, { sound: { chat: 'ping.caf', call: 'ring.caf' } });
    expect(details).toMatchObject({
      type: 'call',
      callAction: 'initiated',
      callType: 'video',
      sound: 'ring.caf',
    });
  });

  it('leaves the message object out unless includeMessageObjectSetting', () => {
    expect(detailsFor({ includeMessageObjectSetting: false }).message).toBeUndefined();
    expect(detailsFor(EVERYTHING).message).toEqual(eventOf().message);
  });

  const flagCases = [
    { flag: 'includeSenderMetadataSetting', path: ['data', 'entities', 'sender', 'entity', 'metadata'] },
    { flag: 'includeReceiverMetadataSetting', path: ['data', 'entities', 'receiver', 'entity', 'metadata'] },
    { flag: 'includeMessageMetadataSetting', path: ['data', 'metadata'] },
  ];

  it.each(flagCases)('$flag decides whether the message object keeps that metadata', ({ flag, path }) => {
    const group = eventOf({ group: true });
    const read = (value: unknown): unknown =>
      path.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], value);
    expect(read(detailsFor(EVERYTHING, group).message)).toBeDefined();
    expect(read(detailsFor({ ...EVERYTHING, [flag]: false }, group).message)).toBeUndefined();
  });

  it('does not change the message it was given when stripping metadata', () => {
    const event = eventOf({ group: true });
    detailsFor(
      { ...EVERYTHING, includeSenderMetadataSetting: false, includeMessageMetadataSetting: false },
      event,
    );
    expect(event.message.data.metadata).toEqual({ draft: true });
    expect((event.message.data.entities.sender?.entity as { metadata?: unknown }).metadata).toEqual({
      team: 'blue',
    });
  });

  it('never carries a user\'s metadata["@private"], even with sender and receiver metadata included', () => {
    const event = eventOf();
    const entities = event.message.data.entities as Record<string, { entity: { metadata?: unknown } }>;
    for (const side of ['sender', 'receiver'] as const) {
      const ref = entities[side];
      if (ref)
        ref.entity.metadata = { ...(ref.entity.metadata ?? {}), '@private': { email: 'x@example.com' } };
    }
    const shown = detailsFor(EVERYTHING, event).message as unknown as typeof event.message;
    expect(JSON.stringify(shown)).not.toContain('x@example.com');
    expect((shown.data.entities.sender?.entity as { metadata?: unknown }).metadata).toEqual({ team: 'blue' });
  });

  it('carries customJson as custom, and nothing when it is empty', () => {
    expect(detailsFor({ customJson: { deepLink: 'app://chat' } }).custom).toEqual({ deepLink: 'app://chat' });
    expect(detailsFor({ customJson: {} }).custom).toBeUndefined();
  });

  describe('trimTextFieldSetting', () => {
    const LONG_TEXT = 'é'.repeat(6_000);
    const long = eventOf({ data: { text: LONG_TEXT } });
    const shortBody = { templates: { textMessageTemplateDefault: { body: 'New message' } } };
    const trimming = { ...EVERYTHING, trimTextFieldSetting: true };
    const size = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

    it('shortens the text of the message object as little as needed to fit the push limit', () => {
      const details = detailsFor(trimming, long, shortBody);
      const text = details.message?.data.text ?? '';
      expect(size(details)).toBeLessThanOrEqual(PUSH_PAYLOAD_LIMIT_BYTES);
      expect(text.endsWith('…')).toBe(true);
      expect(LONG_TEXT.startsWith(text.slice(0, -1))).toBe(true);
      // One more character would not have fitted.
      expect(size(details) + Buffer.byteLength('é')).toBeGreaterThan(PUSH_PAYLOAD_LIMIT_BYTES);
    });

    it('shortens the body too when the template puts the text there', () => {
      const details = detailsFor(trimming, long);
      expect(size(details)).toBeLessThanOrEqual(PUSH_PAYLOAD_LIMIT_BYTES);
      expect(details.body.endsWith('…')).toBe(true);
      expect(LONG_TEXT.startsWith(details.body.slice(0, -1))).toBe(true);
    });

    it('shortens the body when the message object is left out', () => {
      const details = detailsFor({ includeMessageObjectSetting: false, trimTextFieldSetting: true }, long);
      expect(size(details)).toBeLessThanOrEqual(PUSH_PAYLOAD_LIMIT_BYTES);
      expect(details.body.length).toBeGreaterThan(1_000);
    });

    it('leaves text and body whole when the setting is off', () => {
      const details = detailsFor({ ...EVERYTHING, trimTextFieldSetting: false }, long);
      expect(details.message?.data.text).toBe(LONG_TEXT);
      expect(details.body).toBe(LONG_TEXT);
    });

    it('leaves a payload that fits untouched', () => {
      const details = detailsFor(trimming);
      expect(details.message?.data.text).toBe('Hello there');
      expect(details.body).toBe('Hello there');
    });
  });
});
