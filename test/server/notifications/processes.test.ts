import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SecretKeyMismatch, silentLogger, startChatServer } from '../../../server/index.js';
import { startChatCluster, type ChatCluster } from '../../support/chat-cluster.js';
import {
  APP_ONE,
  ENGINES,
  apiFixtures,
  callServerApi,
  createTestStore,
  textMessage,
  type CallOptions,
  type TestStore,
} from '../support.js';
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
  let cluster: ChatCluster;
  let receiver: Receiver;
  beforeAll(async () => {
    cluster = await startChatCluster({
      app: APP_ONE,
      engine: 'postgres',
      count: 2,
      args: ['--rate-limit', 'off'],
    });
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await cluster?.dispose();
  });
  afterEach(() => {
    receiver.calls.length = 0;
  });

  const callOn = (index: number) => (method: string, path: string, options?: CallOptions) =>
    callServerApi(cluster.urls[index] as string, APP_ONE, method, path, options);

  it('refuses to start a process with another PARLEY_SECRET_KEY than the running ones, saying so', async () => {
    const refused = cluster.processes.start({
      env: { PARLEY_SECRET_KEY: randomBytes(32).toString('base64') },
    });
    await expect(refused).rejects.toThrow(/another key than the one from PARLEY_SECRET_KEY/);
    expect((await callOn(0)('GET', '/users')).status).toBe(200);
  });

  it('applies a provider enabled through one process on the other at once, with nothing to expire', async () => {
    const [first, second] = [callOn(0), callOn(1)];
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
