/**
 * bench:notifications — how fast the notifications engine decides a message to a 1,000-member
 * group: per recipient, the event preference with user overrides, mentions, do-not-disturb, the
 * weekly schedule in the user's time zone and conversation mutes, then the push render, the
 * outbox rows and the decision log, all written in one transaction. Measured on the real engine
 * over a real store (SQLite, and PostgreSQL when reachable), with a mix of users: some with saved
 * preferences, time zones, mutes, or a connected socket. Deliveries are not part of it (no
 * worker runs). Also measures the decision function alone, in memory, to show where time goes.
 * Prints a table and writes bench/results/notifications.json.
 *
 *   npx tsx bench/notifications.ts        (BENCH_MESSAGES=40, BENCH_ENGINES=sqlite,postgres)
 */
import type { Message } from '../shared/message.js';
import {
  createChatCore,
  openChatStore,
  SecretBox,
  silentLogger,
  type StorageEngine,
} from '../server/index.js';
import { NotificationEngine } from '../server/notifications/index.js';
import { decide, type Recipient } from '../server/notifications/decide.js';
import { customPush } from '../server/notifications/providers/custom.js';
import { eventOfMessage } from '../server/notifications/triggers.js';
import { createTestStore } from '../test/server/support.js';
import { perEngine, round, writeResults } from './stats.js';

const MEMBERS = 1_000;
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 40);
const WARM_UP = 3;
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as StorageEngine[];
const APP = { appId: 'bench', apiKey: 'bench-full-key', authKey: 'bench-auth-key' };
const GUID = 'bench-group';
const SENDER = 'bench-sender';

const memberUid = (index: number): string => `member-${String(index).padStart(4, '0')}`;

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

interface EngineResult {
  engine: StorageEngine;
  members: number;
  messages: number;
  /** End to end: state loaded, decided, rendered, outbox and logs written. */
  decisionsPerSecond: number;
  perMessageMs: { p50: number; p99: number; max: number };
  /** `decide()` alone over recipients already in memory. */
  pureDecisionsPerSecond: number;
  pushesQueuedPerMessage: number;
  logRowsPerMessage: number;
}

