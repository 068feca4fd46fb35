/**
 * Knowledge agent server benchmark (`npm run bench:agent`):
 * - generate latency p50/p95 with the extractive composer, the 225 Cranfield queries asked in
 *   turn (`@agent <query>`) against a namespace holding the 1,400 Cranfield abstracts;
 * - searchDocs requests/s under concurrent load, beside a no-op route (`GET /api`) of the same
 *   server in the same run, and their ratio;
 * - where a searchDocs request's time goes, measured in the same process on the same queries:
 *   ranking by stage (BM25F first pass, proximity, RM3 feedback), snippets, and the rest of the
 *   request (HTTP, validation, JSON), with the response size; and the CPU time per request under
 *   each load, which, unlike requests/s, other work on a shared machine does not skew.
 * Prints a table and writes bench/results/agent.json.
 *
 * The machine is shared, so the two loads alternate in `--rounds` rounds and the ratio is the
 * median of the rounds' ratios: a burst of other work then skews one round, not the figure.
 *
 *   npx tsx bench/agent.ts [--data ../shared/data/cranfield] [--connections 10] [--seconds 3] [--rounds 5]
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { devNull, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { chunkDocument } from '../knowledge/chunker.js';
import { loadSource } from '../knowledge/loaders/index.js';
import { createChunkIndex, type IndexSettingsInput } from '../knowledge/search/index.js';
import type { Chunk, ChunkIndex } from '../knowledge/types.js';
import { agentConfigFromEnv, openAgentEngine, startAgentServer } from '../knowledge/server/index.js';
import { createLogger } from '../shared/server-kit/index.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(repo, '../shared/data/cranfield') },
    connections: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '5' },
  },
});
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);

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

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** Median microseconds per query of `run`, over `rounds` passes of the queries after one warm-up pass. */
async function perQueryMicros(
  queries: readonly string[],
  run: (query: string) => unknown,
  rounds = 5,
): Promise<number> {
  for (const query of queries) await run(query);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const start = performance.now();
      await run(query);
      times.push((performance.now() - start) * 1000);
    }
  }
  return Math.round(median(times));
}

/** An index of `chunks` ranking with `settings`: the engine's own index, one ranking stage at a time. */
function stageIndex(chunks: Chunk[], settings: IndexSettingsInput): ChunkIndex {
  const index = createChunkIndex(settings);
  index.add(chunks);
  return index;
}

interface LoadRun {
  result: autocannon.Result;
  /** CPU µs this process spent per request (server and load generator): unlike req/s, not skewed by other work on the machine. */
  cpuMicrosPerRequest: number;
}

