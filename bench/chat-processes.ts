/**
 * bench:chat, second part — create-message throughput and latency on PostgreSQL with 1 and with
 * BENCH_PROCESSES (default 3) chat-service processes joined by Redis, in the same run. The load is
 * split evenly over the processes (one autocannon per process, BENCH_CONNECTIONS in all), as a
 * balancer without sticky sessions splits it. Each setup is measured BENCH_RUNS times and the
 * median run is reported (the machine may be shared and noisy); results in
 * bench/results/chat-postgres.json.
 */
import autocannon from 'autocannon';
import { createMessageRequest, loadNow, median, writeResults } from './stats.js';
import { startChatCluster, type ChatCluster } from '../test/support/chat-cluster.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 3);
/** On loopback, and no rate limit: a benchmark measures the service, not its limits. */
const SERVER_ARGS = ['--host', '127.0.0.1', '--rate-limit', 'off'];
const APP = { appId: 'bench', apiKey: 'bench-full-key', authKey: 'bench-auth-key' };
const headers = { apikey: APP.apiKey, 'content-type': 'application/json' };

interface Figures {
  requestsPerSecond: number;
  /** The median of the processes' p50s, and the highest of their p99s. */
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

const createMessage: Partial<autocannon.Options> = createMessageRequest(headers);

/** One run: every process loaded at once, each with its share of the connections. */
async function load(cluster: ChatCluster, duration: number): Promise<Figures> {
  const share = Math.max(1, Math.round(CONNECTIONS / cluster.urls.length));
  const results = await Promise.all(
    cluster.urls.map((url) =>
      autocannon({ url: `${url}/v3/messages`, connections: share, duration, ...createMessage }),
    ),
  );
  return {
    requestsPerSecond: Math.round(results.reduce((sum, result) => sum + result.requests.average, 0)),
    p50Ms: median(results.map((result) => result.latency.p50)),
    p99Ms: Math.max(...results.map((result) => result.latency.p99)),
    requests: results.reduce((sum, result) => sum + result.requests.total, 0),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
  };
}

async function measure(processes: number): Promise<{ runs: Figures[]; median: Figures }> {
  const cluster = await startChatCluster({
    app: APP,
    engine: 'postgres',
    count: processes,
    args: SERVER_ARGS,
  });
  try {
    for (const uid of ['bench-sender', 'bench-receiver']) {
      const response = await fetch(`${cluster.urls[0]}/v3/users`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ uid, name: uid }),
      });
      if (response.status !== 200) throw new Error(`creating ${uid} failed: ${response.status}`);
    }
    // A short warm-up so every run meets JIT-compiled servers with their connection pools open.
    await load(cluster, 2);
    const runs: Figures[] = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await load(cluster, DURATION_SECONDS));
    const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
    return { runs, median: sorted[Math.floor((sorted.length - 1) / 2)] as Figures };
  } finally {
    await cluster.dispose();
  }
}

const loadBefore = loadNow();
const one = await measure(1);
const several = await measure(PROCESSES);
const results = writeResults('chat-postgres', {
  engine: 'postgres',
  loadAverage: { before: loadBefore, after: loadNow() },
  connections: CONNECTIONS,
  durationSeconds: DURATION_SECONDS,
  oneProcess: one,
  severalProcesses: { processes: PROCESSES, ...several },
});
const row = (figures: Figures) => ({
  'req/s': figures.requestsPerSecond,
  'p50 ms': figures.p50Ms,
  'p99 ms': figures.p99Ms,
  non2xx: figures.non2xx,
  errors: figures.errors,
});
console.table({
  '1 process (PostgreSQL)': row(one.median),
  [`${PROCESSES} processes (PostgreSQL + Redis)`]: row(several.median),
});
console.log(
  `median of ${RUNS} runs of create message (POST /v3/messages), ${CONNECTIONS} connections; ` +
    `load average ${results.loadAverage.before} -> ${results.loadAverage.after} on ${results.cpus} CPUs; ` +
    'results in bench/results/chat-postgres.json',
);
