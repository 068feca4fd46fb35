import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SecretKeyMismatch, silentLogger, startChatServer } from '../../../server/index.js';
import type { ChatProcess } from '../../support/chat-cluster.js';
import { useProcessPair } from '../../support/process-pair.js';
import { APP_ONE, ENGINES, apiFixtures, createTestStore, textMessage, type TestStore } from '../support.js';
import { Receiver, useWebhook } from './support.js';

/**
 * The notifications engine across restarts and across the processes of one deployment: the key
 * that seals provider secrets is checked at every start, and what one process changes applies on
 * the others at once.
 */

describe.each(ENGINES)('the secret key checked at every start on %s', (engine) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore(engine);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  const start = (options: { secretKey?: Buffer; dataDir?: string } = {}) =>
    startChatServer({
      port: 0,
      dataDir: options.dataDir ?? store.dataDir,
      databaseUrl: store.databaseUrl,
      logger: silentLogger,
      app: APP_ONE,
      ...(options.secretKey === undefined ? {} : { secretKey: options.secretKey }),
    });

  it('refuses a start with another PARLEY_SECRET_KEY before any secret is stored, and names the key', async () => {
    const key = randomBytes(32);
    await (await start({ secretKey: key })).close();
    const refused = start({ secretKey: randomBytes(32) });
    await expect(refused).rejects.toThrow(SecretKeyMismatch);
    await expect(refused).rejects.toThrow(/another key than the one from PARLEY_SECRET_KEY/);
    await expect(refused).rejects.toThrow(/secret\.key/);
    await (await start({ secretKey: key })).close();
  });
});

describe('a process on a shared PostgreSQL database with a data dir of its own', () => {
  let store: TestStore;
  let dataDir: string;
  beforeAll(async () => {
    store = await createTestStore('postgres');
    dataDir = mkdtempSync(join(tmpdir(), 'parley-other-key-'));
  });
  afterAll(async () => {
    await store?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("is refused when its data dir's secret.key is not the key the store was first started with", async () => {
    const start = (dir: string) =>
      startChatServer({
        port: 0,
        dataDir: dir,
        databaseUrl: store.databaseUrl,
        logger: silentLogger,
        app: APP_ONE,
      });
    await (await start(store.dataDir)).close();
    const otherKeyFile = join(dataDir, 'secret.key').replace(/[.]/g, '\\.');
    await expect(start(dataDir)).rejects.toThrow(new RegExp(`another key than the one from ${otherKeyFile}`));
  });
});

describe('two processes on one PostgreSQL database', () => {
  const pair = useProcessPair(APP_ONE, ['--rate-limit', 'off']);
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
  });
  afterEach(() => {
    receiver.calls.length = 0;
  });

  it('refuses to start a process with another PARLEY_SECRET_KEY than the running ones, saying so', async () => {
    const refused = pair.cluster.processes.start({
      env: { PARLEY_SECRET_KEY: randomBytes(32).toString('base64') },
    });
    await expect(refused).rejects.toThrow(/another key than the one from PARLEY_SECRET_KEY/);
    expect((await pair.a('GET', '/users')).status).toBe(200);
  });

  it('applies a provider enabled through one process on the other at once, with nothing to expire', async () => {
    const [first, second] = [pair.a, pair.b];
    const fixtures = apiFixtures(first);
    const alice = await fixtures.createUser();
    const bob = await fixtures.createUser();
    const path = '/notifications/push/v1/providers/custom';
    expect((await useWebhook(first, 'push', `${receiver.url}/push`, { enabled: false })).status).toBe(200);
    // The second process reads (and caches) the configuration while it is disabled.
    const enabledSeenBy = async (call: typeof second) => (await call('GET', path)).body.data.isEnabled;
    expect(await enabledSeenBy(second)).toBe(false);

    expect((await useWebhook(first, 'push', `${receiver.url}/push`, { enabled: true })).status).toBe(200);
    // Only the change notice over Redis can make the second process see it: its cache never expires.
    await expect.poll(() => enabledSeenBy(second), { timeout: 15_000, interval: 50 }).toBe(true);
    const sent = await second('POST', '/messages', { body: textMessage(bob, 'hello'), onBehalfOf: alice });
    expect(sent.status).toBe(200);
    const [call] = await receiver.waitForCalls('/push', 1);
    expect(call?.body.data.to.uid).toBe(bob);
  });
});

describe('a process killed between storing messages and deciding their notifications', () => {
  const MEMBERS = 20;
  const MESSAGES = 5;
  const pair = useProcessPair(APP_ONE, ['--rate-limit', 'off']);
  let receiver: Receiver;
  let database: pg.Client;
  beforeAll(async () => {
    receiver = await Receiver.start();
    database = new pg.Client({ connectionString: pair.cluster.databaseUrl });
    await database.connect();
  });
  afterAll(async () => {
    await database?.end();
    await receiver?.close();
  });

  const queued = async (): Promise<number> =>
    Number((await database.query('select count(*) from notification_decisions')).rows[0].count);

  it('leaves its undecided events to the other process, which decides each once: one push per member and message', async () => {
    const [survivor, doomed] = [pair.a, pair.b];
    const members = Array.from({ length: MEMBERS }, (_, index) => `member-${index}`);
    for (const uid of ['sender', ...members])
      expect((await survivor('POST', '/users', { body: { uid, name: uid } })).status).toBe(200);
    const group = await survivor('POST', '/groups', {
      body: {
        guid: 'everyone',
        name: 'Everyone',
        type: 'public',
        owner: 'sender',
        members: { participants: members },
      },
    });
    expect(group.status).toBe(200);
    expect((await useWebhook(survivor, 'push', `${receiver.url}/push`)).status).toBe(200);

    // The outbox locked: every decision stops at its first write, after the event was queued.
    await database.query('begin');
    await database.query('lock table notification_outbox in exclusive mode');
    for (let index = 0; index < MESSAGES; index += 1) {
      const sent = await doomed('POST', '/messages', {
        body: textMessage('everyone', `news ${index}`, 'group'),
        onBehalfOf: 'sender',
      });
      expect(sent.status).toBe(200);
    }
    await expect.poll(queued, { timeout: 30_000, interval: 50 }).toBe(MESSAGES);
    const { child } = pair.cluster.processes.started[1] as ChatProcess;
    const killed = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await killed;
    await database.query('commit');

    // The survivor takes them once their lease (10 s) has run out.
    await expect.poll(queued, { timeout: 60_000, interval: 200 }).toBe(0);
    const calls = await receiver.waitForCalls('/push', MEMBERS * MESSAGES);
    const keys = calls.map((call) => String(call.headers['idempotency-key']));
    expect(new Set(keys).size).toBe(MEMBERS * MESSAGES);
    expect(new Set(calls.map((call) => call.body.data.to.uid))).toEqual(new Set(members));
    const logged = await database.query(
      `select count(*) from notification_logs where trigger = 'after_message' group by message_id, uid`,
    );
    expect(logged.rows).toHaveLength(MEMBERS * MESSAGES);
    expect(logged.rows.every((row) => Number(row.count) === 1)).toBe(true);
    // None came twice: the killed process had delivered nothing, the survivor delivered each once.
    expect(keys).toHaveLength(MEMBERS * MESSAGES);
  });
});
