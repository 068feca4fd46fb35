/**
 * bench:realtime — WebSocket fan-out of the chat service: BENCH_CLIENTS users (default 3,000),
 * each logged in over the client API with its own authenticated socket, in groups of
 * BENCH_GROUP_SIZE; BENCH_RATE messages per second (default 300) for BENCH_DURATION seconds
 * (default 60) are posted to the groups in turn. Every member's socket must receive every message
 * of its group: the delivery latency (post sent -> frame received) p50/p99 and the count of lost
 * messages are reported, in bench/results/realtime.json. Two setups in the same run: one process
 * on SQLite (the embedded default), then BENCH_PROCESSES (default 3) processes on PostgreSQL joined
 * by Redis, with logins, sockets and posts spread over them in turn as a balancer without sticky
 * sessions spreads them (so most deliveries cross processes). The servers run as their own
 * processes on loopback; the run stops by itself.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { startChatCluster, type ChatCluster } from '../test/support/chat-cluster.js';
import { loadNow, writeResults } from './stats.js';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 3_000);
const GROUP_SIZE = Number(process.env.BENCH_GROUP_SIZE ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 300);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 60);
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 3);
/** How long stragglers may take after the last post before they count as lost. */
const DRAIN_MS = 15_000;
/** The whole run is bounded: setup, load and drain of both setups. */
const DEADLINE_MS = 20 * 60_000;
/** On loopback, and no rate limit: a benchmark measures the service, not its limits. */
const SERVER_ARGS = ['--host', '127.0.0.1', '--rate-limit', 'off'];
const APP = { appId: 'bench-realtime', apiKey: 'bench-rt-full-key', authKey: 'bench-rt-auth-key' };

const deadline = setTimeout(() => {
  console.error(`bench:realtime: gave up after ${DEADLINE_MS / 1000} s`);
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();

/** Runs `work` over `items`, `concurrency` at a time. */
async function inBatches<T>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

async function call(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${url}/v3${path}`, {
    method,
    headers: { appId: APP.appId, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data?: unknown; error?: { code: string } };
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${json.error?.code}`);
  return json.data;
}
const asApp = { apikey: APP.apiKey };

type Figures = Awaited<ReturnType<typeof measure>>;

/** One setup: sockets connected and load sent through `cluster`'s processes in turn. */
async function measure(cluster: ChatCluster) {
  const { urls } = cluster;
  const urlFor = (index: number) => urls[index % urls.length] as string;

  // Setup: users, groups, logins and sockets.
  const uids = Array.from({ length: CLIENTS }, (_, index) => `user-${index}`);
  await inBatches(
    uids.map((uid, index) => ({ uid, index })),
    16,
    async ({ uid, index }) => {
      await call(urlFor(index), 'POST', '/users', asApp, { uid, name: uid });
    },
  );
  const groups: { guid: string; members: string[] }[] = [];
  for (let start = 0; start < CLIENTS; start += GROUP_SIZE) {
    groups.push({ guid: `group-${start / GROUP_SIZE}`, members: uids.slice(start, start + GROUP_SIZE) });
  }
  await inBatches(
    groups.map((group, index) => ({ group, index })),
    8,
    async ({ group, index }) => {
      const [owner, ...others] = group.members;
      await call(urlFor(index), 'POST', '/groups', asApp, {
        guid: group.guid,
        name: group.guid,
        type: 'private',
        owner,
        members: { participants: others },
      });
    },
  );

  const sendTimes = new Map<number, number>();
  const expected = new Map<number, number>();
  const latencies: number[] = [];
  let delivered = 0;
  let duplicates = 0;
  const seenBy = new Map<number, Set<number>>();
  const sockets: WebSocket[] = [];
  const connectStarted = performance.now();
  await inBatches(
    uids.map((uid, index) => ({ uid, index })),
    16,
    async ({ uid, index }) => {
      const url = urlFor(index);
      const { authToken } = (await call(url, 'POST', `/users/${uid}/auth_tokens`, {
        apiKey: APP.authKey,
      })) as { authToken: string };
      const { jwt } = (await call(url, 'PUT', '/me', { authToken }, {})) as { jwt: string };
      const socket = new WebSocket(url.replace(/^http/, 'ws'));
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.once('open', () => {
          socket.send(
            JSON.stringify({
              appId: APP.appId,
              type: 'auth',
              sender: uid,
              deviceId: `bench-${index}`,
              body: { auth: jwt, deviceId: `bench-${index}`, presenceSubscription: 'NONE' },
            }),
          );
        });
        socket.on('message', (data) => {
          const received = performance.now();
          const frame = JSON.parse(data.toString()) as {
            type?: string;
            body?: { data?: { text?: string } };
          };
          if (frame.type === 'auth') {
            resolve();
            return;
          }
          if (frame.type !== 'message') return;
          const seq = Number(/^bench (\d+)$/.exec(frame.body?.data?.text ?? '')?.[1]);
          const sent = sendTimes.get(seq);
          if (sent === undefined) return;
          let seen = seenBy.get(seq);
          if (seen === undefined) seenBy.set(seq, (seen = new Set()));
          if (seen.has(index)) {
            duplicates += 1;
            return;
          }
          seen.add(index);
          delivered += 1;
          latencies.push(received - sent);
        });
      });
    },
  );
  const connectSeconds = (performance.now() - connectStarted) / 1000;

  // Load: RATE messages per second, posted on a fixed schedule whatever the answers take.
  const loadBefore = loadNow();
  const total = RATE * DURATION_SECONDS;
  let sendErrors = 0;
  const posts: Promise<void>[] = [];
  const loadStarted = performance.now();
  for (let seq = 0; seq < total; seq += 1) {
    const due = loadStarted + (seq * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const group = groups[seq % groups.length] as (typeof groups)[number];
    const sender = group.members[seq % group.members.length] as string;
    sendTimes.set(seq, performance.now());
    expected.set(seq, group.members.length);
    posts.push(
      call(
        urlFor(seq),
        'POST',
        '/messages',
        { ...asApp, onBehalfOf: sender },
        {
          receiver: group.guid,
          receiverType: 'group',
          category: 'message',
          type: 'text',
          data: { text: `bench ${seq}` },
        },
      ).then(
        () => undefined,
        () => {
          sendErrors += 1;
          expected.delete(seq);
        },
      ),
    );
  }
  const sendSeconds = (performance.now() - loadStarted) / 1000;
  await Promise.all(posts);
  const expectedDeliveries = () => [...expected.values()].reduce((sum, count) => sum + count, 0);
  const drainStarted = performance.now();
  while (delivered < expectedDeliveries() && performance.now() - drainStarted < DRAIN_MS) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const loadAfter = loadNow();
  for (const socket of sockets) socket.terminate();

  latencies.sort((a, b) => a - b);
  const percentile = (p: number) =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0) * 10) / 10;
  const lostMessages = [...expected.entries()].filter(
    ([seq, count]) => (seenBy.get(seq)?.size ?? 0) < count,
  ).length;
  return {
    processes: urls.length,
    loadAverage: { before: loadBefore, after: loadAfter },
    connectSeconds: Math.round(connectSeconds * 10) / 10,
    messagesPosted: total - sendErrors,
    postErrors: sendErrors,
    achievedMessagesPerSecond: Math.round(total / sendSeconds),
    deliveriesExpected: expectedDeliveries(),
    deliveries: delivered,
    duplicateDeliveries: duplicates,
    lostMessages,
    lostDeliveries: expectedDeliveries() - delivered,
    latencyMs: { p50: percentile(0.5), p90: percentile(0.9), p99: percentile(0.99), max: percentile(1) },
  };
}

