import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentConfigFromEnv, openAgentEngine, startAgentServer } from '../../knowledge/server/index.js';
import type { KnowledgeEngine } from '../../knowledge/index.js';
import { Receiver, SECRET } from '../server/notifications/support.js';
import { createTestStore, testRedis, type TestRedis, type TestStore } from '../server/support.js';
import { ChatProcesses } from '../support/chat-cluster.js';
import { startBalancer, type Balancer } from '../support/nginx.js';
import { NodeSdkUser, type SdkUser } from './sdk/drivers.js';
import type { SdkEvent } from './sdk/sdk-ops.js';
import { parleyCommand } from '../support/built.js';

/**
 * Three `parley chat-server` processes on one PostgreSQL database, joined by Redis, behind a real
 * nginx (Debian's package, the configuration of server/README.md) on loopback. Every client —
 * CometChat's official SDK and REST callers — reaches them only through the balancer, which picks
 * a process per request and per socket (round robin, no sticky sessions).
 */
const APP = { appId: 'balanced', apiKey: 'balanced-full-key', authKey: 'balanced-auth-key' };
/** Short, so the killed process's users go offline within the test. */
const PRESENCE_TTL_SECONDS = 3;
const HANDBOOK = `# Office handbook

## Parking
Visitors park in the north garage on level two. The garage opens at seven in the morning.`;

let store: TestStore;
let redis: TestRedis;
let redisClient: Redis;
let balancer: Balancer;
let receiver: Receiver;
let agentDir: string;
let engine: KnowledgeEngine;
let agent: Awaited<ReturnType<typeof startAgentServer>>;
let processes: ChatProcesses;
const sdkUsers: SdkUser[] = [];
let dispatcher: Agent;