async function load(url: string, options: Partial<autocannon.Options>): Promise<LoadRun> {
  const cpu = process.cpuUsage();
  const result = await autocannon({ url, connections, duration: seconds, ...options });
  const { user, system } = process.cpuUsage(cpu);
  return { result, cpuMicrosPerRequest: (user + system) / Math.max(1, result.requests.total) };
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
  // Request lines are written as a deployed agent writes them to a file or pipe (synchronously),
  // to the null device so the table stays readable.
  const logSink = openSync(devNull, 'w');
  const server = await startAgentServer({
    config,
    backend: engine,
    host: '127.0.0.1',
    port: 0,
    logger: createLogger((line) => writeSync(logSink, line)),
  });
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
    const runs: { noop: LoadRun; search: LoadRun }[] = [];
    for (let round = 0; round < rounds; round++) {
      const noopRound = await load(`${origin}/api`, {});
      runs.push({ noop: noopRound, search: await load(origin, { requests: searchBodies }) });
    }
    const loadRounds = runs.map(({ noop, search }) => ({ noop: noop.result, search: search.result }));
    const noopRps = median(loadRounds.map((r) => r.noop.requests.average));
    const searchRps = median(loadRounds.map((r) => r.search.requests.average));
    const ratios = loadRounds.map((r) => r.search.requests.average / r.noop.requests.average);
    const noopCpuMicros = median(runs.map((r) => r.noop.cpuMicrosPerRequest));
    const searchCpuMicros = median(runs.map((r) => r.search.cpuMicrosPerRequest));

    // Where a request's time goes: the same 50 queries, one at a time, in this process.
    const loadQueries = queries.slice(0, 50);
    const chunks: Chunk[] = [];
    for (const doc of abstracts) {
      const path = join(corpus, `cran-${doc.get('I')}.md`);
      chunks.push(...chunkDocument(await loadSource({ kind: 'file', path }), String(doc.get('I'))));
    }
    const stages = {
      bm25f: stageIndex(chunks, { ranking: { proximity: { weight: 0 }, feedback: null } }),
      proximity: stageIndex(chunks, { ranking: { feedback: null } }),
      full: stageIndex(chunks, {}),
    };
    const rankMicros = {
      bm25fFirstPass: await perQueryMicros(loadQueries, (q) => stages.bm25f.search(q, { limit: 6 })),
      withProximity: await perQueryMicros(loadQueries, (q) => stages.proximity.search(q, { limit: 6 })),
      withFeedback: await perQueryMicros(loadQueries, (q) => stages.full.search(q, { limit: 6 })),
    };
    const engineMicros = await perQueryMicros(loadQueries, (q) =>
      engine.search('cranfield', q, { limit: 6 }),
    );
    const withSnippetsMicros = await perQueryMicros(loadQueries, (q) =>
      engine.search('cranfield', q, { limit: 6, snippets: true }),
    );
    const responseBytes = median(
      await Promise.all(
        loadQueries.map(async (query) =>
          Buffer.byteLength(
            await (await post('/tools/searchDocs', { query, namespace: 'cranfield' })).text(),
          ),
        ),
      ),
    );
    const serialNoopMicros = await perQueryMicros(loadQueries, async () =>
      (await fetch(server.apiUrl)).text(),
    );
    const serialSearchMicros = await perQueryMicros(loadQueries, async (query) =>
      (await post('/tools/searchDocs', { query, namespace: 'cranfield' })).text(),
    );
    // One process serves every connection: a request holds it for 1/throughput seconds.
    const serviceMicros = Math.round(1e6 / searchRps);
    const breakdown = {
      note: "median µs per searchDocs request (maxResults 6, 50 Cranfield queries), one at a time in the bench process (which also runs the load generator); service time = 1 / requests per second under load; CPU per request = this process's CPU time over a load divided by its requests (server and load generator share the process), which other work on the machine does not skew",
      serviceTimeUnderLoad: serviceMicros,
      noopServiceTimeUnderLoad: Math.round(1e6 / noopRps),
      cpuPerRequestUnderLoad: Math.round(searchCpuMicros),
      noopCpuPerRequestUnderLoad: Math.round(noopCpuMicros),
      rankingBm25fFirstPass: rankMicros.bm25fFirstPass,
      rankingProximity: Math.max(0, rankMicros.withProximity - rankMicros.bm25fFirstPass),
      rankingRm3Feedback: Math.max(0, rankMicros.withFeedback - rankMicros.withProximity),
      engineSearch: engineMicros,
      snippets: Math.max(0, withSnippetsMicros - engineMicros),
      serialNoopOverHttp: serialNoopMicros,
      serialSearchDocsOverHttp: serialSearchMicros,
      validationJsonBeyondNoop: Math.max(0, serialSearchMicros - serialNoopMicros - withSnippetsMicros),
      waitingUnderLoad: Math.max(0, serviceMicros - serialSearchMicros),
      httpValidationJsonUnderLoadBeyondNoop: Math.max(
        0,
        Math.round(searchCpuMicros - noopCpuMicros - withSnippetsMicros),
      ),
      responseBytes,
    };

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
        rounds,
        noopRoute: 'GET /api',
        noopRequestsPerSecond: Math.round(noopRps),
        searchDocsRequestsPerSecond: Math.round(searchRps),
        searchDocsP50Ms: median(loadRounds.map((r) => r.search.latency.p50)),
        searchDocsP99Ms: median(loadRounds.map((r) => r.search.latency.p99)),
        ratio: Number(median(ratios).toFixed(3)),
        ratiosPerRound: ratios.map((ratio) => Number(ratio.toFixed(3))),
        cpuRatio: Number((noopCpuMicros / searchCpuMicros).toFixed(3)),
        errors: loadRounds.reduce(
          (sum, { noop, search }) => sum + noop.errors + search.errors + noop.non2xx + search.non2xx,
          0,
        ),
      },
      searchDocsBreakdownMicros: breakdown,
    };
    console.table({
      'generate p50 (ms)': results.generate.p50Ms,
      'generate p95 (ms)': results.generate.p95Ms,
      'answers with sources': `${answered}/${latencies.length}`,
      'no-op GET /api (req/s)': results.load.noopRequestsPerSecond,
      'searchDocs (req/s)': results.load.searchDocsRequestsPerSecond,
      'searchDocs / no-op (median of rounds)': results.load.ratio,
      'ratio per round': results.load.ratiosPerRound.join(', '),
      'no-op / searchDocs CPU µs per request (not skewed by other work)': results.load.cpuRatio,
      'ingest 1400 abstracts (s)': results.corpus.ingestSeconds,
    });
    console.log('where a searchDocs request goes (median µs per request):');
    console.table({
      'service time under load (1 / req/s)': breakdown.serviceTimeUnderLoad,
      'no-op service time under load': breakdown.noopServiceTimeUnderLoad,
      'CPU per searchDocs request under load (server + load generator)': breakdown.cpuPerRequestUnderLoad,
      'CPU per no-op request under load': breakdown.noopCpuPerRequestUnderLoad,
      'ranking: BM25F first pass': breakdown.rankingBm25fFirstPass,
      'ranking: proximity re-rank': breakdown.rankingProximity,
      'ranking: RM3 feedback (second pass)': breakdown.rankingRm3Feedback,
      'engine search, no snippets': breakdown.engineSearch,
      'snippets (6 results)': breakdown.snippets,
      'no-op over HTTP, one at a time': breakdown.serialNoopOverHttp,
      'searchDocs over HTTP, one at a time': breakdown.serialSearchDocsOverHttp,
      'validation, JSON, response beyond the no-op': breakdown.validationJsonBeyondNoop,
      'under load, CPU beyond the no-op and the engine (HTTP body, validation, JSON, response bytes)':
        breakdown.httpValidationJsonUnderLoadBeyondNoop,
      'service time under load minus one at a time (CPU shared with the load generator and other work)':
        breakdown.waitingUnderLoad,
      'response size (bytes)': breakdown.responseBytes,
    });
    await mkdir(join(repo, 'bench/results'), { recursive: true });
    await writeFile(join(repo, 'bench/results/agent.json'), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await server.close();
    await engine.close();
    closeSync(logSink);
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
