/**
 * Knowledge agent server benchmark (`npm run bench:agent`):
 * - generate latency p50/p95 with the extractive composer, the 225 Cranfield queries asked in
 *   turn (`@agent <query>`) against a namespace holding the 1,400 Cranfield abstracts;
 * - searchDocs requests/s under concurrent load, beside a no-op route (`GET /api`) of the same
 *   server in the same run, and their ratio.
 * Prints a table and writes bench/results/agent.json.
 *
 *   npx tsx bench/agent.ts [--data ../shared/data/cranfield] [--connections 10] [--seconds 5]
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { agentConfigFromEnv, openAgentEngine, startAgentServer } from '../knowledge/server/index.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(repo, '../shared/data/cranfield') },
    connections: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '5' },
  },
});
const connections = Number(values.connections);
const seconds = Number(values.seconds);

/** SMART records: `.I <id>` starts one, `.X` starts a field. */
function records(raw: string): Map<string, string>[] {
  return raw
    .split(/^\.I\s+/m)
    .slice(1)
    .map((record) => {
      const fields = new Map<string, string>([['I', record.split('\n')[0]!.trim()]]);
      for (const [, key, text] of record.matchAll(
        /^\.([A-Z])\s*\n([\s\S]*?)(?=^\.[A-Z]\s*$|$(?![\s\S]))/gm,
      )) {
        fields.set(key!, text!.replace(/\s+/g, ' ').trim());
      }
      return fields;
    });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function load(url: string, options: Partial<autocannon.Options>): Promise<autocannon.Result> {
  return autocannon({ url, connections, duration: seconds, ...options });
}

const root = await mkdtemp(join(tmpdir(), 'parley-bench-agent-'));
try {
  const corpus = join(root, 'cranfield');
  await mkdir(corpus);
  const abstracts = records(await readFile(join(values.data!, 'cran.all.1400'), 'utf8'));
  for (const doc of abstracts) {
    await writeFile(
      join(corpus, `cran-${doc.get('I')}.md`),
      `# ${doc.get('T') ?? ''}\n\n${doc.get('W') ?? ''}\n`,
    );
  }
  const queries = records(await readFile(join(values.data!, 'cran.qry'), 'utf8')).map(
    (q) => q.get('W') ?? '',
  );

  const dataDir = join(root, 'data');
  // Rate limiting would throttle the measurement itself: the bench lifts it.
  const config = agentConfigFromEnv({ INGEST_ROOTS: corpus, AGENT_RATE_LIMIT: '100000000' }, dataDir);
  const engine = await openAgentEngine(dataDir, config);
  const server = await startAgentServer({ config, backend: engine, host: '127.0.0.1', port: 0 });
  const post = (path: string, body: unknown) =>
    fetch(`${server.apiUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  try {
    const ingestStart = performance.now();
    const ingested = (await (
      await post('/tools/ingestSources', { namespace: 'cranfield', sources: [corpus] })
    ).json()) as {
      results: { status: string }[];
    };
    const ingestSeconds = (performance.now() - ingestStart) / 1000;

    const latencies: number[] = [];
    let answered = 0;
    for (const query of queries) {
      const start = performance.now();
      const response = await post('/agents/knowledge/generate', {
        messages: [{ role: 'user', content: `@agent ${query}` }],
        toolParams: { namespace: 'cranfield' },
      });
      const answer = (await response.json()) as { sources: unknown[] };
      latencies.push(performance.now() - start);
      if (answer.sources.length > 0) answered++;
    }
    latencies.sort((a, b) => a - b);

    const searchBodies = queries.slice(0, 50).map((query) => ({
      method: 'POST' as const,
      path: '/api/tools/searchDocs',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, namespace: 'cranfield' }),
    }));
    const origin = server.apiUrl.replace(/\/api$/, '');
    const noop = await load(`${origin}/api`, {});
    const search = await load(origin, { requests: searchBodies });

    const results = {
      date: new Date().toISOString(),
      node: process.version,
      corpus: {
        documents: abstracts.length,
        indexed: ingested.results.filter((r) => r.status === 'indexed').length,
        ingestSeconds: Number(ingestSeconds.toFixed(2)),
      },
      generate: {
        composer: 'extractive',
        requests: latencies.length,
        answeredWithSources: answered,
        p50Ms: Number(percentile(latencies, 50).toFixed(2)),
        p95Ms: Number(percentile(latencies, 95).toFixed(2)),
        meanMs: Number((latencies.reduce((a, b) => a + b, 0) / latencies.length).toFixed(2)),
      },
      load: {
        connections,
        seconds,
        noopRoute: 'GET /api',
        noopRequestsPerSecond: Math.round(noop.requests.average),
        searchDocsRequestsPerSecond: Math.round(search.requests.average),
        searchDocsP50Ms: search.latency.p50,
        searchDocsP99Ms: search.latency.p99,
        ratio: Number((search.requests.average / noop.requests.average).toFixed(3)),
        errors: noop.errors + search.errors + noop.non2xx + search.non2xx,
      },
    };
    console.table({
      'generate p50 (ms)': results.generate.p50Ms,
      'generate p95 (ms)': results.generate.p95Ms,
      'answers with sources': `${answered}/${latencies.length}`,
      'no-op GET /api (req/s)': results.load.noopRequestsPerSecond,
      'searchDocs (req/s)': results.load.searchDocsRequestsPerSecond,
      'searchDocs / no-op': results.load.ratio,
      'ingest 1400 abstracts (s)': results.corpus.ingestSeconds,
    });
    await mkdir(join(repo, 'bench/results'), { recursive: true });
    await writeFile(join(repo, 'bench/results/agent.json'), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await server.close();
    await engine.close();
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
