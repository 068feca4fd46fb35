import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ONE,
  APP_TWO,
  ENGINES,
  createTestStore,
  textMessage,
  uniqueId,
  type TestStore,
} from '../support.js';
import { ManualClock, Receiver, SECRET, startNotifiedServer, type NotifiedServer } from './support.js';

/** The delivery routes' contracts: webhooks per channel, decision logs, mutes; validation and tenancy. */
describe.each(ENGINES)('notification delivery routes on %s', (engine) => {
  let store: TestStore;
  let server: NotifiedServer;
  let receiver: Receiver;
  const clock = new ManualClock();
  const call: NotifiedServer['api']['call'] = (...args) => server.api.call(...args);
  const asTwo = { apikey: APP_TWO.apiKey, appId: APP_TWO.appId };

  beforeAll(async () => {
    store = await createTestStore(engine);
    receiver = await Receiver.start();
    server = await startNotifiedServer(store, { clock });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await store?.dispose();
  });

  describe('PUT /notifications/v1/webhooks/{channel}', () => {
    it('stores the webhook and answers without its secret', async () => {
      const response = await call('PUT', '/notifications/v1/webhooks/sms', {
        body: { url: `${receiver.url}/sms`, secret: SECRET, enabled: true },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: { channel: 'sms', url: `${receiver.url}/sms`, enabled: true, updatedAt: expect.any(Number) },
      });
      const listed = await call('GET', '/notifications/v1/webhooks');
      expect(listed.body.data).toEqual([response.body.data]);
      expect(JSON.stringify(listed.body)).not.toContain(SECRET);
    });

    it('keeps the stored secret when a change leaves it out', async () => {
      await call('PUT', '/notifications/v1/webhooks/email', {
        body: { url: `${receiver.url}/a`, secret: SECRET },
      });
      const changed = await call('PUT', '/notifications/v1/webhooks/email', {
        body: { url: `${receiver.url}/b`, enabled: false },
      });
      expect(changed.body.data).toMatchObject({ url: `${receiver.url}/b`, enabled: false });
      const stored = (await server.engine.data.webhooks.all(APP_ONE.appId)).get('email');
      expect(stored).toMatchObject({ url: `${receiver.url}/b`, secret: SECRET, enabled: false });
    });

    it('requires a secret for a channel that has no webhook yet', async () => {
      const response = await call('PUT', '/notifications/v1/webhooks/push', {
        body: { url: `${receiver.url}/push` },
        ...asTwo,
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'ERR_BAD_REQUEST', details: { field: 'secret' } });
    });

    const refusals = [
      {
        name: 'an unknown channel',
        channel: 'fax',
        body: { url: 'http://127.0.0.1/x', secret: SECRET },
        field: 'channel',
      },
      {
        name: 'a URL that is not http(s)',
        channel: 'push',
        body: { url: 'ftp://127.0.0.1/x', secret: SECRET },
        field: 'url',
      },
      {
        name: 'a URL longer than 255 characters',
        channel: 'push',
        body: { url: `http://h/${'x'.repeat(250)}`, secret: SECRET },
        field: 'url',
      },
      {
        name: 'a secret shorter than 16 characters',
        channel: 'push',
        body: { url: 'http://127.0.0.1/x', secret: 'short' },
        field: 'secret',
      },
      {
        name: 'enabled that is not a boolean',
        channel: 'push',
        body: { url: 'http://127.0.0.1/x', secret: SECRET, enabled: 'yes' },
        field: 'enabled',
      },
      {
        name: 'an unknown member',
        channel: 'push',
        body: { url: 'http://127.0.0.1/x', secret: SECRET, headers: {} },
        field: 'body',
      },
    ];

    it.each(refusals)('refuses $name, naming the field', async ({ channel, body, field }) => {
      const response = await call('PUT', `/notifications/v1/webhooks/${channel}`, { body });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'ERR_BAD_REQUEST', details: { field } });
    });

    it('refuses an authOnly key', async () => {
      const response = await call('PUT', '/notifications/v1/webhooks/push', {
        body: { url: `${receiver.url}/push`, secret: SECRET },
        apikey: APP_ONE.authKey,
      });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('AUTH_ERR_NO_ACCESS');
    });

    it("never shows one app another app's webhooks", async () => {
      expect((await call('GET', '/notifications/v1/webhooks', asTwo)).body).toEqual({ data: [] });
    });
  });

  describe('GET /notifications/v1/logs', () => {
    let bob: string;
    let alice: string;
    const ids: string[] = [];

    beforeAll(async () => {
      await call('PUT', '/notifications/v1/webhooks/push', {
        body: { url: `${receiver.url}/push`, secret: SECRET },
      });
      [alice, bob] = [uniqueId('user'), uniqueId('user')];
      for (const uid of [alice, bob]) await call('POST', '/users', { body: { uid, name: uid } });
      for (const n of [1, 2, 3, 4, 5]) {
        const sent = await call('POST', '/messages', { body: textMessage(bob, `m${n}`), onBehalfOf: alice });
        ids.push(sent.body.data.id as string);
      }
      await server.engine.idle();
    });

    it('pages backwards through a user’s decisions, newest first', async () => {
      const first = await call('GET', `/notifications/v1/logs?uid=${bob}&limit=2`);
      expect(first.body.data.map((log: { messageId: string }) => log.messageId)).toEqual([ids[4], ids[3]]);
      expect(first.body.meta).toEqual({
        current: { limit: 2, count: 2 },
        next: { affix: 'prepend', logId: first.body.data[1].id },
      });
      const second = await call(
        'GET',
        `/notifications/v1/logs?uid=${bob}&limit=2&logId=${first.body.meta.next.logId}`,
      );
      expect(second.body.data.map((log: { messageId: string }) => log.messageId)).toEqual([ids[2], ids[1]]);
      const last = await call(
        'GET',
        `/notifications/v1/logs?uid=${bob}&limit=2&logId=${second.body.meta.next.logId}`,
      );
      expect(last.body.data.map((log: { messageId: string }) => log.messageId)).toEqual([ids[0]]);
      expect(last.body.meta).toEqual({ current: { limit: 2, count: 1 } });
    });

    it('filters by message and channel', async () => {
      const byMessage = await call('GET', `/notifications/v1/logs?messageId=${ids[2]}`);
      expect(byMessage.body.data).toEqual([expect.objectContaining({ uid: bob, messageId: ids[2] })]);
      const bySms = await call('GET', `/notifications/v1/logs?uid=${bob}&channel=sms`);
      expect(bySms.body.data).toEqual([]);
    });

    it("never shows one app another app's logs", async () => {
      expect((await call('GET', `/notifications/v1/logs?uid=${bob}`, asTwo)).body.data).toEqual([]);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=many', 'limit'],
      ['logId=abc', 'logId'],
      ['channel=fax', 'channel'],
      ['uid=not%20a%20uid', 'uid'],
    ])('refuses %s, naming the field', async (query, field) => {
      const response = await call('GET', `/notifications/v1/logs?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'ERR_BAD_REQUEST', details: { field } });
    });
  });

  describe('mute requests', () => {
    it.each([
      [{ conversations: [] }, 'conversations'],
      [{ conversations: [{ id: 'g1', type: 'channel' }] }, 'conversations.0.type'],
      [{ conversations: [{ id: 'g1', type: 'group', until: 'tomorrow' }] }, 'conversations.0.until'],
      [{ conversations: [{ id: 'g1', type: 'group', why: 'noise' }] }, 'conversations.0'],
      [{}, 'conversations'],
    ])('refuses %j, naming the field', async (body, field) => {
      const uid = uniqueId('user');
      await call('POST', '/users', { body: { uid, name: uid } });
      const response = await call('PUT', `/notifications/v1/preferences/mute?uid=${uid}`, { body });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'ERR_BAD_REQUEST', details: { field } });
    });

    it('refuses an unknown user with ERR_UID_NOT_FOUND', async () => {
      const response = await call('PUT', '/notifications/v1/preferences/mute?uid=nobody-at-all', {
        body: { conversations: [{ id: 'g1', type: 'group' }] },
      });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('ERR_UID_NOT_FOUND');
    });
  });
});
