import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatProcesses, type ChatProcess } from '../support/chat-cluster.js';
import { sendJson, startRecordingServer } from '../support/http.js';
import { RedisServer } from '../support/redis-server.js';
import { withPostgresAdmin } from '../support/stores.js';
import { connectClient, type Frame, type TestClient } from '../server/client-support.js';
import {
  callServerApi,
  createTestStore,
  orderForm,
  testRedis,
  textMessage,
  uniqueId,
  type TestRedis,
  type TestStore,
} from '../server/support.js';
import { NodeSdkUser, type SdkUser } from './sdk/drivers.js';
import { LUNCH_SURVEY } from './sdk/fixtures.js';
import type { SdkEvent } from './sdk/sdk-ops.js';
import { parleyCommand } from '../support/built.js';

const APP = { appId: 'scale', apiKey: 'scale-full-key', authKey: 'scale-auth-key' };
/** Short, so a killed process's users go offline within the test; renewed every third of it. */
const PRESENCE_TTL_SECONDS = 3;

/** Real `parley chat-server` processes (TLS on, for the SDK), each with its own data dir. */
const processes = new ChatProcesses({
  command: await parleyCommand(),
  app: APP,
  args: ['--rate-limit', 'off', '--tls', '--presence-ttl', String(PRESENCE_TTL_SECONDS)],
});
const startProcess = (env: Record<string, string>, dataDir?: string): Promise<ChatProcess> =>
  processes.start({ env, ...(dataDir === undefined ? {} : { dataDir }) });

const joinedEnv = (store: TestStore, redis: TestRedis) => ({
  DATABASE_URL: store.databaseUrl ?? '',
  REDIS_URL: redis.url,
  PARLEY_REDIS_PREFIX: redis.prefix,
});

const serverApi = (server: ChatProcess, method: string, path: string, options = {}) =>
  callServerApi(server.url, APP, method, path, options);

const isMessage = (text: string) => (frame: Frame) =>
  frame.type === 'message' && frame.body?.data?.text === text;
const isPresence = (uid: string, action: string) => (frame: Frame) =>
  frame.type === 'presence' && frame.sender === uid && frame.body?.action === action;

async function createUsers(server: ChatProcess, ...uids: string[]): Promise<void> {
  for (const uid of uids) {
    const created = await serverApi(server, 'POST', '/users', { body: { uid, name: uid } });
    expect(created.status).toBe(200);
  }
}

afterAll(() => processes.dispose());

