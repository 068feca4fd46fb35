/**
 * bench:chat — create-message throughput and latency of the chat service on SQLite (or, with
 * BENCH_ENGINE=postgres, one process on a fresh PostgreSQL database joined to Redis, as deployed), beside a
 * no-op route of the same server in the same run. The server runs as its own process (as in
 * production); autocannon generates the load from this one. The machine may be shared and noisy,
 * so the pair is measured several times (BENCH_RUNS) and medians are reported, with the server's
 * own CPU time per request, which other processes' load disturbs far less than requests/s.
 */
import { statSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createMessageRequest, median, processCpuMicros } from './stats.js';
import { startChatCluster, type ChatProcess } from '../test/support/chat-cluster.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const APP = { appId: 'bench', apiKey: 'bench-full-key', authKey: 'bench-auth-key' };
const TARGET_MESSAGES_PER_SECOND = 3_000;
const TARGET_RATIO = 0.41;
const ENGINE = process.env.BENCH_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
const ARGS = ['--rate-limit', 'off'];

const cluster = await startChatCluster({ app: APP, engine: ENGINE, args: ARGS });
const [{ child: server, url, dataDir }] = cluster.processes.started as [ChatProcess];

const headers = { apikey: APP.apiKey, 'content-type': 'application/json' };
for (const uid of ['bench-sender', 'bench-receiver']) {
  const response = await fetch(`${url}/v3/users`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ uid, name: uid }),
  });
  if (response.status !== 200) throw new Error(`creating ${uid} failed: ${response.status}`);
}

interface Figures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** CPU time the server process spent per request (user + system), or null off Linux. */
  serverCpuMicrosPerRequest: number | null;
}

/** The server process's user + system CPU time in microseconds (Linux only). */
const serverCpuMicros = (): number | null => processCpuMicros(server.pid);

async function load(
  title: string,
  path: string,
  options: Partial<autocannon.Options> = {},
): Promise<Figures> {
  const cpuBefore = serverCpuMicros();
  const result = await autocannon({
    url: `${url}${path}`,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    title,
    ...options,
  });
  const cpuAfter = serverCpuMicros();
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    serverCpuMicrosPerRequest:
      cpuBefore === null || cpuAfter === null || result.requests.total === 0
        ? null
        : Math.round((cpuAfter - cpuBefore) / result.requests.total),
  };
}

/** The run whose figures are the median by requests/s, so its latencies belong to its throughput. */
const medianRun = (runs: Figures[]): Figures => {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  const run = sorted[Math.floor((sorted.length - 1) / 2)];
  if (run === undefined) throw new Error('no runs');
  return run;
};

const createMessageOptions: Partial<autocannon.Options> = createMessageRequest(headers);

const loadBefore = loadavg()[0];
// A short warm-up so every run meets a JIT-compiled server.
await load('warm-up', '/healthz', { duration: 2 });
await load('warm-up', '/v3/messages', { ...createMessageOptions, duration: 2 });
const runs: Array<{ noop: Figures; createMessage: Figures; ratio: number }> = [];
for (let run = 0; run < RUNS; run += 1) {
  // Each pair back to back, so both of its figures meet the same machine.
  const noopRun = await load('no-op', '/healthz');
  const createRun = await load('create message', '/v3/messages', createMessageOptions);
  runs.push({
    noop: noopRun,
    createMessage: createRun,
    ratio: createRun.requestsPerSecond / noopRun.requestsPerSecond,
  });
}
const loadAfter = loadavg()[0];
const noop = medianRun(runs.map((run) => run.noop));
const createMessage = medianRun(runs.map((run) => run.createMessage));
const ratio = median(runs.map((run) => run.ratio));

const counted = await fetch(`${url}/v3/users/bench-receiver/messages?limit=1`, {
  headers: { ...headers, onBehalfOf: 'bench-sender' },
});
const storedMessages = ((await counted.json()) as { meta: { pagination: { total: number } } }).meta.pagination
  .total;

await cluster.processes.stopAll();
const databaseBytes = ['chat.db', 'chat.db-wal']
  .map((file) => join(dataDir, file))
  .filter((file) => existsSync(file))
  .reduce((sum, file) => sum + statSync(file).size, 0);
await cluster.dispose();

const round3 = (value: number): number => Math.round(value * 1000) / 1000;
const results = {
  date: new Date().toISOString(),
  engine: ENGINE,
  cpus: cpus().length,
  loadAverage: { before: round3(loadBefore ?? 0), after: round3(loadAfter ?? 0) },
  connections: CONNECTIONS,
  durationSeconds: DURATION_SECONDS,
  runs: runs.map((run) => ({ ...run, ratio: round3(run.ratio) })),
  /** The median run of each kind, and the median of the runs' ratios. */
  noop,
  createMessage,
  ratio: round3(ratio),
  storedMessages,
  /** SQLite's file sizes; PostgreSQL's database is dropped with the server. */
  databaseBytesPer100kMessages:
    ENGINE !== 'sqlite' || storedMessages === 0
      ? null
      : Math.round((databaseBytes / storedMessages) * 100_000),
  targets: { messagesPerSecond: TARGET_MESSAGES_PER_SECOND, ratio: TARGET_RATIO },
  meetsTargets: createMessage.requestsPerSecond >= TARGET_MESSAGES_PER_SECOND && ratio >= TARGET_RATIO,
};
const resultsFile = ENGINE === 'sqlite' ? 'chat.json' : 'chat-ratio-postgres.json';
writeFileSync(new URL(`./results/${resultsFile}`, import.meta.url), `${JSON.stringify(results, null, 2)}\n`);

const row = (figures: Figures) => ({
  'req/s': figures.requestsPerSecond,
  'p50 ms': figures.p50Ms,
  'p99 ms': figures.p99Ms,
  'server CPU µs/req': figures.serverCpuMicrosPerRequest,
  non2xx: figures.non2xx,
});
console.table(
  Object.fromEntries(
    runs.flatMap((run, index) => [
      [`run ${index + 1}: no-op (GET /healthz)`, row(run.noop)],
      [`run ${index + 1}: create message (POST /v3/messages)`, row(run.createMessage)],
    ]),
  ),
);
console.log(
  `${ENGINE}: median of ${RUNS} runs: ${createMessage.requestsPerSecond} messages/s (target >= ${TARGET_MESSAGES_PER_SECOND}), ` +
    `no-op ${noop.requestsPerSecond} req/s, ratio ${results.ratio} (target >= ${TARGET_RATIO}); ` +
    `load average ${results.loadAverage.before} -> ${results.loadAverage.after} on ${results.cpus} CPUs; ` +
    `${storedMessages} messages stored; ${results.databaseBytesPer100kMessages} database bytes per 100k messages; ` +
    `results in bench/results/${resultsFile}`,
);