async function measureOn(engine: 'sqlite' | 'postgres', processes: number): Promise<Figures> {
  const cluster = await startChatCluster({ app: APP, engine, count: processes, args: SERVER_ARGS });
  try {
    return await measure(cluster);
  } finally {
    await cluster.dispose();
  }
}

const single = await measureOn('sqlite', 1);
const several = await measureOn('postgres', PROCESSES);
const results = writeResults('realtime', {
  clients: CLIENTS,
  groupSize: GROUP_SIZE,
  targetMessagesPerSecond: RATE,
  durationSeconds: DURATION_SECONDS,
  /** One process on SQLite, the embedded default. */
  singleProcess: single,
  /** BENCH_PROCESSES processes on PostgreSQL joined by Redis, sockets and posts spread over them. */
  severalProcesses: several,
});
const row = (figures: Figures) => ({
  'p50 ms': figures.latencyMs.p50,
  'p99 ms': figures.latencyMs.p99,
  'max ms': figures.latencyMs.max,
  'msg/s': figures.achievedMessagesPerSecond,
  deliveries: figures.deliveries,
  lost: figures.lostMessages,
  'post errors': figures.postErrors,
});
console.table({
  '1 process (SQLite)': row(single),
  [`${PROCESSES} processes (PostgreSQL + Redis)`]: row(several),
});
console.log(
  `${CLIENTS} sockets, ${RATE} messages/s for ${DURATION_SECONDS} s to groups of ${GROUP_SIZE}, on ${results.cpus} CPUs; ` +
    'results in bench/results/realtime.json',
);
process.exitCode = [single, several].every(
  (figures) => figures.lostMessages === 0 && figures.postErrors === 0,
)
  ? 0
  : 1;
