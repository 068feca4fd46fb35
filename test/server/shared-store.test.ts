import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type Frame } from './client-support.js';
import {
  APP_ONE,
  APP_TWO,
  apiFixtures,
  createTestStore,
  startTestServer,
  testRedis,
  textMessage,
  uniqueId,
  type TestServer,
  type TestStore,
} from './support.js';

/**
 * Several chat-service processes (joined by Redis) may share one PostgreSQL database: what one of
 * them changes, the next request to another sees, even for the rows every message send reads;
 * what they cache (agents, client settings) follows as soon as the other's notice arrives.
 */
describe('two server instances on one PostgreSQL database', () => {
  let store: TestStore;
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    store = await createTestStore('postgres');
    const redis = testRedis();
    first = await startTestServer(store, { redis });
    second = await startTestServer(store, { redis });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await store?.dispose();
  });

  const fixtures = () => apiFixtures((...args) => first.call(...args));
  /**
   * Agents and client settings are cached per process: a change through one reaches the other's
   * cache by a notice over Redis, a moment later. Nothing else expires them, so only the notice
   * can make these pass.
   */
  const SEEN_WITHIN = { timeout: 15_000, interval: 50 };
  const sendThrough = (server: TestServer, sender: string, body: unknown) =>
    server.call('POST', '/messages', { body, onBehalfOf: sender });

  it('names a sender as the other instance renamed them', async () => {
    const alice = await fixtures().createUser();
    const bob = await fixtures().createUser();
    expect((await sendThrough(first, alice, textMessage(bob, 'before'))).status).toBe(200);
    expect((await second.call('PUT', `/users/${alice}`, { body: { name: 'Alice Renamed' } })).status).toBe(
      200,
    );
    const after = await sendThrough(first, alice, textMessage(bob, 'after'));
    expect(after.body.data.data.entities.sender.entity.name).toBe('Alice Renamed');
  });

  it('refuses a receiver the other instance deleted', async () => {
    const alice = await fixtures().createUser();
    const bob = await fixtures().createUser();
    expect((await sendThrough(first, alice, textMessage(bob, 'hi'))).status).toBe(200);
    expect((await second.call('DELETE', `/users/${bob}`)).status).toBe(200);
    const refused = await sendThrough(first, alice, textMessage(bob, 'still there?'));
    expect(refused.body.error.code).toBe('ERR_UID_NOT_FOUND');
  });

  it('refuses a member the other instance kicked, and counts the members it added', async () => {
    const owner = await fixtures().createUser();
    const member = await fixtures().createUser();
    const guid = await fixtures().createGroup(owner, [member]);
    expect((await sendThrough(first, member, textMessage(guid, 'in', 'group'))).status).toBe(200);
    expect((await second.call('DELETE', `/groups/${guid}/members/${member}`)).status).toBe(200);
    const kicked = await sendThrough(first, member, textMessage(guid, 'out?', 'group'));
    expect(kicked.body.error.code).toBe('ERR_NOT_A_MEMBER');
    const joiner = await fixtures().createUser();
    await second.call('POST', `/groups/${guid}/members`, { body: { participants: [joiner] } });
    const counted = await sendThrough(first, owner, textMessage(guid, 'welcome', 'group'));
    expect(counted.body.data.data.entities.receiver.entity.membersCount).toBe(2);
  });

  it('lists on one instance an agent the other registered after it had looked', async () => {
    expect((await second.call('GET', '/ai-agents')).body.data).toEqual([]);
    const registered = await first.call('POST', '/ai-agents', {
      body: {
        agentId: 'helper',
        provider: 'mastra',
        deploymentUrl: 'http://127.0.0.1:9/api/agents/helper/generate',
        name: 'Helper',
        namespace: 'docs',
        enabled: true,
      },
    });
    expect(registered.status).toBe(200);
    const listed = async () =>
      ((await second.call('GET', '/ai-agents')).body.data as Array<{ agentId: string }>).map(
        (agent) => agent.agentId,
      );
    await expect.poll(listed, SEEN_WITHIN).toEqual(['helper']);
  });

  it('reads on one instance the client settings the other changed after it had looked', async () => {
    expect((await second.call('GET', '/client-settings')).body.data.createUsersOnLogin).toBe(false);
    const changed = await first.call('PATCH', '/client-settings', { body: { createUsersOnLogin: true } });
    expect(changed.status).toBe(200);
    await expect
      .poll(
        async () => (await second.call('GET', '/client-settings')).body.data.createUsersOnLogin,
        SEEN_WITHIN,
      )
      .toBe(true);
  });

  it('stores each racing muid once, and both processes answer 200 with its id', async () => {
    const { createUser } = apiFixtures(first.call);
    const [alice, bob] = [await createUser('alice'), await createUser('bob')];
    const muids = Array.from({ length: 8 }, () => uniqueId('muid'));
    const races = await Promise.all(
      muids.map((muid) =>
        Promise.all(
          [first, second].map((server) =>
            server.call('POST', '/messages', {
              body: { ...textMessage(bob, muid), muid },
              onBehalfOf: alice,
            }),
          ),
        ),
      ),
    );
    for (const answers of races) {
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(answers[0]?.body.data.id).toBe(answers[1]?.body.data.id);
    }
    expect((await conversationTexts(second, alice, bob)).sort()).toEqual([...muids].sort());
  });
});

