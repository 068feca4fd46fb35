import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  APP_ONE,
  ENGINES,
  createTestStore,
  startTestServer,
  textMessage,
  uniqueId,
  type TestServer,
  type TestStore,
} from '../support.js';
import { Receiver, useWebhook } from './support.js';

/**
 * The chat server's own engine asks the realtime channel who is connected: push goes only to
 * users without an open WebSocket.
 */
describe.each(ENGINES)('push and WebSocket presence on %s', (engine) => {
  let store: TestStore;
  let api: TestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    store = await createTestStore(engine);
    receiver = await Receiver.start();
    api = await startTestServer(store);
    await useWebhook(api.call, 'push', `${receiver.url}/push`);
  });
  afterAll(async () => {
    await api?.close();
    await receiver?.close();
    await store?.dispose();
  });

  /** Logs `uid` in as a client would and opens its socket; resolves once the socket is authenticated. */
  async function connect(uid: string): Promise<WebSocket> {
    const login = await fetch(`${api.url}/v3/users/${uid}/auth_tokens`, {
      method: 'POST',
      headers: { apiKey: APP_ONE.authKey, appId: APP_ONE.appId },
    });
    const { authToken } = ((await login.json()) as { data: { authToken: string } }).data;
    const me = await fetch(`${api.url}/v3/me`, { headers: { authToken, appId: APP_ONE.appId } });
    const { jwt } = ((await me.json()) as { data: { jwt: string } }).data;
    const socket = new WebSocket(api.url.replace('http', 'ws'));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('open', () =>
        socket.send(JSON.stringify({ appId: APP_ONE.appId, type: 'auth', body: { auth: jwt } })),
      );
      socket.once('message', () => resolve());
    });
    return socket;
  }

  const decisionsFor = async (uid: string, messageId: string) => {
    await api.server.notifications.idle();
    const logs = await api.call('GET', `/notifications/v1/logs?uid=${uid}&messageId=${messageId}`);
    return logs.body.data.map((log: { reason: string | null }) => log.reason);
  };

  it('skips push while the user has a socket open, and pushes once it is closed', async () => {
    const [alice, bob] = [uniqueId('user'), uniqueId('user')];
    for (const uid of [alice, bob]) await api.call('POST', '/users', { body: { uid, name: uid } });
    const socket = await connect(bob);
    const whileOnline = await api.call('POST', '/messages', {
      body: textMessage(bob, 'live'),
      onBehalfOf: alice,
    });
    expect(await decisionsFor(bob, whileOnline.body.data.id)).toEqual(['USER_ONLINE']);

    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.close();
    });
    // The server notices the close on its own side of the socket.
    await expect
      .poll(async () => {
        const sent = await api.call('POST', '/messages', {
          body: textMessage(bob, 'later'),
          onBehalfOf: alice,
        });
        return decisionsFor(bob, sent.body.data.id);
      })
      .toEqual([null]);
  });
});
