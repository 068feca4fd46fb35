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
import { customEmail } from '../../../server/notifications/providers/custom.js';
import {
  ManualClock,
  Receiver,
  SECRET,
  startNotifiedServer,
  useWebhook,
  type NotifiedServer,
} from './support.js';

/** The delivery routes' contracts: custom providers per channel, decision logs, mutes; validation and tenancy. */
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

  describe('/notifications/{channel}/v1/providers/custom', () => {
    const custom = (url: string, extra: Record<string, unknown> = {}) => ({
      isEnabled: true,
      webhookURL: url,
      useBasicAuth: true,
      basicAuthUsername: 'parley',
      basicAuthPassword: PASSWORD,
      signingSecret: SECRET,
      ...extra,
    });
    const PASSWORD = 'basic-auth-password-42';

    beforeAll(async () => {
      await call('PATCH', '/client-settings', { body: { apiActionOrigins: [receiver.url] } });
    });

    it('stores the provider and answers without its secrets', async () => {
      const response = await call('POST', '/notifications/sms/v1/providers/custom', {
        body: custom(`${receiver.url}/sms`, { useStoredPhNo: false }),
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        isEnabled: true,
        webhookURL: `${receiver.url}/sms`,
        useBasicAuth: true,
        basicAuthUsername: 'parley',
        useStoredPhNo: false,
        providerId: 'default',
        isDefault: true,
        updatedAt: expect.any(Number),
      });
      const listed = await call('GET', '/notifications/sms/v1/providers/custom');
      expect(listed.body.data).toEqual(response.body.data);
      expect(JSON.stringify(listed.body)).not.toContain(PASSWORD);
      expect(JSON.stringify(listed.body)).not.toContain(SECRET);
    });

    it('keeps the stored secrets when an update leaves them out', async () => {
      await call('POST', '/notifications/email/v1/providers/custom', {
        body: custom(`${receiver.url}/a`, { useStoredEmailID: false }),
      });
      const changed = await call('PUT', '/notifications/email/v1/providers/custom', {
        body: { webhookURL: `${receiver.url}/b`, isEnabled: false },
      });
      expect(changed.body.data).toMatchObject({ webhookURL: `${receiver.url}/b`, isEnabled: false });
      const [stored] = await server.engine.data.providers.ofKind(APP_ONE.appId, customEmail);
      expect(stored?.config).toMatchObject({
        basicAuthPassword: PASSWORD,
        signingSecret: SECRET,
        isEnabled: false,
      });
    });

    it('answers 404 to an update of a provider never saved', async () => {
      const response = await call('PUT', '/notifications/push/v1/providers/custom', {
        body: { isEnabled: false },
        ...asTwo,
      });
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({
        code: 'ERR_PROVIDER_NOT_FOUND',
        details: { field: 'providerId' },
      });
    });

    it('deletes the provider, which stops the channel', async () => {
      await call('PATCH', '/client-settings', { body: { apiActionOrigins: [receiver.url] }, ...asTwo });
      await call('POST', '/notifications/push/v1/providers/custom', {
        body: custom(`${receiver.url}/gone`),
        ...asTwo,
      });
      expect((await server.engine.data.providers.enabledChannels(APP_TWO.appId)).has('push')).toBe(true);
      const removed = await call('DELETE', '/notifications/push/v1/providers/custom', asTwo);
      expect(removed.body).toEqual({ data: {} });
      expect((await server.engine.data.providers.enabledChannels(APP_TWO.appId)).has('push')).toBe(false);
    });

    const refusals = [
      {
        name: 'an unknown channel',
        path: '/notifications/fax/v1/providers/custom',
        body: {},
        status: 404,
        code: 'ERR_PROVIDER_NOT_FOUND',
        field: 'channel',
      },
      {
        name: 'an unknown provider',
        path: '/notifications/push/v1/providers/pigeon',
        body: {},
        status: 404,
        code: 'ERR_PROVIDER_NOT_FOUND',
        field: 'provider',
      },
      {
        name: 'a provider of another channel',
        path: '/notifications/email/v1/providers/fcm',
        body: {},
        status: 404,
        code: 'ERR_PROVIDER_NOT_FOUND',
        field: 'provider',
      },
      {
        name: 'a URL that is not http(s)',
        path: '/notifications/push/v1/providers/custom',
        body: { webhookURL: 'ftp://127.0.0.1/x' },
        field: 'webhookURL',
      },
      {
        name: 'a URL longer than 255 characters',
        path: '/notifications/push/v1/providers/custom',
        body: { webhookURL: `${'http://h/'}${'x'.repeat(250)}` },
        field: 'webhookURL',
      },
      {
        name: 'a loopback URL whose origin the app does not allow',
        path: '/notifications/push/v1/providers/custom',
        body: { webhookURL: 'http://127.0.0.1:1/hook' },
        field: 'webhookURL',
      },
      {
        name: 'a URL carrying credentials, which belong in the write-only basic auth fields',
        path: '/notifications/push/v1/providers/custom',
        body: { webhookURL: 'https://ops:in-the-url@9.9.9.9/hook' },
        field: 'webhookURL',
      },
      {
        name: 'a private address',
        path: '/notifications/push/v1/providers/custom',
        body: { webhookURL: 'http://10.1.2.3/hook' },
        field: 'webhookURL',
      },
      {
        name: 'the cloud metadata address',
        path: '/notifications/push/v1/providers/custom',
        body: { webhookURL: 'http://169.254.169.254/latest' },
        field: 'webhookURL',
      },
      {
        name: 'localhost by name',
        path: '/notifications/push/v1/providers/custom',
        body: { webhookURL: 'http://localhost:8080/hook' },
        field: 'webhookURL',
      },
      {
        name: 'a signing secret shorter than 16 characters',
        path: '/notifications/push/v1/providers/custom',
        body: { signingSecret: 'short' },
        field: 'signingSecret',
      },
      {
        name: 'basic auth without a password',
        path: '/notifications/push/v1/providers/custom',
        body: { basicAuthPassword: undefined },
        field: 'basicAuthPassword',
      },
      {
        name: 'isEnabled that is not a boolean',
        path: '/notifications/push/v1/providers/custom',
        body: { isEnabled: 'yes' },
        field: 'isEnabled',
      },
      {
        name: 'a missing useStoredEmailID',
        path: '/notifications/email/v1/providers/custom',
        body: {},
        field: 'useStoredEmailID',
      },
      {
        name: 'an unknown member',
        path: '/notifications/push/v1/providers/custom',
        body: { headers: {} },
        field: 'body',
      },
    ];

    it.each(refusals)('refuses $name, naming the field', async ({ path, body, field, status, code }) => {
      const response = await call('POST', path, { body: { ...custom(`${receiver.url}/x`), ...body } });
      expect(response.status).toBe(status ?? 400);
      expect(response.body.error).toMatchObject({ code: code ?? 'ERR_BAD_REQUEST', details: { field } });
    });

    it('refuses an authOnly key', async () => {
      const response = await call('POST', '/notifications/push/v1/providers/custom', {
        body: custom(`${receiver.url}/push`),
        apikey: APP_ONE.authKey,
      });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('AUTH_ERR_NO_ACCESS');
    });

    it.each(['GET', 'PUT', 'DELETE'])(
      "serves no %s of Parley's old webhook routes: the provider routes are the one way",
      async (method) => {
        const response = await call(method, '/notifications/v1/webhooks/push', {
          body: method === 'GET' ? undefined : custom(`${receiver.url}/old`),
        });
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('ERR_API_NOT_FOUND');
      },
    );

    it("never shows one app another app's providers", async () => {
      expect((await call('GET', '/notifications/sms/v1/providers/custom', asTwo)).body).toEqual({ data: {} });
    });
  });

  describe('GET /notifications/v1/logs', () => {
    let bob: string;
    let alice: string;
    const ids: string[] = [];

    beforeAll(async () => {
      await useWebhook(call, 'push', `${receiver.url}/push`);
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