/** The server REST API through the balancer, as a backend calls it. */
async function api(method: string, path: string, body?: unknown, onBehalfOf?: string) {
  const response = await undiciFetch(`${balancer.url}/v3${path}`, {
    method,
    dispatcher,
    headers: {
      'content-type': 'application/json',
      apikey: APP.apiKey,
      appid: APP.appId,
      ...(onBehalfOf === undefined ? {} : { onBehalfOf }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as any };
}

async function createUsers(...uids: string[]): Promise<void> {
  for (const uid of uids) expect((await api('POST', '/users', { uid, name: uid })).status).toBe(200);
}

/** An SDK user whose every request and socket goes through the balancer. */
async function sdkUser(uid: string): Promise<SdkUser> {
  const user = await NodeSdkUser.start({
    caFile: balancer.certPath,
    storageFile: join(agentDir, `${uid}.storage.json`),
  });
  sdkUsers.push(user);
  expect(await user.call('init', APP.appId, `localhost:${balancer.port}/v3`, true)).toBeNull();
  expect(await user.call('login', uid, APP.authKey)).toMatchObject({ uid });
  return user;
}

/** The pid of the process holding `uid`'s socket, read from the presence claims in Redis. */
async function pidHolding(uid: string): Promise<number> {
  const key = `${redis.prefix}presence:${JSON.stringify([APP.appId, uid])}`;
  for (;;) {
    const [claim] = await redisClient.zrange(key, 0, 0);
    if (claim !== undefined) return Number(claim.split(':')[1]);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const isMessage = (text: string) => (event: SdkEvent) => event.kind === 'message' && event.text === text;

beforeAll(async () => {
  store = await createTestStore('postgres');
  redis = testRedis();
  redisClient = new Redis(redis.url);
  receiver = await Receiver.start();
  agentDir = mkdtempSync(join(tmpdir(), 'parley-balanced-agent-'));
  const config = agentConfigFromEnv({}, join(agentDir, 'agent'));
  engine = await openAgentEngine(join(agentDir, 'agent'), config);
  await engine.ingest('handbook', [{ kind: 'text', title: 'Office handbook', text: HANDBOOK }]);
  agent = await startAgentServer({ config, backend: engine, host: '127.0.0.1', port: 0 });
  processes = new ChatProcesses({
    command: await parleyCommand(),
    app: APP,
    args: ['--rate-limit', 'off', '--presence-ttl', String(PRESENCE_TTL_SECONDS)],
    env: { DATABASE_URL: store.databaseUrl ?? '', REDIS_URL: redis.url, PARLEY_REDIS_PREFIX: redis.prefix },
  });
  await processes.startMany(3);
  balancer = await startBalancer(processes.urls.map((url) => new URL(url).host));
  dispatcher = new Agent({ connect: { ca: readFileSync(balancer.certPath, 'utf8') } });
});

afterAll(async () => {
  await Promise.all(sdkUsers.map((user) => user.close()));
  await balancer?.stop();
  await processes?.dispose();
  await dispatcher?.close();
  redisClient?.disconnect();
  await receiver?.close();
  await agent?.close();
  await engine?.close();
  await store?.dispose();
  if (agentDir !== undefined) rmSync(agentDir, { recursive: true, force: true });
});

describe('three chat-server processes behind nginx', () => {
  let alice: SdkUser;
  let bob: SdkUser;

  beforeAll(async () => {
    // Before any chat event, so no process has cached the app's webhooks yet (they are re-read
    // every few seconds, and at once only by the process that changed them).
    // The receiver is on loopback: the app must allow its origin, as an operator would.
    await api('PATCH', '/client-settings', { apiActionOrigins: [receiver.url] });
    const configured = await api('POST', '/notifications/push/v1/providers/custom', {
      isEnabled: true,
      webhookURL: `${receiver.url}/push`,
      useBasicAuth: false,
      signingSecret: SECRET,
    });
    expect(configured.status).toBe(200);
    await createUsers('alice', 'bob', 'carol', 'dora');
    alice = await sdkUser('alice');
    bob = await sdkUser('bob');
    // Logged in is not yet connected: typing and receipts need both sockets up.
    await bob.next((event) => event.kind === 'connected', 'bob connected');
    await alice.next((event) => event.kind === 'online' && event.uid === 'bob', 'bob online');
  });

  it('answers readiness through the balancer', async () => {
    const response = await undiciFetch(`${balancer.url}/readyz`, { dispatcher });
    expect(response.status).toBe(200);
  });

  it('passes messages, typing, read receipts and presence between SDK users', async () => {
    await bob.call('typing', 'alice', 'start');
    await alice.next((event) => event.kind === 'typingStarted' && event.sender === 'bob', 'typing from bob');
    const sent = await alice.call<SdkEvent>('sendText', 'bob', 'user', 'hello through nginx');
    await bob.next(isMessage('hello through nginx'), 'the message from alice');
    await bob.call('markAsRead', sent.id);
    await alice.next((event) => event.kind === 'read' && event.messageId === sent.id, 'the read receipt');
    const carol = await sdkUser('carol');
    await alice.next((event) => event.kind === 'online' && event.uid === 'carol', 'carol online');
    await carol.call('logout');
    await alice.next((event) => event.kind === 'offline' && event.uid === 'carol', 'carol offline');
  });

  it('keeps every answered message exactly once when a process is killed mid-traffic, and its clients reconnect and catch up', async () => {
    const victim = await pidHolding('bob');
    const killed = processes.started.find(({ child }) => child.pid === victim);
    if (killed === undefined) throw new Error(`no test process has pid ${victim}`);
    const marker = await alice.call<SdkEvent>('sendText', 'bob', 'user', 'before the burst');
    const answered: string[] = [];
    const refused: string[] = [];
    const send = async (index: number) => {
      const text = `burst ${index}`;
      const viaSdk = index % 2 === 0;
      try {
        if (viaSdk) await alice.call('sendText', 'bob', 'user', text);
        else {
          const response = await api(
            'POST',
            '/messages',
            { receiver: 'bob', receiverType: 'user', category: 'message', type: 'text', data: { text } },
            'alice',
          );
          if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
        }
        answered.push(text);
      } catch {
        refused.push(text);
      }
    };
    // Two streams of sends (SDK and REST); the kill lands while the other stream's send is in flight.
    let died: Promise<unknown> | undefined;
    const stream = async (indices: number[]) => {
      for (const index of indices) {
        await send(index);
        if (died === undefined && answered.length >= 6) {
          died = new Promise((resolve) => killed.child.once('exit', resolve));
          killed.child.kill('SIGKILL');
        }
      }
    };
    const indices = Array.from({ length: 20 }, (_, index) => index);
    await Promise.all([
      stream(indices.filter((index) => index % 2 === 0)),
      stream(indices.filter((index) => index % 2 === 1)),
    ]);
    await died;
    // Its clients' sockets dropped with it; the SDK reconnects through the balancer to a live process.
    await bob.next((event) => event.kind === 'disconnected', 'bob disconnected');
    await bob.next((event) => event.kind === 'connected', 'bob reconnected');
    const before = await bob.call<SdkEvent[]>('historyAfter', 'alice', marker.id);
    const texts = before.map((message) => message.text as string).filter((text) => text.startsWith('burst'));
    for (const text of answered) expect(texts.filter((seen) => seen === text)).toEqual([text]);
    expect(new Set(texts).size).toBe(texts.length);
    // nginx passes a request whose process refuses the connection to the next one: only what was
    // in flight at the kill can fail.
    expect(refused.length).toBeLessThanOrEqual(2);
    // Live again: a message sent now reaches bob over his new socket.
    await alice.call('sendText', 'bob', 'user', 'after the crash');
    await bob.next(isMessage('after the crash'), 'a message after reconnecting');
  });

  it('delivers each notification webhook once with the surviving processes sharing the outbox', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      const sent = await api(
        'POST',
        '/messages',
        {
          receiver: 'dora',
          receiverType: 'user',
          category: 'message',
          type: 'text',
          data: { text: `ping ${index}` },
        },
        'alice',
      );
      expect(sent.status).toBe(200);
      ids.push(String(sent.body.data.id));
    }
    const toDora = () => receiver.callsTo('/push').filter((call) => call.body.data.to.uid === 'dora');
    await expect
      .poll(() => toDora().length, { timeout: 30_000, interval: 50 })
      .toBeGreaterThanOrEqual(ids.length);
    const calls = toDora();
    const keys = calls.map((call) => call.body.id as string);
    expect(new Set(keys).size).toBe(keys.length);
    const delivered = calls.map((call) => String(call.body.data.notificationDetails.tag)).sort();
    expect(delivered).toEqual([...ids].sort());
  });

  it('answers a mention of the agent once', async () => {
    const registered = await api('POST', '/ai-agents', {
      agentId: 'knowledge',
      provider: 'mastra',
      deploymentUrl: `${agent.apiUrl}/agents/knowledge/generate`,
      name: 'Knowledge',
      namespace: 'handbook',
      enabled: true,
    });
    expect(registered.status).toBe(200);
    const group = await api('POST', '/groups', {
      guid: 'office',
      name: 'Office',
      type: 'public',
      owner: 'alice',
      members: { participants: ['bob', 'knowledge'] },
    });
    expect(group.status).toBe(200);
    const isAnswer = (event: SdkEvent) => event.kind === 'message' && event.sender === 'knowledge';
    await alice.call('sendText', 'office', 'group', '@agent where do visitors park?');
    expect((await bob.next(isAnswer, 'the first answer')).text).toMatch(/north garage/i);
    await alice.call('sendText', 'office', 'group', '@agent where do visitors park?');
    await bob.next(isAnswer, 'the second answer');
    const history = await api('GET', '/groups/office/messages?per_page=100', undefined, 'alice');
    expect(history.status).toBe(200);
    const answers = (history.body.data as Array<{ sender: string }>).filter(
      (message) => message.sender === 'knowledge',
    );
    expect(answers).toHaveLength(2);
  });
});