describe('two chat-server processes joined by Redis on one PostgreSQL database', () => {
  let store: TestStore;
  let redis: TestRedis;
  let first: ChatProcess;
  let second: ChatProcess;
  const clients: TestClient[] = [];
  const connect = async (server: ChatProcess, uid: string) => {
    const client = await connectClient(server, APP, uid);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    store = await createTestStore('postgres');
    redis = testRedis();
    first = await startProcess(joinedEnv(store, redis));
    second = await startProcess(joinedEnv(store, redis));
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    for (const server of [first, second])
      if (server !== undefined && server.child.exitCode === null) {
        const exited = new Promise((resolve) => server.child.once('exit', resolve));
        server.child.kill('SIGTERM');
        await exited;
      }
    await store?.dispose();
  });

  it('delivers a message sent over REST through one process to a socket held by the other', async () => {
    const [alice, bob] = [uniqueId('alice'), uniqueId('bob')];
    await createUsers(first, alice, bob);
    const aliceOnSecond = await connect(second, alice);
    const sent = await serverApi(first, 'POST', '/messages', {
      body: textMessage(alice, 'across processes'),
      onBehalfOf: bob,
    });
    expect(sent.status).toBe(200);
    const received = await aliceOnSecond.next(
      isMessage('across processes'),
      'the message via the first process',
    );
    expect(received.body.id).toBe(sent.body.data.id);
  });

  it('relays typing from a socket on one process to a socket on the other', async () => {
    const [alice, bob] = [uniqueId('alice'), uniqueId('bob')];
    await createUsers(first, alice, bob);
    const aliceOnFirst = await connect(first, alice);
    const bobOnSecond = await connect(second, bob);
    aliceOnFirst.send({
      appId: APP.appId,
      type: 'typing_indicator',
      receiver: bob,
      receiverType: 'user',
      deviceId: aliceOnFirst.deviceId,
      body: { action: 'started' },
    });
    const typing = await bobOnSecond.next(
      (frame) => frame.type === 'typing_indicator' && frame.sender === alice,
      'typing from the first process',
    );
    expect(typing.body.action).toBe('started');
  });

  it('tells a watcher on one process that a user came online and went offline on the other', async () => {
    const [watcher, dave] = [uniqueId('watcher'), uniqueId('dave')];
    await createUsers(first, watcher, dave);
    const watching = await connect(first, watcher);
    const daveOnSecond = await connect(second, dave);
    await watching.next(isPresence(dave, 'online'), 'dave online via the second process');
    await daveOnSecond.close();
    await watching.next(isPresence(dave, 'offline'), 'dave offline via the second process');
    // The status is stored right after the presence frame goes out: wait for the write.
    await expect
      .poll(async () => (await serverApi(first, 'GET', `/users/${dave}`)).body.data.status, {
        timeout: 15_000,
      })
      .toBe('offline');
  });

  it('keeps a user online while another process still holds a socket for them', async () => {
    const [watcher, erin, fence] = [uniqueId('watcher'), uniqueId('erin'), uniqueId('fence')];
    await createUsers(first, watcher, erin, fence);
    const watching = await connect(first, watcher);
    const erinOnFirst = await connect(first, erin);
    const erinOnSecond = await connect(second, erin);
    await watching.next(isPresence(erin, 'online'), 'erin online');
    await erinOnSecond.close();
    // The second process handles closes in order: once `fence` is reported offline, erin's close is done.
    const fenceOnSecond = await connect(second, fence);
    await fenceOnSecond.close();
    await watching.next(isPresence(fence, 'offline'), 'the fence user offline');
    expect(watching.frames.filter(isPresence(erin, 'offline'))).toEqual([]);
    expect((await serverApi(second, 'GET', `/users/${erin}`)).body.data.status).toBe('available');
    await erinOnFirst.close();
    await watching.next(isPresence(erin, 'offline'), 'erin offline once her last socket closed');
  });

  it('closes the socket on the other process when a token is revoked through one', async () => {
    const grace = uniqueId('grace');
    await createUsers(first, grace);
    const graceOnSecond = await connect(second, grace);
    const revoked = await serverApi(
      first,
      'DELETE',
      `/users/${grace}/auth_tokens/${graceOnSecond.authToken}`,
    );
    expect(revoked.status).toBe(200);
    expect(await graceOnSecond.closed).toEqual({ code: 4001, reason: 'session ended' });
  });

  it('reports a process that died (SIGKILL) as no longer holding its users online', async () => {
    const [watcher, frank] = [uniqueId('watcher'), uniqueId('frank')];
    await createUsers(first, watcher, frank);
    const doomed = await startProcess(joinedEnv(store, redis));
    const watching = await connect(first, watcher);
    await connect(doomed, frank);
    await watching.next(isPresence(frank, 'online'), 'frank online via the doomed process');
    const died = new Promise((resolve) => doomed.child.once('exit', resolve));
    doomed.child.kill('SIGKILL');
    await died;
    await watching.next(isPresence(frank, 'offline'), 'frank offline once his process expired', 20_000);
    expect((await serverApi(first, 'GET', `/users/${frank}`)).body.data.status).toBe('offline');
  });

  it('runs a form action once when the same submission reaches both processes at once, refusing the other as one process does', async () => {
    const [alice, bob] = [uniqueId('alice'), uniqueId('bob')];
    await createUsers(first, alice, bob);
    const action = await startRecordingServer((_request, response) => sendJson(response, 200, { ok: true }));
    try {
      const allowed = await serverApi(first, 'PATCH', '/client-settings', {
        body: { apiActionOrigins: [action.url] },
      });
      expect(allowed.status).toBe(200);
      const bobOn = await Promise.all(
        [first, second].map((server) => connectClient(server, APP, bob, { socket: false })),
      );
      const rounds = 5;
      for (let round = 0; round < rounds; round += 1) {
        const form = await serverApi(first, 'POST', '/messages', {
          body: {
            receiver: bob,
            receiverType: 'user',
            category: 'interactive',
            type: 'form',
            data: orderForm(action.url),
          },
          onBehalfOf: alice,
        });
        expect(form.status).toBe(200);
        const answers = await Promise.all(
          bobOn.map((client) =>
            client.call('PATCH', `/messages/${form.body.data.id}/interacted`, {
              interactions: ['submit'],
              formData: { name: 'Bob', size: 'm' },
            }),
          ),
        );
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
        expect(answers.find((answer) => answer.status === 200)?.body.data.action).toEqual({
          elementId: 'submit',
          status: 'completed',
          httpStatus: 200,
        });
        expect(answers.find((answer) => answer.status === 403)?.body.error.code).toBe(
          'ERR_ALREADY_INTERACTED',
        );
      }
      expect(action.requests.map((request) => request.url)).toEqual(Array(rounds).fill('/orders'));
    } finally {
      await action.close();
    }
  });

  it('answers readiness with the database and Redis reachable', async () => {
    const response = await fetch(`${second.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });

  describe("with CometChat's official SDK", () => {
    let alice: SdkUser;
    let bob: SdkUser;
    const [aliceUid, bobUid] = [uniqueId('sdk-alice'), uniqueId('sdk-bob')];
    const sdkUser = async (server: ChatProcess, uid: string) => {
      const user = await NodeSdkUser.start({
        caFile: join(server.dataDir, 'tls', 'localhost-cert.pem'),
        storageFile: join(server.dataDir, `${uid}.storage.json`),
      });
      expect(await user.call('init', APP.appId, `localhost:${new URL(server.url).port}/v3`)).toBeNull();
      expect(await user.call('login', uid, APP.authKey)).toMatchObject({ uid });
      return user;
    };
    const message = (id: string) => (event: SdkEvent) => event.kind === 'message' && event.id === id;

    beforeAll(async () => {
      await createUsers(first, aliceUid, bobUid);
      alice = await sdkUser(first, aliceUid);
      bob = await sdkUser(second, bobUid);
      // Logged in is not yet connected: wait until both sockets count as online (in Redis).
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const statuses = await Promise.all(
          [aliceUid, bobUid].map(
            async (uid) => (await serverApi(first, 'GET', `/users/${uid}`)).body.data.status,
          ),
        );
        if (statuses.every((status) => status === 'available')) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });

    afterAll(async () => {
      await alice?.close();
      await bob?.close();
    });

    it('delivers a message sent by an SDK user on one process to an SDK user on the other', async () => {
      const sent = await alice.call<SdkEvent>('sendText', bobUid, 'user', 'hello from the first process');
      expect(await bob.next(message(sent.id as string), 'the message from the first process')).toMatchObject({
        sender: aliceUid,
        text: 'hello from the first process',
      });
    });

    it('passes typing and read receipts between SDK users on different processes', async () => {
      await bob.call('typing', aliceUid, 'start');
      expect(await alice.next((event) => event.kind === 'typingStarted', 'typing from bob')).toEqual({
        kind: 'typingStarted',
        sender: bobUid,
      });
      const sent = await alice.call<SdkEvent>('sendText', bobUid, 'user', 'read me');
      await bob.next(message(sent.id as string), 'the message to read');
      await bob.call('markAsRead', sent.id);
      expect(
        await alice.next((event) => event.kind === 'read' && event.messageId === sent.id, 'the read receipt'),
      ).toMatchObject({ by: bobUid });
    });

    it("tells an SDK sender on one process that a form's goal was met through the other", async () => {
      const form = await alice.call<SdkEvent>('sendForm', bobUid, LUNCH_SURVEY);
      await bob.next(message(form.id as string), 'the form from the first process');
      expect(await bob.call('markAsInteracted', form.id, 'submit')).toMatch(/interacted/);
      expect(
        await alice.next(
          (event) => event.kind === 'goalCompleted' && event.messageId === form.id,
          'the goal completed through the second process',
        ),
      ).toEqual({ kind: 'goalCompleted', messageId: form.id, by: bobUid });
    });
  });
});

describe('readiness of a process whose database or Redis goes away and comes back', () => {
  let store: TestStore;
  let redis: RedisServer;
  let server: ChatProcess;
  const readiness = async () => {
    const response = await fetch(`${server.url}/readyz`);
    return { status: response.status, body: await response.json() };
  };
  const READY = { status: 200, body: { status: 'ok', checks: { database: 'ok', redis: 'ok' } } };
  /** Refuses (or allows again) every connection to the process's database, as a database that is down. */
  const databaseAccepting = (accepting: boolean) =>
    withPostgresAdmin(async (admin) => {
      const name = new URL(store.databaseUrl ?? '').pathname.slice(1);
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS ${accepting}`);
      if (!accepting)
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
          name,
        ]);
    });

  beforeAll(async () => {
    store = await createTestStore('postgres');
    redis = await RedisServer.start();
    server = await startProcess({
      DATABASE_URL: store.databaseUrl ?? '',
      REDIS_URL: redis.url,
      PARLEY_REDIS_PREFIX: 'parley-readiness:',
    });
  });

  afterAll(async () => {
    await stopAll();
    await redis?.stop();
    await store?.dispose();
  });

  it('answers 503 naming Redis while its Redis is down, and 200 once it is back', async () => {
    expect(await readiness()).toEqual(READY);
    await redis.stop();
    expect(await readiness()).toEqual({
      status: 503,
      body: { status: 'unavailable', checks: { database: 'ok', redis: 'unavailable' } },
    });
    await redis.start();
    await expect.poll(readiness, { timeout: 15_000, interval: 200 }).toEqual(READY);
    expect(server.child.exitCode).toBeNull();
  });

  it('answers 503 naming the database while it refuses connections, and 200 once it accepts them again', async () => {
    expect(await readiness()).toEqual(READY);
    await databaseAccepting(false);
    try {
      expect(await readiness()).toEqual({
        status: 503,
        body: { status: 'unavailable', checks: { database: 'unavailable', redis: 'ok' } },
      });
    } finally {
      await databaseAccepting(true);
    }
    await expect.poll(readiness, { timeout: 15_000, interval: 200 }).toEqual(READY);
    expect(server.child.exitCode).toBeNull();
  });
});

