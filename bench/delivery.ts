/**
 * bench:delivery — one message to a group of 10,000 offline members, decided, handed to the outbox
 * and delivered through a custom push provider to a local webhook sink (a real HTTP server on an
 * ephemeral port standing in for the operator's push receiver). Measured on the real engine over a
 * real store (SQLite, and PostgreSQL when reachable), per message:
 *
 *  - decide: the event decided for every member, pushes rendered, outbox rows and decision logs
 *    written (decisions/s, outbox rows/s);
 *  - drain: the outbox worked through until every row is delivered (deliveries/s);
 *  - end to end: the message emitted with the worker running as in production, until the sink has
 *    the last of the 10,000 calls.
 *
 * The sink counts every call by its idempotency key: none may be missing or come twice.
 * Prints a table and writes bench/results/delivery.json.
 *
 *   npx tsx bench/delivery.ts      (BENCH_MEMBERS=10000, BENCH_MESSAGES=3, BENCH_ENGINES=sqlite,postgres)
 */
import { createServer, type Server } from 'node:http';
import type { Message } from '../shared/message.js';
import {
  createChatCore,
  openChatStore,
  SecretBox,
  silentLogger,
  type StorageEngine,
} from '../server/index.js';
import { IDEMPOTENCY_HEADER, NotificationEngine } from '../server/notifications/index.js';
import { customPush } from '../server/notifications/providers/custom.js';
import { createTestStore } from '../test/server/support.js';
import { median, perEngine, round, writeResults } from './stats.js';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 10_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 3);
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as StorageEngine[];
const APP = { appId: 'bench', apiKey: 'bench-full-key', authKey: 'bench-auth-key' };
const GUID = 'bench-group';
const SENDER = 'bench-sender';

/** The push receiver: answers 200 to every call and counts them by idempotency key. */
class Sink {
  readonly calls = new Map<string, number>();
  total = 0;
  private waiter: { count: number; resolve: () => void } | undefined;

  private constructor(readonly server: Server) {}

