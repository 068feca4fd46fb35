import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from '../client-support.js';
import { APP_ONE, APP_TWO, ENGINES, createTestStore, uniqueId, type TestStore } from '../support.js';
import { startNotifiedServer, type NotifiedServer } from './support.js';

/**
 * Tokens, contact details and per-user state from the client API and the REST API, written as the
 * attacker: another user, another app, a client calling the server's routes.
 */
describe.each(ENGINES)('notification tokens and contact details on %s', (engine) => {
  let store: TestStore;
  let server: NotifiedServer;
  let alice: TestClient;
  let bob: TestClient;
  const call: NotifiedServer['api']['call'] = (...args) => server.api.call(...args);
  const asTwo = { apikey: APP_TWO.apiKey, appId: APP_TWO.appId };

  beforeAll(async () => {
    store = await createTestStore(engine);
    server = await startNotifiedServer(store);
    const login = async (uid: string): Promise<TestClient> => {
      await call('POST', '/users', { body: { uid, name: uid } });
      return connectClient(server.api.server, APP_ONE, uid, { socket: false });
    };
    alice = await login(uniqueId('alice'));
    bob = await login(uniqueId('bob'));
    await alice.call('POST', '/notifications/push/v1/tokens', {
      platform: 'fcm_web',
      fcmToken: 'alice-token',
    });
    await alice.call('PATCH', '/notifications/v1/contact-details', {
      email: 'alice@example.com',
      phno: '+14155550111',
    });
  });
  afterAll(async () => {
    await server?.close();
    await store?.dispose();
  });

  it('shows a user their own contact details', async () => {
    expect((await alice.call('GET', '/notifications/v1/contact-details')).body).toEqual({
      data: { email: 'alice@example.com', phno: '+14155550111' },
    });
  });

  it("never shows a client another user's contact details, whatever uid it names", async () => {
    const answer = await bob.call('GET', `/notifications/v1/contact-details?uid=${alice.uid}`);
    expect(answer.body).toEqual({ data: {} });
    expect(JSON.stringify(answer.body)).not.toContain('alice@example.com');
  });

  it('never lets a client change another user’s contact details', async () => {
    await bob.call('PATCH', `/notifications/v1/contact-details?uid=${alice.uid}`, {
      email: 'mallory@example.com',
    });
    const stored = await call('GET', '/notifications/v1/contact-details', { onBehalfOf: alice.uid });
    expect(stored.body.data.email).toBe('alice@example.com');
  });

  it("keeps contact details out of the user's own profile and other users' views of them", async () => {
    const viewed = await bob.call('GET', `/users/${alice.uid}`);
    expect(JSON.stringify(viewed.body)).not.toMatch(/alice@example\.com|\+14155550111/);
  });

  it('removes contact details, and clears one detail with null', async () => {
    const uid = uniqueId('carol');
    await call('POST', '/users', { body: { uid, name: uid } });
    await call('PATCH', '/notifications/v1/contact-details', {
      body: { email: 'c@example.com', phno: '+14155550122' },
      onBehalfOf: uid,
    });
    const cleared = await call('PATCH', '/notifications/v1/contact-details', {
      body: { phno: null },
      onBehalfOf: uid,
    });
    expect(cleared.body.data).toEqual({ email: 'c@example.com' });
    expect((await call('DELETE', '/notifications/v1/contact-details', { onBehalfOf: uid })).body).toEqual({
      data: { success: true },
    });
    expect((await call('GET', `/notifications/v1/contact-details?uid=${uid}`)).body).toEqual({ data: {} });
  });

  it.each([
    { field: 'email', body: { email: 'not-an-address' } },
    { field: 'phno', body: { phno: '0612345678' } },
    { field: 'body', body: { fax: '+1' } },
  ])('refuses a bad $field, naming it', async ({ field, body }) => {
    const answer = await bob.call('PATCH', '/notifications/v1/contact-details', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toMatchObject({ field });
  });

  it('asks the server to name the user of contact details', async () => {
    const answer = await call('GET', '/notifications/v1/contact-details');
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toMatchObject({ field: 'uid' });
  });

  it("lists a client's own session tokens only", async () => {
    await bob.call('POST', '/notifications/push/v1/tokens', { platform: 'fcm_web', fcmToken: 'bob-token' });
    const listed = await bob.call('GET', '/notifications/push/v1/tokens');
    expect(listed.body.data.map((t: { token: string }) => t.token)).toEqual(['bob-token']);
  });

  it("cannot delete another user's push token", async () => {
    const answer = await bob.call('DELETE', '/notifications/push/v1/tokens/alice-token');
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('ERR_PUSH_TOKEN_NOT_FOUND');
    const kept = await call('GET', `/notifications/push/v1/tokens?uid=${alice.uid}`);
    expect(kept.body.data.map((t: { token: string }) => t.token)).toEqual(['alice-token']);
  });

  it('takes over a token registered again by another user (one device, one user)', async () => {
    const mallory = await connectClient(server.api.server, APP_ONE, bob.uid, { socket: false });
    await mallory.call('POST', '/notifications/push/v1/tokens', {
      platform: 'fcm_web',
      fcmToken: 'shared-device',
    });
    await alice.call('POST', '/notifications/push/v1/tokens', {
      platform: 'fcm_web',
      fcmToken: 'shared-device',
    });
    const bobs = await call('GET', `/notifications/push/v1/tokens?uid=${bob.uid}`);
    expect(bobs.body.data.map((t: { token: string }) => t.token)).not.toContain('shared-device');
    await alice.call('DELETE', '/notifications/push/v1/tokens/shared-device');
  });

  it("lists and deletes a session's tokens from the REST API by its authToken", async () => {
    const session = await connectClient(server.api.server, APP_ONE, bob.uid, { socket: false });
    await session.call('POST', '/notifications/push/v1/tokens', {
      platform: 'fcm_android',
      fcmToken: 'bob-phone',
    });
    const listed = await call('GET', `/notifications/push/v1/tokens?authToken=${session.authToken}`);
    expect(listed.body.data.map((t: { token: string }) => t.token)).toEqual(['bob-phone']);
    const all = await call('GET', `/notifications/push/v1/tokens?authToken=${session.authToken}&all=true`);
    expect(all.body.data.map((t: { token: string }) => t.token).sort()).toEqual(['bob-phone', 'bob-token']);
    await call('DELETE', '/notifications/push/v1/tokens', { body: { authToken: session.authToken } });
    const after = await call('GET', `/notifications/push/v1/tokens?uid=${bob.uid}`);
    expect(after.body.data.map((t: { token: string }) => t.token)).toEqual(['bob-token']);
  });

  it("registers a token for a session's device from the REST API, by its authToken", async () => {
    const session = await connectClient(server.api.server, APP_ONE, bob.uid, { socket: false });
    const registered = await call('POST', '/notifications/push/v1/tokens', {
      body: {
        platform: 'fcm_ios',
        fcmToken: 'bob-tablet',
        authToken: session.authToken,
        timezone: 'Europe/Paris',
      },
    });
    expect(registered.status).toBe(200);
    const own = await session.call('GET', '/notifications/push/v1/tokens');
    expect(own.body.data.map((t: { token: string }) => t.token)).toEqual(['bob-tablet']);
    expect((await session.call('GET', '/notifications/v1/preferences/timezone')).body.data.timezone).toBe(
      'Europe/Paris',
    );
    await call('DELETE', '/notifications/push/v1/tokens', { body: { authToken: session.authToken } });
  });

  it.each([
    [{ platform: 'fcm_web', fcmToken: 'no-session' }, 400, 'authToken'],
    [{ platform: 'fcm_web', fcmToken: 'x', authToken: 'no-such-session' }, 404, 'authToken'],
    [{ platform: 'fcm_web', fcmToken: 'x', authToken: 42 }, 400, 'authToken'],
    [{ platform: 'pager', fcmToken: 'x', authToken: 'later' }, 400, 'platform'],
  ])('refuses a REST registration %j with %i naming %s', async (body, status, field) => {
    const session = await connectClient(server.api.server, APP_ONE, bob.uid, { socket: false });
    const named =
      'authToken' in body && body.authToken === 'later' ? { ...body, authToken: session.authToken } : body;
    const answer = await call('POST', '/notifications/push/v1/tokens', { body: named });
    expect(answer.status).toBe(status);
    expect(answer.body.error.details.field).toBe(field);
  });

  it("registers no token for another app's session", async () => {
    const answer = await call('POST', '/notifications/push/v1/tokens', {
      ...asTwo,
      body: { platform: 'fcm_web', fcmToken: 'stolen', authToken: bob.authToken },
    });
    expect(answer.status).toBe(404);
    expect((await bob.call('GET', '/notifications/push/v1/tokens')).body.data).not.toContainEqual(
      expect.objectContaining({ token: 'stolen' }),
    );
  });

  it('deletes every token of a user with all=true', async () => {
    const uid = uniqueId('dave');
    await call('POST', '/users', { body: { uid, name: uid } });
    const dave = await connectClient(server.api.server, APP_ONE, uid, { socket: false });
    await dave.call('POST', '/notifications/push/v1/tokens', { platform: 'fcm_web', fcmToken: 'dave-1' });
    await dave.call('DELETE', '/notifications/push/v1/tokens?all=true');
    expect((await call('GET', `/notifications/push/v1/tokens?uid=${uid}`)).body.data).toEqual([]);
  });

  it("never shows another app a user's tokens", async () => {
    const answer = await call('GET', `/notifications/push/v1/tokens?uid=${alice.uid}`, asTwo);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('ERR_UID_NOT_FOUND');
  });

  it('refuses a token registration without its token field, naming it', async () => {
    const answer = await bob.call('POST', '/notifications/push/v1/tokens', {
      platform: 'apns_ios_device',
      fcmToken: 'x',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toMatchObject({ field: 'deviceToken' });
  });

  it.each([
    ['GET', '/notifications/push/v1/providers/fcm'],
    ['POST', '/notifications/push/v1/providers/custom'],
    ['GET', '/notifications/v1/logs'],
    ['GET', '/notifications/v1/preferences/mute'],
  ])('answers a client that calls the server route %s %s as if it did not exist', async (method, path) => {
    const answer = await bob.call(method, path, method === 'GET' ? undefined : {});
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('ERR_API_NOT_FOUND');
  });
  describe('POST /notifications/v1/test', () => {
    it('queues one test notification for the user, logged like a decision', async () => {
      const answer = await call('POST', '/notifications/v1/test', { body: { channel: 'sms', uid: bob.uid } });
      expect(answer.body.data.outboxId).toEqual(expect.any(Number));
      const logs = await call('GET', `/notifications/v1/logs?uid=${bob.uid}&channel=sms`);
      expect(logs.body.data[0]).toMatchObject({
        trigger: 'test',
        channel: 'sms',
        notificationTriggered: true,
      });
    });

    it("refuses another app's user, an unknown channel, and a client", async () => {
      const elsewhere = await call('POST', '/notifications/v1/test', {
        body: { channel: 'push', uid: alice.uid },
        ...asTwo,
      });
      expect(elsewhere.body.error.code).toBe('ERR_UID_NOT_FOUND');
      const fax = await call('POST', '/notifications/v1/test', { body: { channel: 'fax', uid: alice.uid } });
      expect(fax.status).toBe(400);
      expect(fax.body.error.details).toMatchObject({ field: 'channel' });
      const client = await bob.call('POST', '/notifications/v1/test', { channel: 'push', uid: alice.uid });
      expect(client.body.error.code).toBe('ERR_API_NOT_FOUND');
    });
  });
});