/** The texts of a one-to-one conversation, as `uid` lists them through `server`. */
async function conversationTexts(server: TestServer, uid: string, other: string): Promise<string[]> {
  const listed = await server.call('GET', `/users/${other}/messages?perPage=100`, { onBehalfOf: uid });
  expect(listed.status).toBe(200);
  return (listed.body.data as Array<{ data: { text?: string } }>).map((message) => message.data.text ?? '');
}

/** Sends the SDK's auth frame with `jwt` to the socket of `url` and resolves the answer. */
async function authenticateSocket(url: string, uid: string, jwt: string): Promise<Frame> {
  const socket = new WebSocket(url.replace(/^http/, 'ws'));
  try {
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const answer = new Promise<Frame>((resolve) =>
      socket.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as Frame;
        if (frame.type === 'auth') resolve(frame);
      }),
    );
    socket.send(
      JSON.stringify({
        appId: APP_ONE.appId,
        deviceId: 'other-process',
        type: 'auth',
        sender: uid,
        body: { auth: jwt, deviceId: 'other-process', presenceSubscription: 'ALL_USERS' },
      }),
    );
    return await answer;
  } finally {
    socket.close();
  }
}

/** Sessions and limits live in the shared stores, so any process behind the balancer may answer. */
describe('two instances joined by Redis share sessions and rate limits', () => {
  let store: TestStore;
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    store = await createTestStore('postgres');
    const redis = testRedis();
    const rateLimits = { corePerMinute: 2, standardPerMinute: 1_000 };
    first = await startTestServer(store, { redis, rateLimits });
    second = await startTestServer(store, { redis, rateLimits });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await store?.dispose();
  });

  it('accepts on one instance the auth token and socket token the other issued', async () => {
    await first.call('POST', '/users', { body: { uid: 'roaming', name: 'Roaming' } });
    const client = await connectClient(first, APP_ONE, 'roaming', { socket: false });
    const me = await fetch(`${second.url}/v3/me`, {
      headers: { appId: APP_ONE.appId, authToken: client.authToken },
    });
    expect(me.status).toBe(200);
    const answer = await authenticateSocket(second.url, 'roaming', client.jwt);
    expect(answer.body?.status).toBe('OK');
  });

  it('refuses on one instance a socket token for a session logged out through the other', async () => {
    await first.call('POST', '/users', { body: { uid: 'leaving', name: 'Leaving' } });
    const client = await connectClient(first, APP_ONE, 'leaving', { socket: false });
    expect((await client.call('DELETE', '/me')).status).toBe(200);
    const answer = await authenticateSocket(second.url, 'leaving', client.jwt);
    expect(answer.body?.status).toBe('ERROR');
  });

  it("counts an app's requests through both instances against one limit", async () => {
    // Creating users above spent two of the app's core operations: the limit is reached.
    const refused = await second.call('POST', '/users', { body: { uid: 'one-too-many', name: 'No' } });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('ERR_TOO_MANY_REQUESTS');
  });

  it("keeps another app's count apart", async () => {
    const other = await second.call('POST', '/users', {
      apikey: APP_TWO.apiKey,
      appId: APP_TWO.appId,
      body: { uid: 'elsewhere', name: 'Elsewhere' },
    });
    expect(other.status).toBe(200);
  });
});