async function benchEngine(engine: StorageEngine): Promise<EngineResult> {
  const location = await createTestStore(engine);
  const store = await openChatStore({ dataDir: location.dataDir, databaseUrl: location.databaseUrl });
  try {
    const core = createChatCore(store, await SecretBox.load(location.dataDir));
    const { app } = await core.apps.ensure(APP);
    const uids = Array.from({ length: MEMBERS }, (_, index) => memberUid(index));
    for (const uid of [SENDER, ...uids]) await core.users.create(app.appId, { uid, name: `Name of ${uid}` });
    const origin = { uid: SENDER };
    await core.services.groups.create(
      app,
      { guid: GUID, name: 'Everyone', type: 'public' },
      SENDER,
      { participants: uids },
      origin,
    );

    // A realistic mix: 10% saved preferences (a third of them mentions only), 20% time zones with
    // an evening schedule, 5% muted the group, 10% have a connected socket.
    for (const [index, uid] of uids.entries()) {
      if (index % 10 === 0) {
        await core.notifications.updatePreferences(app.appId, uid, {
          groupPreferences: { groupMessages: index % 30 === 0 ? 3 : 2 },
          mutePreferences: { schedule: { monday: { from: 2200, to: 700, dnd: true } } },
        });
      }
    }
    const notifications = new NotificationEngine(core, silentLogger, {
      pollIntervalMs: false,
      presence: { isOnline: (_appId, uid) => uid.endsWith('7') && uid.charCodeAt(uid.length - 2) % 2 === 0 },
    });
    const { userState, providers } = notifications.data;
    for (const [index, uid] of uids.entries()) {
      if (index % 5 === 0) await userState.setTimeZone(app.appId, uid, 'Asia/Tokyo', Date.now());
      if (index % 20 === 3) await userState.mute(app.appId, uid, [{ id: GUID, type: 'group' }]);
    }
    // Never called: no worker runs, so the bench measures deciding and queueing only.
    await providers.save(
      app.appId,
      customPush,
      'default',
      { isEnabled: true, webhookURL: 'http://127.0.0.1:9/push', useBasicAuth: false },
      Date.now(),
    );

    const sent: Message[] = [];
    for (let index = 0; index < WARM_UP + MESSAGES; index += 1) {
      const text =
        index % 4 === 0 ? `ping <@uid:${memberUid(index)}> about trail ${index}` : `trail update ${index}`;
      const result = await core.services.messages.send(
        app,
        SENDER,
        { receiver: GUID, receiverType: 'group', category: 'message', type: 'text', data: { text } },
        origin,
      );
      if ('single' in result) sent.push(result.single);
    }

    notifications.start();
    const durations: number[] = [];
    for (const [index, message] of sent.entries()) {
      const started = performance.now();
      core.events.emit('message', app.appId, message, origin);
      await notifications.idle();
      if (index >= WARM_UP) durations.push(performance.now() - started);
    }
    await notifications.stop();

    const outbox = await notifications.data.db
      .selectFrom('notification_outbox')
      .select((eb) => eb.fn.countAll<number>().as('rows'))
      .executeTakeFirstOrThrow();
    const logs = await notifications.data.db
      .selectFrom('notification_logs')
      .select((eb) => eb.fn.countAll<number>().as('rows'))
      .where('trigger', '=', 'after_message')
      .executeTakeFirstOrThrow();

    // The decision function alone, over the same recipients and settings, in memory.
    const event = eventOfMessage(app.appId, sent[sent.length - 1] as Message);
    if (event === undefined) throw new Error('no event for the bench message');
    const settings = await core.notifications.settings(app.appId);
    const recipients: Recipient[] = await notifications.data.audience.recipients(event, uids, Date.now());
    const rounds = 200;
    const pureStarted = performance.now();
    for (let round = 0; round < rounds; round += 1) {
      for (const recipient of recipients) decide(settings, event, recipient, Date.now());
    }
    const pureSeconds = (performance.now() - pureStarted) / 1000;

    const sorted = [...durations].sort((a, b) => a - b);
    const total = durations.reduce((sum, ms) => sum + ms, 0) / 1000;
    return {
      engine,
      members: MEMBERS,
      messages: MESSAGES,
      decisionsPerSecond: Math.round((MEMBERS * MESSAGES) / total),
      perMessageMs: {
        p50: round(percentile(sorted, 50)),
        p99: round(percentile(sorted, 99)),
        max: round(sorted[sorted.length - 1] ?? 0),
      },
      pureDecisionsPerSecond: Math.round((rounds * recipients.length) / pureSeconds),
      pushesQueuedPerMessage: round(Number(outbox.rows) / sent.length),
      logRowsPerMessage: round(Number(logs.rows) / sent.length),
    };
  } finally {
    await store.close();
    await location.dispose();
  }
}

const { runs, loadAverage } = await perEngine(ENGINES, benchEngine);
const results = writeResults('notifications', {
  loadAverage,
  groupMembers: MEMBERS,
  recipientMix: {
    savedPreferences: '10% (a third of them: mentions only)',
    timeZones: '20% Asia/Tokyo',
    mutedGroup: '5%',
    online: '10%',
    mentionedPerMessage: 'one member in every fourth message',
  },
  runs,
});

console.table(
  runs.map((run) => ({
    store: run.engine,
    'decisions/s': run.decisionsPerSecond,
    'ms per message p50': run.perMessageMs.p50,
    'ms per message p99': run.perMessageMs.p99,
    'decide() alone /s': run.pureDecisionsPerSecond,
    'pushes per message': run.pushesQueuedPerMessage,
  })),
);
console.log(
  `${MEMBERS}-member group, ${MESSAGES} messages each; load average ${results.loadAverage.before} -> ` +
    `${results.loadAverage.after} on ${results.cpus} CPUs; results in bench/results/notifications.json`,
);
