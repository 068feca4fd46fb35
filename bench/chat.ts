/**
 * bench:chat — create-message throughput and latency of the chat service on SQLite, beside a
 * no-op route of the same server in the same run. The server runs as its own process (as in
 * production); autocannon generates the load from this one.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const APP = { appId: 'bench', apiKey: 'bench-full-key', authKey: 'bench-auth-key' };
const TARGET_MESSAGES_PER_SECOND = 3_000;
const TARGET_RATIO = 0.25;

const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-chat-'));
const server = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    'cli/parley.ts',
    '--data-dir',
    dataDir,
    'chat-server',
    '--port',
    '0',
    '--rate-limit',
    'off',
    '--app-id',
    APP.appId,
    '--api-key',
    APP.apiKey,
    '--auth-key',
    APP.authKey,
  ],
  { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, DATABASE_URL: '' } },
);
const url = await new Promise<string>((resolve, reject) => {
  server.once('exit', (code) => reject(new Error(`chat-server exited with ${code}`)));
  createInterface({ input: server.stdout }).on('line', (line) => {
    const match = /listening on (http:\/\/\S+)/.exec(line);
    if (match?.[1] !== undefined) resolve(match[1]);
  });
});

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
}

async function load(
  title: string,
  path: string,
  options: Partial<autocannon.Options> = {},
): Promise<Figures> {
  const result = await autocannon({
    url: `${url}${path}`,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    title,
    ...options,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

// A short warm-up so both runs meet a JIT-compiled server.
await load('warm-up', '/healthz', { duration: 2 });
const noop = await load('no-op', '/healthz');
const createMessage = await load('create message', '/v3/messages', {
  method: 'POST',
  headers: { ...headers, onBehalfOf: 'bench-sender' },
  body: JSON.stringify({
    receiver: 'bench-receiver',
    receiverType: 'user',
    category: 'message',
    type: 'text',
    data: { text: 'A benchmark message of ordinary length, about sixty characters.' },
  }),
});

const counted = await fetch(`${url}/v3/users/bench-receiver/messages?limit=1`, {
  headers: { ...headers, onBehalfOf: 'bench-sender' },
});
const storedMessages = ((await counted.json()) as { meta: { pagination: { total: number } } }).meta.pagination
  .total;

server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
const databaseBytes = ['chat.db', 'chat.db-wal']
  .map((file) => join(dataDir, file))
  .filter((file) => existsSync(file))
  .reduce((sum, file) => sum + statSync(file).size, 0);
rmSync(dataDir, { recursive: true, force: true });

const ratio = createMessage.requestsPerSecond / noop.requestsPerSecond;
const results = {
  date: new Date().toISOString(),
  engine: 'sqlite',
  cpus: cpus().length,
  connections: CONNECTIONS,
  durationSeconds: DURATION_SECONDS,
  noop,
  createMessage,
  ratio: Math.round(ratio * 1000) / 1000,
  storedMessages,
  databaseBytesPer100kMessages:
    storedMessages === 0 ? null : Math.round((databaseBytes / storedMessages) * 100_000),
  targets: { messagesPerSecond: TARGET_MESSAGES_PER_SECOND, ratio: TARGET_RATIO },
  meetsTargets: createMessage.requestsPerSecond >= TARGET_MESSAGES_PER_SECOND && ratio >= TARGET_RATIO,
};
writeFileSync(new URL('./results/chat.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);

console.table({
  'no-op (GET /healthz)': {
    'req/s': noop.requestsPerSecond,
    'p50 ms': noop.p50Ms,
    'p99 ms': noop.p99Ms,
    non2xx: noop.non2xx,
  },
  'create message (POST /v3/messages)': {
    'req/s': createMessage.requestsPerSecond,
    'p50 ms': createMessage.p50Ms,
    'p99 ms': createMessage.p99Ms,
    non2xx: createMessage.non2xx,
  },
});
console.log(
  `ratio ${results.ratio} (target >= ${TARGET_RATIO}); ${storedMessages} messages stored; ` +
    `${results.databaseBytesPer100kMessages} database bytes per 100k messages; results in bench/results/chat.json`,
);
