import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../../shared/message.js';
import {
  IDEMPOTENCY_HEADER,
  SIGNATURE_HEADER,
  verifyWebhookSignature,
} from '../../../server/notifications/index.js';
import { decisionRowOf } from '../../../server/notifications/decision-queue.js';
import {
  APP_TWO,
  ENGINES,
  apiFixtures,
  createTestStore,
  injectFailure,
  textMessage,
  uniqueId,
  type TestStore,
} from '../support.js';
import {
  ManualClock,
  Receiver,
  SECRET,
  startNotifiedServer,
  useWebhook,
  type NotifiedServer,
} from './support.js';

/**
 * The engine inside the real chat server: events from real API calls, decisions through the
 * stored settings, preferences, mutes and time zones, push calls to a real receiver, and the logs.
 */
describe.each(ENGINES)('notifications engine on %s', (engine) => {
  let store: TestStore;
  let server: NotifiedServer;
  let receiver: Receiver;
  const clock = new ManualClock();
  const online = new Set<string>();
  const call: NotifiedServer['api']['call'] = (...args) => server.api.call(...args);

  beforeAll(async () => {
    store = await createTestStore(engine);
    receiver = await Receiver.start();
    server = await startNotifiedServer(store, {
      clock,
      presence: { isOnline: (_appId, uid) => online.has(uid) },
    });
    const response = await useWebhook(call, 'push', `${receiver.url}/push`);
    expect(response.status).toBe(200);
  });
  afterEach(async () => {
    await call('DELETE', '/notifications/v1/settings');
    await useWebhook(call, 'email', `${receiver.url}/email`, { enabled: false });
    await useWebhook(call, 'sms', `${receiver.url}/sms`, { enabled: false });
    online.clear();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await store?.dispose();
  });

  const { createUser, createGroup, sendMessage } = apiFixtures(call);
  const send = async (sender: string, body: unknown) => (await sendMessage(sender, body)).id;
  /** Lets the engine decide what happened so far and run one worker pass. */
  const settle = async (): Promise<void> => {
    await server.engine.idle();
    await server.engine.runDue();
  };
  const pushesTo = (uid: string) => receiver.callsTo('/push').filter((c) => c.body.data.to.uid === uid);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- log entries are read as JSON
  const logsOf = async (uid: string, query = ''): Promise<any[]> => {
    const response = await call('GET', `/notifications/v1/logs?uid=${uid}${query}`);
    expect(response.status).toBe(200);
    return response.body.data;
  };
  const patchSettings = async (body: unknown): Promise<void> => {
    expect((await call('PATCH', '/notifications/v1/settings', { body })).status).toBe(200);
  };

  /** Runs `work` as a process that dies the instant its change commits: nothing in it hears the change. */
  async function dyingAtCommit<T>(work: () => Promise<T>): Promise<T> {
    const { events } = server.api.server.core;
    const heard = ['message', 'messageEdited', 'messageDeleted', 'reaction'] as const;
    const hearers = heard.map((name) => ({ name, listeners: events.listeners(name) }));
    for (const name of heard) events.removeAllListeners(name);
    try {
      return await work();
    } finally {
      for (const { name, listeners } of hearers)
        for (const listener of listeners) events.on(name, listener as never);
    }
  }

  /** Runs `work` while the decision queue refuses every row (an injected failure). */
  async function refusingDecisions<T>(work: () => Promise<T>): Promise<T> {
    const allowAgain = await injectFailure(server.api.server.core.store, 'notification_decisions', 'insert');
    try {
      return await work();
    } finally {
      await allowAgain();
    }
  }

  it('decides an event a process heard but died before deciding, once its lease has run out, and only once', async () => {
    const [alice, bob] = [await createUser(), await createUser()];
    // What a dead process leaves: the event in the decision queue, leased, and no decision.
    await server.engine.stop();
    const heard = new Promise<Message>((resolve) =>
      server.api.server.core.events.once('message', (_appId, message) => resolve(message)),
    );
    await send(alice, textMessage(bob, 'left behind'));
    const message = await heard;
    const { messages, store } = server.api.server.core;
    const row = decisionRowOf({ kind: 'message' }, clock.now(), clock.now() + 10_000);
    await messages.queueDecision('app-one', row, Number(message.id), store.db);
    server.engine.start();
    await settle();
    expect(pushesTo(bob)).toHaveLength(0);
    clock.advance(10_000);
    await settle();
    expect(pushesTo(bob).map((push) => push.body.data.notificationDetails.body)).toEqual(['left behind']);
    await settle();
    expect(pushesTo(bob)).toHaveLength(1);
  });

  it('writes nothing to the decision queue for an app with no channel enabled, and queues again once one is', async () => {
    const [alice, bob] = [await createUser(), await createUser()];
    const { messages } = server.api.server.core;
    const stored = vi.spyOn(messages, 'insertAll');
    /** The decision-queue rows the sends so far stored beside their messages. */
    const queuedWithSends = async (): Promise<number> => {
      const written = await Promise.all(stored.mock.results.map((result) => result.value));
      return written.flat().filter((message) => message.decisionId !== undefined).length;
    };
    try {
      expect((await useWebhook(call, 'push', `${receiver.url}/push`, { enabled: false })).status).toBe(200);
      await send(alice, textMessage(bob, 'nobody is told'));
      await settle();
      expect(await queuedWithSends()).toBe(0);
      expect((await useWebhook(call, 'push', `${receiver.url}/push`)).status).toBe(200);
      await send(alice, textMessage(bob, 'bob is told'));
      await settle();
      expect(await queuedWithSends()).toBe(1);
      expect(pushesTo(bob).map((push) => push.body.data.notificationDetails.body)).toEqual(['bob is told']);
    } finally {
      stored.mockRestore();
      await useWebhook(call, 'push', `${receiver.url}/push`);
    }
  });

  it("queues a sent message's decision with the message: a process that dies right after the commit leaves it to the worker", async () => {
    const [alice, bob] = [await createUser(), await createUser()];
    // The process dies the instant its send commits: nothing in it hears the message.
    await dyingAtCommit(() => send(alice, textMessage(bob, 'sent just before the crash')));
    await settle();
    expect(pushesTo(bob)).toHaveLength(0);
    // Once the dead process's claim has run out, the worker decides the event, once.
    clock.advance(10_000);
    await settle();
    await settle();
    expect(pushesTo(bob).map((push) => push.body.data.notificationDetails.body)).toEqual([
      'sent just before the crash',
    ]);
  });

  it('stores neither a message nor its decision when its decision cannot be queued', async () => {
    const [alice, bob] = [await createUser(), await createUser()];
    const refused = await refusingDecisions(() =>
      call('POST', '/messages', { body: textMessage(bob, 'never half stored'), onBehalfOf: alice }),
    );
    expect(refused.status).toBe(500);
    const history = await call('GET', `/users/${bob}/messages`, { onBehalfOf: alice });
    expect(history.status).toBe(200);
    expect(history.body.data).toEqual([]);
    await settle();
    expect(pushesTo(bob)).toHaveLength(0);
  });

  /**
   * Every other kind of change that notifies, each with what it needs first: `change` makes it,
   * `told` is notified of it with `trigger`, and `state` reads what the change would change.
   */
  const CHANGES: Array<{
    kind: string;
    prepare(): Promise<{
      change: () => ReturnType<typeof call>;
      told: string;
      trigger: string;
      state: () => Promise<unknown>;
    }>;
  }> = [
    { kind: 'an edit', prepare: () => messageChange('PUT', 'message_edited') },
    { kind: 'a deletion', prepare: () => messageChange('DELETE', 'message_deleted') },
    {
      kind: 'a reaction',
      prepare: async () => {
        const [alice, bob] = [await createUser(), await createUser()];
        const id = await send(bob, textMessage(alice, 'my post'));
        const reactions = `/messages/${id}/reactions`;
        return {
          change: () => call('POST', `${reactions}/${encodeURIComponent('🎉')}`, { onBehalfOf: alice }),
          told: bob,
          trigger: 'message_reaction_added',
          state: async () => (await call('GET', reactions)).body,
        };
      },
    },
    {
      kind: 'a group member change',
      prepare: async () => {
        const [alice, bob, erin] = [await createUser(), await createUser(), await createUser()];
        const guid = await createGroup(alice, [bob]);
        await patchSettings({ preferences: { group: { memberAddedSetting: 2 } } });
        return {
          change: () =>
            call('POST', `/groups/${guid}/members`, { body: { participants: [erin] }, onBehalfOf: alice }),
          told: bob,
          trigger: 'after_group_members_added',
          state: async () => [
            (await call('GET', `/groups/${guid}/members`)).body,
            (await call('GET', `/groups/${guid}/messages`, { onBehalfOf: alice })).body,
          ],
        };
      },
    },
  ];

  /** Alice's message to bob, edited or deleted by her. */
  async function messageChange(method: 'PUT' | 'DELETE', trigger: string) {
    const [alice, bob] = [await createUser(), await createUser()];
    const id = await send(alice, textMessage(bob, 'typo'));
    return {
      change: () =>
        call(method, `/messages/${id}`, {
          ...(method === 'PUT' ? { body: { data: { text: 'fixed' } } } : {}),
          onBehalfOf: alice,
        }),
      told: bob,
      trigger,
      state: async () => [
        (await call('GET', `/messages/${id}`)).body,
        (await call('GET', `/users/${bob}/messages`, { onBehalfOf: alice })).body,
      ],
    };
  }

  it.each(CHANGES)(
    'queues the decision of $kind with the change: a process that dies right after the commit leaves it to the worker, which decides it once',
    async ({ prepare }) => {
      const { change, told, trigger } = await prepare();
      await settle();
      const notified = () => pushesTo(told).filter((push) => push.body.event === trigger);
      expect((await dyingAtCommit(change)).status).toBe(200);
      await settle();
      expect(notified()).toHaveLength(0);
      // Once the dead process's claim has run out, the worker decides the event, once.
      clock.advance(10_000);
      await settle();
      await settle();
      expect(notified()).toHaveLength(1);
      clock.advance(10_000);
      await settle();
      expect(notified()).toHaveLength(1);
    },
  );

  it.each(CHANGES)(
    'answers 500 and changes nothing when the decision of $kind cannot be queued',
    async ({ prepare }) => {
      const { change, told, trigger, state } = await prepare();
      await settle();
      const before = await state();
      const refused = await refusingDecisions(change);
      expect(refused.status).toBe(500);
      expect(await state()).toEqual(before);
      clock.advance(10_000);
      await settle();
      expect(pushesTo(told).filter((push) => push.body.event === trigger)).toHaveLength(0);
    },
  );

  it.each(CHANGES)('writes no decision for $kind in an app with no channel enabled', async ({ prepare }) => {
    expect((await useWebhook(call, 'push', `${receiver.url}/push`, { enabled: false })).status).toBe(200);
    try {
      // Any row it tried to write would fail the change.
      const { change } = await refusingDecisions(prepare);
      expect((await refusingDecisions(change)).status).toBe(200);
    } finally {
      await useWebhook(call, 'push', `${receiver.url}/push`);
    }
  });

  describe('push', () => {
    it('sends every group member but the sender a signed push with an idempotency key', async () => {
      const [alice, bob, carol] = [await createUser(), await createUser(), await createUser()];
      const guid = await createGroup(alice, [bob, carol]);
      const id = await send(alice, textMessage(guid, 'Trail at dawn?', 'group'));
      await settle();
      expect(pushesTo(alice)).toHaveLength(0);
      for (const uid of [bob, carol]) {
        const [push] = pushesTo(uid);
        expect(push?.body.data.notificationDetails).toMatchObject({
          title: `Name of ${alice} @ Group ${guid}`,
          body: 'Trail at dawn?',
          tag: id,
          receiverType: 'group',
          conversationId: `group_${guid}`,
        });
        expect(push?.headers[IDEMPOTENCY_HEADER]).toBe(`push:after_message:${id}:${uid}`);
        expect(push?.body.id).toBe(push?.headers[IDEMPOTENCY_HEADER]);
        const signature = push?.headers[SIGNATURE_HEADER] as string;
        expect(
          verifyWebhookSignature(SECRET, push?.raw ?? '', signature, Math.floor(clock.now() / 1000)),
        ).toBe(true);
      }
    });

    it('stops pushing a member once they are kicked, and starts pushing one once added', async () => {
      const [alice, bob, carol, dave] = [
        await createUser(),
        await createUser(),
        await createUser(),
        await createUser(),
      ];
      const guid = await createGroup(alice, [bob, carol]);
      await send(alice, textMessage(guid, 'before', 'group'));
      await settle();
      const kicked = await call('DELETE', `/groups/${guid}/members/${carol}`, { onBehalfOf: alice });
      expect(kicked.status).toBe(200);
      const added = await call('POST', `/groups/${guid}/members`, {
        body: { participants: [dave] },
        onBehalfOf: alice,
      });
      expect(added.status).toBe(200);
      await send(alice, textMessage(guid, 'after', 'group'));
      await settle();
      const bodiesTo = (uid: string) =>
        pushesTo(uid)
          .filter((push) => push.body.event === 'after_message')
          .map((push) => push.body.data.notificationDetails.body)
          .sort();
      expect(bodiesTo(bob)).toEqual(['after', 'before']);
      expect(bodiesTo(carol)).toEqual(['before']);
      expect(bodiesTo(dave)).toEqual(['after']);
    });

    it('skips push for users with a connected socket and says so in the logs', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      online.add(bob);
      const id = await send(alice, textMessage(bob, 'you are here'));
      await settle();
      expect(pushesTo(bob)).toHaveLength(0);
      expect(await logsOf(bob)).toEqual([
        expect.objectContaining({
          messageId: id,
          channel: 'push',
          notificationTriggered: false,
          reason: 'USER_ONLINE',
        }),
      ]);
    });

    it('logs a sent push with its delivery', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const id = await send(alice, textMessage(bob, 'hello'));
      await settle();
      expect(await logsOf(bob)).toEqual([
        {
          id: expect.any(String),
          uid: bob,
          trigger: 'after_message',
          channel: 'push',
          messageId: id,
          conversationId: [alice, bob].sort().join('_user_'),
          sender: alice,
          receiver: bob,
          receiverType: 'user',
          notificationTriggered: true,
          reason: null,
          createdAt: Math.floor(clock.now() / 1000),
          delivery: { status: 'delivered', attempts: 1, lastError: null },
        },
      ]);
    });

    it("honours a user's own preference where the app allows overriding", async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const patched = await call('PATCH', `/notifications/v1/preferences?uid=${bob}`, {
        body: { oneOnOnePreferences: { oneOnOneMessages: 1 } },
      });
      expect(patched.status).toBe(200);
      await send(alice, textMessage(bob, 'ignored'));
      await settle();
      expect(pushesTo(bob)).toHaveLength(0);
      expect((await logsOf(bob))[0]).toMatchObject({ channel: null, reason: 'MESSAGES_PREFERENCE' });
    });

    it('notifies a mentioned user despite their preference when mentions bypass preferences', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      await patchSettings({
        preferences: { oneOnOne: { messagesSetting: 1 }, bypassPreferencesForMentions: true },
      });
      await send(alice, textMessage(bob, `look <@uid:${bob}>`));
      await send(alice, textMessage(bob, 'no mention'));
      await settle();
      expect(pushesTo(bob).map((push) => push.body.data.notificationDetails.body)).toEqual([
        `Name of ${alice} mentioned you: look @Name of ${bob}`,
      ]);
    });

    it('uses the privacy templates for a user who chose them when the app lets users choose', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      await call('PATCH', `/notifications/v1/preferences?uid=${bob}`, { body: { usePrivacyTemplate: true } });
      await send(alice, textMessage(bob, 'secret plans'));
      await settle();
      expect(pushesTo(bob)[0]?.body.data.notificationDetails.body).toBe('New message');
    });

    it('notifies of edits and deletions with their own triggers', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const id = await send(alice, textMessage(bob, 'typo'));
      await call('PUT', `/messages/${id}`, { body: { data: { text: 'fixed' } }, onBehalfOf: alice });
      await call('DELETE', `/messages/${id}`, { onBehalfOf: alice });
      await settle();
      // Deliveries run concurrently, so they may arrive in any order.
      const pushes = pushesTo(bob).map((push) => [push.body.event, push.body.data.notificationDetails.body]);
      expect(pushes.sort()).toEqual([
        ['after_message', 'typo'],
        ['message_deleted', 'Deleted a message'],
        ['message_edited', 'Edited a message'],
      ]);
    });

    it('notifies members of a member added when the app turns that event on', async () => {
      const [alice, bob, erin] = [await createUser(), await createUser(), await createUser()];
      const guid = await createGroup(alice, [bob]);
      // Bob's own addition is decided under the settings it was made under, before they change.
      await settle();
      await patchSettings({ preferences: { group: { memberAddedSetting: 2 } } });
      await call('POST', `/groups/${guid}/members`, { body: { participants: [erin] }, onBehalfOf: alice });
      await settle();
      const added = pushesTo(bob).filter((push) => push.body.event === 'after_group_members_added');
      expect(added.map((push) => push.body.data.notificationDetails.body)).toEqual([
        `Name of ${alice} added Name of ${erin}`,
      ]);
      expect(pushesTo(alice)).toHaveLength(0);
    });

    it('notifies the author of a message of a reaction to it', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const sent = await call('POST', '/messages', { body: textMessage(alice, 'my post'), onBehalfOf: bob });
      await settle();
      const reacted = await call(
        'POST',
        `/messages/${sent.body.data.id}/reactions/${encodeURIComponent('🎉')}`,
        {
          onBehalfOf: alice,
        },
      );
      expect(reacted.status).toBe(200);
      await settle();
      expect(pushesTo(bob).map((push) => push.body.data.notificationDetails)).toEqual([
        expect.objectContaining({ title: `Name of ${alice}`, body: 'Reacted to your message: 🎉' }),
      ]);
    });

    it('decides nothing and logs nothing for an app without enabled providers', async () => {
      const alice = uniqueId('user');
      const bob = uniqueId('user');
      const asTwo = { apikey: APP_TWO.apiKey, appId: APP_TWO.appId };
      for (const uid of [alice, bob]) await call('POST', '/users', { body: { uid, name: uid }, ...asTwo });
      await call('POST', '/messages', { body: textMessage(bob, 'quiet'), onBehalfOf: alice, ...asTwo });
      await settle();
      const logs = await call('GET', `/notifications/v1/logs?uid=${bob}`, asTwo);
      expect(logs.body.data).toEqual([]);
      expect(pushesTo(bob)).toHaveLength(0);
    });
  });

  describe('muted conversations', () => {
    it('mutes a group until unmuted, and reports the mute', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const guid = await createGroup(alice, [bob]);
      const muted = await call('PUT', `/notifications/v1/preferences/mute?uid=${bob}`, {
        body: { conversations: [{ id: guid, type: 'group' }] },
      });
      expect(muted.body).toEqual({ data: { success: true } });
      expect((await call('GET', `/notifications/v1/preferences/mute?uid=${bob}`)).body).toEqual({
        data: { mutedConversations: [{ id: guid, type: 'group' }] },
      });
      await send(alice, textMessage(guid, 'shh', 'group'));
      await settle();
      expect(pushesTo(bob)).toHaveLength(0);
      expect((await logsOf(bob))[0]).toMatchObject({ reason: 'MUTE_PREFERENCE' });

      await call('DELETE', `/notifications/v1/preferences/mute?uid=${bob}`, {
        body: { conversations: [{ id: guid, type: 'group' }] },
      });
      await send(alice, textMessage(guid, 'loud', 'group'));
      await settle();
      expect(pushesTo(bob).map((push) => push.body.data.notificationDetails.body)).toEqual(['loud']);
    });

    it('mutes a one-on-one only until the time given', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      await call('PUT', `/notifications/v1/preferences/mute?uid=${bob}`, {
        body: { conversations: [{ id: alice, type: 'oneOnOne', until: clock.now() + 60_000 }] },
      });
      await send(alice, textMessage(bob, 'during'));
      await settle();
      clock.advance(60_000);
      await send(alice, textMessage(bob, 'after'));
      await settle();
      expect(pushesTo(bob).map((push) => push.body.data.notificationDetails.body)).toEqual(['after']);
    });
  });

  describe('time zone', () => {
    it("reads the weekly schedule in the user's time zone", async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      // Monday 09:00-17:00 is do-not-disturb for bob; 12:00 UTC is 21:00 in Tokyo.
      await call('PATCH', `/notifications/v1/preferences?uid=${bob}`, {
        body: { mutePreferences: { schedule: { monday: { from: 900, to: 1700, dnd: true } } } },
      });
      clock.set('2026-01-12T12:00:00Z');
      await send(alice, textMessage(bob, 'at noon UTC'));
      await settle();
      expect(pushesTo(bob)).toHaveLength(0);
      expect((await logsOf(bob))[0]).toMatchObject({ delivery: { status: 'pending', attempts: 0 } });

      const zone = await call('PATCH', `/notifications/v1/preferences/timezone?uid=${bob}`, {
        body: { timezone: 'Asia/Tokyo' },
      });
      expect(zone.body).toEqual({ data: { success: true, timezone: 'Asia/Tokyo' } });
      const id = await send(alice, textMessage(bob, 'evening in Tokyo'));
      await settle();
      expect(pushesTo(bob).map((push) => push.body.data.notificationDetails.tag)).toEqual([id]);
    });

    it('drops a push held by the schedule when the conversation is muted before the span ends', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      await call('PATCH', `/notifications/v1/preferences?uid=${bob}`, {
        body: { mutePreferences: { schedule: { monday: { from: 900, to: 1700, dnd: true } } } },
      });
      clock.set('2026-01-12T12:00:00Z');
      await send(alice, textMessage(bob, 'held'));
      await settle();
      const muted = await call('PUT', `/notifications/v1/preferences/mute?uid=${bob}`, {
        body: { conversations: [{ id: alice, type: 'oneOnOne' }] },
      });
      expect(muted.status).toBe(200);
      clock.set('2026-01-12T17:01:00Z');
      await server.engine.runDue();
      expect(pushesTo(bob)).toHaveLength(0);
      expect((await logsOf(bob))[0]).toMatchObject({
        delivery: { status: 'dropped', lastError: 'MUTE_PREFERENCE' },
      });
    });

    it('answers UTC for a user who never set a time zone', async () => {
      const bob = await createUser();
      expect((await call('GET', `/notifications/v1/preferences/timezone?uid=${bob}`)).body).toEqual({
        data: { success: true, timezone: 'UTC' },
      });
    });

    it('refuses a time zone it does not know, naming the field', async () => {
      const bob = await createUser();
      const response = await call('PATCH', `/notifications/v1/preferences/timezone?uid=${bob}`, {
        body: { timezone: 'Mars/Olympus' },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'ERR_BAD_REQUEST', details: { field: 'timezone' } });
    });

    it('refuses an unknown user with ERR_UID_NOT_FOUND', async () => {
      const response = await call('GET', '/notifications/v1/preferences/timezone?uid=nobody-here');
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('ERR_UID_NOT_FOUND');
    });
  });

  describe('email and SMS batches', () => {
    const enableDigests = async (patch: Record<string, unknown>): Promise<void> => {
      for (const channel of ['email', 'sms'] as const) {
        await useWebhook(call, channel, `${receiver.url}/${channel}`);
      }
      await patchSettings({ preferences: { email: patch, sms: patch } });
    };
    const emailsTo = (uid: string) => receiver.callsTo('/email').filter((c) => c.body.data.to.uid === uid);
    const smsTo = (uid: string) => receiver.callsTo('/sms').filter((c) => c.body.data.to.uid === uid);
    const markRead = async (uid: string, conversationId: string, messageId: string): Promise<void> => {
      await server.api.server.core.store.db
        .insertInto('conversation_reads')
        .values({
          app_id: 'app-one',
          conversation_id: conversationId,
          uid,
          read_message_id: Number(messageId),
          read_at: null,
          delivered_message_id: Number(messageId),
          delivered_at: null,
        })
        .execute();
    };

    it('sends one email and one SMS per conversation once the interval has passed, with the messages of the batch', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      await enableDigests({ intervalInSeconds: 600 });
      for (const text of ['one', 'two', 'three']) await send(alice, textMessage(bob, text));
      await settle();
      clock.advance(599_000);
      await server.engine.runDue();
      expect(emailsTo(bob)).toHaveLength(0);
      clock.advance(1_000);
      await server.engine.runDue();
      const [email] = emailsTo(bob);
      expect(email?.body.data).toMatchObject({
        to: { uid: bob, name: `Name of ${bob}` },
        subject: `New messages from Name of ${alice}`,
        messages: [{ message: 'one' }, { message: 'two' }, { message: 'three' }],
      });
      expect(smsTo(bob)[0]?.body.data.smsContent).toBe(
        `You've received 3 message(s) from Name of ${alice}! Read them at https://your-website.com.`,
      );
      expect(emailsTo(bob)).toHaveLength(1);
    });

    it('keeps separate batches for separate conversations', async () => {
      const [alice, carol, bob] = [await createUser(), await createUser(), await createUser()];
      await enableDigests({ intervalInSeconds: 60 });
      await send(alice, textMessage(bob, 'from alice'));
      await send(carol, textMessage(bob, 'from carol'));
      await settle();
      clock.advance(60_000);
      await server.engine.runDue();
      expect(
        emailsTo(bob).map((email) => email.body.data.messages.map((m: { message: string }) => m.message)),
      ).toEqual(expect.arrayContaining([['from alice'], ['from carol']]));
    });

    it('leaves out messages read before the interval ended', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      await enableDigests({ intervalInSeconds: 60 });
      const first = await send(alice, textMessage(bob, 'seen'));
      await send(alice, textMessage(bob, 'unseen'));
      await settle();
      await markRead(bob, [alice, bob].sort().join('_user_'), first);
      clock.advance(60_000);
      await server.engine.runDue();
      expect(emailsTo(bob)[0]?.body.data.messages).toEqual([expect.objectContaining({ message: 'unseen' })]);
    });

    it('sends nothing when everything was read, and logs why', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      await enableDigests({ intervalInSeconds: 60 });
      const id = await send(alice, textMessage(bob, 'seen'));
      await settle();
      await markRead(bob, [alice, bob].sort().join('_user_'), id);
      clock.advance(60_000);
      await server.engine.runDue();
      expect(emailsTo(bob)).toHaveLength(0);
      expect(await logsOf(bob, '&channel=email')).toEqual([
        expect.objectContaining({ notificationTriggered: false, reason: 'MESSAGES_READ' }),
      ]);
    });

    it('includes read messages when notifyForUnreadOnly is off', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      await enableDigests({ intervalInSeconds: 60, notifyForUnreadOnly: false });
      const id = await send(alice, textMessage(bob, 'seen'));
      await settle();
      await markRead(bob, [alice, bob].sort().join('_user_'), id);
      clock.advance(60_000);
      await server.engine.runDue();
      expect(emailsTo(bob)[0]?.body.data.messages).toEqual([expect.objectContaining({ message: 'seen' })]);
    });

    it('caps batches per conversation per day (maxPerDayPerConversation)', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      await enableDigests({ intervalInSeconds: 60, maxPerDayPerConversation: 2, maxPerDay: 20 });
      for (const text of ['1', '2', '3']) {
        await send(alice, textMessage(bob, text));
        await settle();
        clock.advance(60_000);
        await server.engine.runDue();
      }
      expect(emailsTo(bob).map((email) => email.body.data.messages[0].message)).toEqual(['1', '2']);
      expect((await logsOf(bob, '&channel=email'))[0]).toMatchObject({ reason: 'QUOTA_PREFERENCE' });

      clock.advance(86_400_000);
      await send(alice, textMessage(bob, 'next day'));
      await settle();
      clock.advance(60_000);
      await server.engine.runDue();
      expect(emailsTo(bob).map((email) => email.body.data.messages[0].message)).toEqual([
        '1',
        '2',
        'next day',
      ]);
    });

    it('caps batches per user per day across conversations (maxPerDay)', async () => {
      const bob = await createUser();
      const senders = [await createUser(), await createUser(), await createUser()];
      await enableDigests({ intervalInSeconds: 60, maxPerDayPerConversation: 5, maxPerDay: 2 });
      for (const sender of senders) {
        await send(sender, textMessage(bob, sender));
        await settle();
        clock.advance(60_000);
        await server.engine.runDue();
      }
      expect(emailsTo(bob)).toHaveLength(2);
      expect((await logsOf(bob, '&channel=email'))[0]).toMatchObject({ reason: 'QUOTA_PREFERENCE' });
    });

    it('does not batch edits, deletions or member events', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      await enableDigests({ intervalInSeconds: 60 });
      const id = await send(alice, textMessage(bob, 'original'));
      await call('PUT', `/messages/${id}`, { body: { data: { text: 'edited' } }, onBehalfOf: alice });
      await settle();
      clock.advance(60_000);
      await server.engine.runDue();
      expect(emailsTo(bob).map((email) => email.body.data.messages.length)).toEqual([1]);
    });
  });
});