describe('refusing to start', () => {
  it('refuses a second process on the same SQLite data dir, naming the file', async () => {
    const alone = await startProcess({});
    await expect(startProcess({}, alone.dataDir)).rejects.toThrow(
      /Another process is running the chat service on .*chat\.db: several processes cannot share one SQLite file/,
    );
  });

  it('refuses a second process on PostgreSQL without Redis', async () => {
    const store = await createTestStore('postgres');
    try {
      await startProcess({ DATABASE_URL: store.databaseUrl ?? '' });
      await expect(startProcess({ DATABASE_URL: store.databaseUrl ?? '' })).rejects.toThrow(
        /Another chat service process is running on this PostgreSQL database: several processes must be joined by Redis/,
      );
    } finally {
      await stopAll();
      await store.dispose();
    }
  });

  it('refuses a process joined by Redis beside one running on PostgreSQL without it', async () => {
    const store = await createTestStore('postgres');
    try {
      await startProcess({ DATABASE_URL: store.databaseUrl ?? '' });
      await expect(startProcess(joinedEnv(store, testRedis()))).rejects.toThrow(
        /A chat service without Redis is running on this PostgreSQL database: stop it, or give every process the same REDIS_URL/,
      );
    } finally {
      await stopAll();
      await store.dispose();
    }
  });

  it('refuses to start when Redis cannot be reached, saying where it looked without the password', async () => {
    const store = await createTestStore('postgres');
    try {
      const refused = await startProcess({
        DATABASE_URL: store.databaseUrl ?? '',
        REDIS_URL: 'redis://:hunter2@127.0.0.1:1',
      }).catch((error: unknown) => error as Error);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toMatch(
        /Cannot reach Redis at redis:\/\/127\.0\.0\.1:1 \(REDIS_URL\): ECONNREFUSED/,
      );
      expect((refused as Error).message).not.toContain('hunter2');
    } finally {
      await stopAll();
      await store.dispose();
    }
  });
});

/** Stops the processes still running, so a test's database can be dropped. */
const stopAll = (): Promise<void> => processes.stopAll();
