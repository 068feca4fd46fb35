import { afterAll, describe, expect, it, vi } from 'vitest';
import { connectClient, type TestClient } from '../server/client-support.js';
import { APP_ONE, ENGINES, apiFixtures, textMessage, useTestServer } from '../server/support.js';

const SESSION_ENDED = { code: 4001, reason: 'session ended' };

/** Waits for a socket to close, failing with what was expected instead of hanging. */
function closedWithin(client: TestClient, what: string, ms = 15_000) {
  return Promise.race([
    client.closed,
    new Promise<never>((_resolve, reject) =>
      setTimeout(() => reject(new Error(`${what} stayed open for ${ms} ms`)), ms).unref(),
    ),
  ]);
}

/**
 * The attack: a session is revoked (a token deleted or flushed, the user deleted or deactivated),
 * and its already open socket keeps listening. Every revocation must close the sockets it covers
 * at once, and those sockets must receive nothing sent afterwards.
 */
describe.each(ENGINES)('revoked sessions lose their sockets on %s', (engine) => {
  const api = useTestServer(engine);
  const { createUser } = apiFixtures(api.call);
  const clients: TestClient[] = [];
  afterAll(async () => {
    for (const client of clients) await client.close();
  });

  const connect = async (uid: string) => {
    const client = await connectClient(api.server, APP_ONE, uid);
    clients.push(client);
    return client;
  };

  /** Sends `to` a message after the revocation; `listener` (still connected) must receive it. */
  const sendAfter = async (to: string, listener: TestClient) => {
    const sender = await createUser('sender');
    const sent = await api.call('POST', '/messages', {
      body: textMessage(to, 'after the revocation'),
      onBehalfOf: sender,
    });
    expect(sent.status).toBe(200);
    const id = sent.body.data.id as string;
    await listener.next((frame) => frame.type === 'message' && frame.body?.id === id, 'the later message');
    return id;
  };
  const received = (client: TestClient, id: string) => client.frames.some((frame) => frame.body?.id === id);

  it("deleting one auth token closes that session's socket and no other", async () => {
    const victim = await createUser('victim');
    const revoked = await connect(victim);
    const kept = await connect(victim);
    const response = await api.call('DELETE', `/users/${victim}/auth_tokens/${revoked.authToken}`);
    expect(response.status).toBe(200);
    expect(await closedWithin(revoked, 'the socket of the deleted token')).toEqual(SESSION_ENDED);
    const later = await sendAfter(victim, kept);
    expect(received(revoked, later)).toBe(false);
  });

  it("flushing a user's tokens closes every socket of that user", async () => {
    const victim = await createUser('victim');
    const bystander = await createUser('bystander');
    const sockets = [await connect(victim), await connect(victim)];
    const watching = await connect(bystander);
    const response = await api.call('DELETE', `/users/${victim}/auth_tokens`);
    expect(response.status).toBe(200);
    expect(response.body.data.success).toBe(true);
    expect((await api.call('GET', `/users/${victim}/auth_tokens`)).body.data).toEqual([]);
    for (const socket of sockets)
      expect(await closedWithin(socket, 'a flushed socket')).toEqual(SESSION_ENDED);
    // Another user's socket is untouched.
    await sendAfter(bystander, watching);
  });

  for (const [kind, body] of [
    ['deactivating', undefined],
    ['permanently deleting', { permanent: true }],
  ] as const) {
    it(`${kind} a user closes their sockets, so they can neither listen nor type`, async () => {
      const victim = await createUser('victim');
      const peer = await createUser('peer');
      const socket = await connect(victim);
      const peerSocket = await connect(peer);
      const response = await api.call('DELETE', `/users/${victim}`, body === undefined ? {} : { body });
      expect(response.status).toBe(200);
      expect(await closedWithin(socket, "the deleted user's socket")).toEqual(SESSION_ENDED);
      socket.send({ type: 'typing_indicator', receiver: peer, receiverType: 'user', body: {} });
      // A message sent after the typing attempt arrives; the typing frame never did.
      const later = await sendAfter(peer, peerSocket);
      expect(received(peerSocket, later)).toBe(true);
      expect(peerSocket.frames.some((frame) => frame.type === 'typing_indicator')).toBe(false);
    });
  }

  it('a login past the 50 kept sessions closes the socket of the session it ends', async () => {
    const victim = await createUser('victim');
    const oldest = await connect(victim);
    const [token] = (await api.call('GET', `/users/${victim}/auth_tokens`)).body.data as {
      createdAt: number;
    }[];
    // Tokens are ordered by their creation second: the next logins must come a second later.
    await vi.waitUntil(() => Date.now() / 1000 >= (token?.createdAt ?? 0) + 1, {
      timeout: 5_000,
      interval: 50,
    });
    for (let login = 0; login < 50; login += 1) {
      const response = await fetch(`${api.url}/v3/users/${victim}/auth_tokens`, {
        method: 'POST',
        headers: { appId: APP_ONE.appId, apiKey: APP_ONE.authKey },
      });
      expect(response.status).toBe(200);
    }
    expect(await closedWithin(oldest, 'the socket of the pruned session')).toEqual(SESSION_ENDED);
  });

  it("logging out (DELETE /me) closes that session's socket", async () => {
    const victim = await createUser('victim');
    const socket = await connect(victim);
    expect((await socket.call('DELETE', '/me')).status).toBe(200);
    expect(await closedWithin(socket, 'the logged-out socket')).toEqual(SESSION_ENDED);
  });
});
