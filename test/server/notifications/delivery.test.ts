import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '../../../server/notifications/index.js';
import { ENGINES, createTestStore, textMessage, uniqueId, type TestStore } from '../support.js';
import {
  ManualClock,
  Receiver,
  SECRET,
  startNotifiedServer,
  useWebhook,
  type NotifiedServer,
} from './support.js';

/**
 * Delivery through the outbox to a real local receiver that answers, fails, hangs and redirects:
 * retries with backoff, dead letters, timeouts, and deliveries surviving a server restart.
 */
const RETRY = { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 60_000 };
/** Jitter pinned to its lowest value, so each retry is due exactly half the exponential delay later. */
const NO_JITTER = () => 0;
const TIMEOUT_MS = 300;

describe.each(ENGINES)('notification delivery on %s', (engine) => {
  let store: TestStore;
  let server: NotifiedServer;
  let receiver: Receiver;
  const clock = new ManualClock();
  const call: NotifiedServer['api']['call'] = (...args) => server.api.call(...args);

  beforeAll(async () => {
    store = await createTestStore(engine);
    receiver = await Receiver.start();
    server = await startNotifiedServer(store, {
      clock,
      retry: RETRY,
      random: NO_JITTER,
      timeoutMs: TIMEOUT_MS,
    });
  });
  afterEach(() => {
    receiver.mode = 'ok';
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await store?.dispose();
  });

  /** Points push at a fresh path of the receiver and sends one message; returns the path and the recipient. */
  const pushOneMessage = async (text = 'hello'): Promise<{ path: string; bob: string }> => {
    const path = `/${uniqueId('hook')}`;
    const response = await useWebhook(call, 'push', `${receiver.url}${path}`);
    expect(response.status).toBe(200);
    const [alice, bob] = [uniqueId('user'), uniqueId('user')];
    for (const uid of [alice, bob]) await call('POST', '/users', { body: { uid, name: uid } });
    await call('POST', '/messages', { body: textMessage(bob, text), onBehalfOf: alice });
    await server.engine.idle();
    return { path, bob };
  };
  const pending = () => server.engine.data.outbox.list('app-one', 'pending', 100);
  const dead = () => server.engine.data.outbox.list('app-one', 'dead', 100);

  it('tries a failing receiver again after a growing delay, and stops once it answers', async () => {
    receiver.mode = 'fail';
    const { path } = await pushOneMessage();
    await server.engine.runDue();
    expect(receiver.callsTo(path)).toHaveLength(1);
    const [waiting] = await pending();
    expect(waiting).toMatchObject({ attempts: 1, lastError: 'HTTP 500', nextAttemptAt: clock.now() + 500 });

    clock.advance(499);
    await server.engine.runDue();
    expect(receiver.callsTo(path)).toHaveLength(1);

    clock.advance(1);
    await server.engine.runDue();
    expect(receiver.callsTo(path)).toHaveLength(2);
    expect((await pending())[0]).toMatchObject({ attempts: 2, nextAttemptAt: clock.now() + 1_000 });

    receiver.mode = 'ok';
    clock.advance(1_000);
    await server.engine.runDue();
    expect(receiver.callsTo(path)).toHaveLength(3);
    expect(await pending()).toEqual([]);
    clock.advance(3_600_000);
    await server.engine.runDue();
    expect(receiver.callsTo(path)).toHaveLength(3);
  });

  it('sends the same body and idempotency key on every attempt, each with a valid signature', async () => {
    receiver.mode = 'fail';
    const { path } = await pushOneMessage();
    await server.engine.runDue();
    receiver.mode = 'ok';
    clock.advance(500);
    await server.engine.runDue();
    const [first, second] = receiver.callsTo(path);
    expect(second?.raw).toBe(first?.raw);
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect(second?.headers['x-parley-delivery-attempt']).toBe('2');
    for (const attempt of [first, second]) {
      const signature = attempt?.headers[SIGNATURE_HEADER] as string;
      expect(
        verifyWebhookSignature(SECRET, attempt?.raw ?? '', signature, Math.floor(clock.now() / 1000)),
      ).toBe(true);
      expect(
        verifyWebhookSignature('not-the-secret-at-all', attempt?.raw ?? '', signature, clock.now() / 1000),
      ).toBe(false);
    }
  });

  it('keeps a dead letter with the last error after the last attempt, shown in the logs', async () => {
    receiver.mode = 'fail';
    const { path, bob } = await pushOneMessage();
    for (const wait of [0, 500, 1_000]) {
      clock.advance(wait);
      await server.engine.runDue();
    }
    clock.advance(3_600_000);
    await server.engine.runDue();
    expect(receiver.callsTo(path)).toHaveLength(RETRY.maxAttempts);
    expect(await pending()).toEqual([]);
    const letters = (await dead()).filter((letter) => letter.idempotencyKey.endsWith(`:${bob}`));
    expect(letters).toEqual([expect.objectContaining({ attempts: 3, lastError: 'HTTP 500' })]);
    const logs = await call('GET', `/notifications/v1/logs?uid=${bob}`);
    expect(logs.body.data[0].delivery).toEqual({ status: 'dead', attempts: 3, lastError: 'HTTP 500' });
  });

  it('delivers a dead letter put back in the queue', async () => {
    receiver.mode = 'fail';
    const { path, bob } = await pushOneMessage();
    for (const wait of [0, 500, 1_000]) {
      clock.advance(wait);
      await server.engine.runDue();
    }
    const letter = (await dead()).find((entry) => entry.idempotencyKey.endsWith(`:${bob}`));
    receiver.mode = 'ok';
    expect(await server.engine.data.outbox.requeue('app-one', letter?.id ?? 0, clock.now())).toBe(true);
    await server.engine.runDue();
    expect(receiver.callsTo(path)).toHaveLength(4);
    expect((await call('GET', `/notifications/v1/logs?uid=${bob}`)).body.data[0].delivery.status).toBe(
      'delivered',
    );
  });

  it('counts a receiver that does not answer within the timeout as a failure', async () => {
    receiver.mode = 'hang';
    const { path } = await pushOneMessage();
    await server.engine.runDue();
    expect((await pending())[0]).toMatchObject({
      attempts: 1,
      lastError: `timed out after ${TIMEOUT_MS} ms`,
    });
    receiver.mode = 'ok';
    clock.advance(500);
    await server.engine.runDue();
    expect(receiver.callsTo(path)).toHaveLength(2);
    expect(await pending()).toEqual([]);
  });

  it('does not follow redirects', async () => {
    receiver.mode = 'redirect';
    const { path } = await pushOneMessage();
    await server.engine.runDue();
    expect(receiver.callsTo(`${path}/elsewhere`)).toHaveLength(0);
    expect((await pending())[0]).toMatchObject({ lastError: 'HTTP 302' });
    receiver.mode = 'ok';
    clock.advance(500);
    await server.engine.runDue();
  });

  it('records a receiver that refuses connections', async () => {
    const closed = await Receiver.start();
    await closed.close();
    await useWebhook(call, 'push', `${closed.url}/gone`);
    const [alice, bob] = [uniqueId('user'), uniqueId('user')];
    for (const uid of [alice, bob]) await call('POST', '/users', { body: { uid, name: uid } });
    await call('POST', '/messages', { body: textMessage(bob, 'anyone?'), onBehalfOf: alice });
    await server.engine.idle();
    await server.engine.runDue();
    expect((await pending())[0]).toMatchObject({ lastError: 'connection failed: ECONNREFUSED' });
    const { path } = await pushOneMessage();
    clock.advance(500);
    await server.engine.runDue();
    // The retry goes to the webhook as it is now configured.
    expect(receiver.callsTo(path)).toHaveLength(2);
  });

  it('dead-letters deliveries whose webhook was disabled before they went out', async () => {
    receiver.mode = 'fail';
    const { path, bob } = await pushOneMessage();
    await server.engine.runDue();
    await useWebhook(call, 'push', `${receiver.url}${path}`, { enabled: false });
    clock.advance(500);
    await server.engine.runDue();
    expect(receiver.callsTo(path)).toHaveLength(1);
    const letters = (await dead()).filter((letter) => letter.idempotencyKey.endsWith(`:${bob}`));
    expect(letters).toEqual([
      expect.objectContaining({ lastError: 'no enabled push provider reaches the recipient' }),
    ]);
  });

  it('delivers a call claimed by a process that died once its claim lapses, not before', async () => {
    const { outbox } = server.engine.data;
    const path = `/${uniqueId('hook')}`;
    await useWebhook(call, 'push', `${receiver.url}${path}`);
    const key = uniqueId('orphan');
    const ORPHAN = JSON.stringify({ id: key, data: { to: { uid: 'orphan' } } });
    await outbox.enqueue(
      [{ appId: 'app-one', channel: 'push', idempotencyKey: key, body: ORPHAN }],
      clock.now(),
    );
    const [row] = (await outbox.due(clock.now(), 100)).filter((delivery) => delivery.idempotencyKey === key);
    if (row === undefined) throw new Error('expected the new delivery to be due');
    // Another worker takes it for an attempt and never reports back.
    expect(await outbox.claim(row, clock.now() + 10_000)).toBe(true);
    expect(await outbox.claim(row, clock.now() + 10_000)).toBe(false);
    await server.engine.runDue();
    expect(receiver.callsTo(path)).toHaveLength(0);
    clock.advance(10_000);
    await server.engine.runDue();
    expect(receiver.callsTo(path).map((c) => c.raw)).toEqual([ORPHAN]);
  });
});