  static async start(): Promise<Sink> {
    const server = createServer();
    const sink = new Sink(server);
    server.on('request', (request, response) => {
      request.resume();
      request.on('end', () => {
        const key = String(request.headers[IDEMPOTENCY_HEADER]);
        sink.calls.set(key, (sink.calls.get(key) ?? 0) + 1);
        sink.total += 1;
        response.writeHead(200).end();
        if (sink.waiter !== undefined && sink.total >= sink.waiter.count) sink.waiter.resolve();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return sink;
  }

  get url(): string {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('the sink is not listening');
    return `http://127.0.0.1:${address.port}/push`;
  }

  /** Resolves once `count` calls have arrived in all. */
  reached(count: number): Promise<void> {
    if (this.total >= count) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiter = { count, resolve };
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

interface MessageRun {
  decideMs: number;
  /** Outbox rows the decision wrote. */
  queued: number;
  drainMs: number;
  endToEndMs: number;
}

interface EngineResult {
  engine: StorageEngine;
  members: number;
  messages: number;
  decisionsPerSecond: number;
  outboxRowsPerSecond: number;
  deliveriesPerSecond: number;
  endToEndSeconds: number;
  /** Per message, in order: decide + drain (worker off), then end to end (worker on). */
  perMessage: MessageRun[];
  deliveries: { expected: number; received: number; distinct: number; doubled: number; missing: number };
}

async function benchEngine(engine: StorageEngine): Promise<EngineResult> {
  const location = await createTestStore(engine);
  const store = await openChatStore({ dataDir: location.dataDir, databaseUrl: location.databaseUrl });
  const sink = await Sink.start();
  try {
    const core = createChatCore(store, await SecretBox.load(location.dataDir));
    const { app } = await core.apps.ensure(APP);
    const uids = Array.from({ length: MEMBERS }, (_, index) => `member-${String(index).padStart(5, '0')}`);
    for (const uid of [SENDER, ...uids]) await core.users.create(app.appId, { uid, name: `Name of ${uid}` });
    const origin = { uid: SENDER };
    await core.services.groups.create(
      app,
      { guid: GUID, name: 'Everyone', type: 'public' },
      SENDER,
      { participants: uids },
      origin,
    );
    const send = async (index: number): Promise<Message> => {
      const result = await core.services.messages.send(
        app,
        SENDER,
        {
          receiver: GUID,
          receiverType: 'group',
          category: 'message',
          type: 'text',
          data: { text: `trail update ${index}` },
        },
        origin,
      );
      if (!('single' in result)) throw new Error('the bench message was not sent');
      return result.single;
    };

    // Phases apart: the worker off while deciding, then driven by hand until the outbox is empty.
    const manual = new NotificationEngine(core, silentLogger, { pollIntervalMs: false });
    await manual.data.providers.save(
      app.appId,
      customPush,
      'default',
      { isEnabled: true, webhookURL: sink.url, useBasicAuth: false },
      Date.now(),
    );
    const pending = async (): Promise<number> => {
      const row = await manual.data.db
        .selectFrom('notification_outbox')
        .select((eb) => eb.fn.countAll<number>().as('rows'))
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      return Number(row.rows);
    };
    const perMessage: MessageRun[] = [];
    manual.start();
    for (let index = 0; index < MESSAGES; index += 1) {
      const message = await send(index);
      const before = sink.total;
      const decideStarted = performance.now();
      core.events.emit('message', app.appId, message, origin);
      await manual.idle();
      const decideMs = performance.now() - decideStarted;
      const queued = await pending();
      const drainStarted = performance.now();
      while ((await pending()) > 0) await manual.runDue();
      const drainMs = performance.now() - drainStarted;
      if (sink.total - before !== MEMBERS)
        throw new Error(`drain delivered ${sink.total - before} calls, not ${MEMBERS}`);
      perMessage.push({ decideMs, queued, drainMs, endToEndMs: Number.NaN });
    }
    await manual.stop();

    // As in production: the worker polls and starts a pass as soon as a decision queued pushes.
    const running = new NotificationEngine(core, silentLogger).start();
    for (let index = 0; index < MESSAGES; index += 1) {
      const message = await send(MESSAGES + index);
      const target = sink.total + MEMBERS;
      const started = performance.now();
      core.events.emit('message', app.appId, message, origin);
      await sink.reached(target);
      (perMessage[index] as MessageRun).endToEndMs = performance.now() - started;
    }
    await running.stop();

    const expected = 2 * MESSAGES * MEMBERS;
    const doubled = [...sink.calls.values()].filter((count) => count > 1).length;
    const decideMs = median(perMessage.map((run) => run.decideMs));
    const drainMs = median(perMessage.map((run) => run.drainMs));
    return {
      engine,
      members: MEMBERS,
      messages: MESSAGES,
      decisionsPerSecond: Math.round(MEMBERS / (decideMs / 1000)),
      outboxRowsPerSecond: Math.round(median(perMessage.map((run) => run.queued / (run.decideMs / 1000)))),
      deliveriesPerSecond: Math.round(MEMBERS / (drainMs / 1000)),
      endToEndSeconds: round(median(perMessage.map((run) => run.endToEndMs)) / 1000, 2),
      perMessage: perMessage.map((run) => ({
        decideMs: Math.round(run.decideMs),
        queued: run.queued,
        drainMs: Math.round(run.drainMs),
        endToEndMs: Math.round(run.endToEndMs),
      })),
      deliveries: {
        expected,
        received: sink.total,
        distinct: sink.calls.size,
        doubled,
        missing: expected - sink.calls.size,
      },
    };
  } finally {
    await sink.close();
    await store.close();
    await location.dispose();
  }
}

const { runs, loadAverage } = await perEngine(ENGINES, benchEngine);
const results = writeResults('delivery', {
  loadAverage,
  groupMembers: MEMBERS,
  note: 'medians over the messages; every member offline, no preferences saved; the sink answers 200 at once',
  runs,
});

console.table(
  runs.map((run) => ({
    store: run.engine,
    'decisions/s': run.decisionsPerSecond,
    'outbox rows/s': run.outboxRowsPerSecond,
    'deliveries/s': run.deliveriesPerSecond,
    'end to end s': run.endToEndSeconds,
    doubled: run.deliveries.doubled,
    missing: run.deliveries.missing,
  })),
);
console.log(
  `${MEMBERS}-member group, ${MESSAGES} messages per phase; load average ${results.loadAverage.before} -> ` +
    `${results.loadAverage.after} on ${results.cpus} CPUs; results in bench/results/delivery.json`,
);