describe.each(ENGINES)('deliveries across a restart on %s', (engine) => {
  it('delivers, after the server starts again, every call still pending when it stopped', async () => {
    const store = await createTestStore(engine);
    const receiver = await Receiver.start();
    try {
      receiver.mode = 'fail';
      const first = await startNotifiedServer(store, { retry: { baseDelayMs: 50 } });
      await useWebhook(first.api.call, 'push', `${receiver.url}/push`);
      const alice = uniqueId('user');
      const members = [uniqueId('user'), uniqueId('user'), uniqueId('user')];
      for (const uid of [alice, ...members])
        await first.api.call('POST', '/users', { body: { uid, name: uid } });
      const guid = uniqueId('group');
      await first.api.call('POST', '/groups', {
        body: { guid, name: guid, type: 'public', members: { participants: members } },
        onBehalfOf: alice,
      });
      await first.api.call('POST', '/messages', {
        body: textMessage(guid, 'before', 'group'),
        onBehalfOf: alice,
      });
      await first.engine.idle();
      // One attempt each fails; then the server stops with all three still pending.
      await first.engine.runDue();
      await first.close();
      expect(receiver.callsTo('/push')).toHaveLength(3);

      receiver.mode = 'ok';
      const second = await startNotifiedServer(store, { retry: { baseDelayMs: 50 }, pollIntervalMs: 20 });
      try {
        const calls = await receiver.waitForCalls('/push', 6);
        const delivered = calls.slice(3).map((c) => c.body.data.to.uid);
        expect(delivered.sort()).toEqual([...members].sort());
        // The receiver answers before the outbox records the delivery.
        await expect.poll(() => second.engine.data.outbox.list('app-one', 'pending', 10)).toEqual([]);
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
      await store.dispose();
    }
  });
});
