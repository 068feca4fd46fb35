/**
 * Knowledge agent server benchmark (`npm run bench:agent`):
 * - generate latency p50/p95 with the extractive composer, the 225 Cranfield queries asked in
 *   turn (`@agent <query>`) against a namespace holding the 1,400 Cranfield abstracts;
 * - searchDocs requests/s under concurrent load, beside a no-op route (`GET /api`) of the same
 *   server in the same run, and their ratio;
 * - the same searchDocs load against a second server of the same code whose backend hands back the
 *   hits the engine found for each query beforehand: what a request costs without ranking and
 *   snippets (HTTP, validation, JSON of the same responses), so the engine's cost under load is
 *   the difference;
 * - and against a third whose backend first keeps the CPU busy for as long as the engine takes
 *   alone (an integer loop that touches no memory and allocates nothing), then hands back the same
 *   hits: what any handler that slow costs under load, so what the engine costs beyond that is
 *   its own (garbage collection, caches);
 * - where a searchDocs request's time goes, in CPU µs: ranking by stage (BM25F first pass,
 *   proximity, RM3 feedback) and snippets, one query at a time in this process on the same
 *   queries; under each load, CPU per request, which other work on a shared machine skews far
 *   less than requests/s; the response size; and what the engine may cost for a ratio of 0.25.
 * Prints a table and writes bench/results/agent.json.
 *
 * The machine is shared, so after a warm-up round of each the two loads alternate in `--rounds`
 * rounds, and each ratio (requests/s, and CPU per request) is the median of the rounds' paired
 * ratios: a burst of other work then skews one round, not the figure. The load repeats 50
 * queries; the engine keeps no result cache, so repeating them gains nothing.
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
import {
  agentConfigFromEnv,
  openAgentEngine,
  startAgentServer,
  type KnowledgeBackend,
} from '../knowledge/server/index.js';
import type { SearchHit } from '../shared/agent.js';
import { createLogger } from '../shared/server-kit/index.js';
import { loadNow, writeResults } from './stats.js';

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

/** Where spin() leaves its hash, so the compiler cannot drop the loop as unused. */
const spinHash = new Int32Array(1);

/** Keeps the CPU busy for `turns` turns of an integer hash: no memory read, nothing allocated. */
function spin(turns: number): void {
  let hash = 0;
  for (let turn = 0; turn < turns; turn++) hash = (Math.imul(hash, 31) + turn) | 0;
  spinHash[0] = hash;
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

/**
 * CPU µs per query of `run` (this process: for HTTP, server and client), the median over `rounds`
 * passes of the queries after one warm-up pass. CPU time, unlike elapsed time, does not count the
 * time other work on the machine holds the cores.
 */
async function perQueryMicros(
  queries: readonly string[],
  run: (query: string) => unknown,
  rounds = 7,
): Promise<number> {
  for (const query of queries) await run(query);
  const perQuery: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const cpu = process.cpuUsage();
    for (const query of queries) await run(query);
    const { user, system } = process.cpuUsage(cpu);
    perQuery.push((user + system) / queries.length);
  }
  return Math.round(median(perQuery));
}

/**
 * CPU µs per query of each of `runs`, the median over `rounds` rounds in which every run takes one
 * pass of the queries in turn (after one warm-up pass each): measured one after another instead,
 * the background work the first leaves (the heap swept after the stage indexes were built) is
 * counted against it, and a stage's difference from the one before can come out negative. A pass
 * goes over the queries PASS_REPEATS times, so that one garbage collection is a small part of it.
 */
const PASS_REPEATS = 10;

async function alternatedMicros<Name extends string>(
  queries: readonly string[],
  runs: Record<Name, (query: string) => unknown>,
  rounds = 9,
): Promise<Record<Name, number>> {
  const names = Object.keys(runs) as Name[];
  const passes = new Map<Name, number[]>(names.map((name) => [name, []]));
  for (const name of names) for (const query of queries) await runs[name](query);
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      const cpu = process.cpuUsage();
      for (let repeat = 0; repeat < PASS_REPEATS; repeat++)
        for (const query of queries) await runs[name](query);
      const { user, system } = process.cpuUsage(cpu);
      passes.get(name)!.push((user + system) / (queries.length * PASS_REPEATS));
    }
  }
  return Object.fromEntries(names.map((name) => [name, Math.round(median(passes.get(name)!))])) as Record<
    Name,
    number
  >;
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

const loadBefore = loadNow();
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
  const logger = createLogger((line) => writeSync(logSink, line));
  const server = await startAgentServer({ config, backend: engine, host: '127.0.0.1', port: 0, logger });
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
    const loadQueries = queries.slice(0, 50);
    // The hits of each load query as the engine finds them, handed back by a second server.
    const searchOptions = { limit: 6, snippets: true };
    const recorded = new Map<string, SearchHit[]>();
    for (const query of queries.slice(0, 50)) {
      recorded.set(query.trim(), await engine.search('cranfield', query, searchOptions));
    }
    const replaying: KnowledgeBackend = {
      ingest: (namespace, sources, options) => engine.ingest(namespace, sources, options),
      search: async (_namespace, query) => recorded.get(query.trim()) ?? [],
      namespaces: () => engine.namespaces(),
      documents: (namespace) => engine.documents(namespace),
      documentText: (namespace, documentId) => engine.documentText(namespace, documentId),
      removeDocument: (namespace, documentId) => engine.removeDocument(namespace, documentId),
      deleteNamespace: (namespace) => engine.deleteNamespace(namespace),
    };
    const replayServer = await startAgentServer({
      config,
      backend: replaying,
      host: '127.0.0.1',
      port: 0,
      logger,
    });
    const replayOrigin = replayServer.apiUrl.replace(/\/api$/, '');
    const runs: { noop: LoadRun; search: LoadRun; replay: LoadRun; busy: LoadRun }[] = [];
    let busyServer: Awaited<ReturnType<typeof startAgentServer>> | undefined;
    let engineAloneMicros = 0;
    try {
      // Warm-up: the first load of each kind runs code not yet optimised by the JIT.
      await load(`${origin}/api`, { duration: 1 });
      await load(origin, { requests: searchBodies, duration: 1 });
      await load(replayOrigin, { requests: searchBodies, duration: 1 });
      // The busy server spins as long as the engine takes per query alone, in CPU time: the median of
      // paired passes, so other work on the machine skews one pair, not the length. Measured after the
      // warm-up loads: just after the ingest and the generate requests it measured 338 µs a query
      // against 219 µs at the end of the same run.
      const spinTurns = 1_000_000;
      const turnsPerPair: number[] = [];
      const engineAlonePerPair: number[] = [];
      for (let pair = 0; pair < 7; pair++) {
        const engineMicros = await perQueryMicros(
          loadQueries,
          (q) => engine.search('cranfield', q, searchOptions),
          1,
        );
        const spinMicros = await perQueryMicros([''], () => spin(spinTurns), 1);
        engineAlonePerPair.push(engineMicros);
        turnsPerPair.push((spinTurns * engineMicros) / spinMicros);
      }
      const busyTurns = Math.round(median(turnsPerPair));
      engineAloneMicros = median(engineAlonePerPair);
      busyServer = await startAgentServer({
        config,
        backend: {
          ...replaying,
          search: async (_namespace, query) => {
            spin(busyTurns);
            return recorded.get(query.trim()) ?? [];
          },
        },
        host: '127.0.0.1',
        port: 0,
        logger,
      });
      const busyOrigin = busyServer.apiUrl.replace(/\/api$/, '');
      await load(busyOrigin, { requests: searchBodies, duration: 1 });
      for (let round = 0; round < rounds; round++) {
        const noop = await load(`${origin}/api`, {});
        const search = await load(origin, { requests: searchBodies });
        const replay = await load(replayOrigin, { requests: searchBodies });
        runs.push({ noop, search, replay, busy: await load(busyOrigin, { requests: searchBodies }) });
      }
    } finally {
      await replayServer.close();
      await busyServer?.close();
    }
    const loadRounds = runs.map(({ noop, search }) => ({ noop: noop.result, search: search.result }));
    const noopRps = median(loadRounds.map((r) => r.noop.requests.average));
    const searchRps = median(loadRounds.map((r) => r.search.requests.average));
    const ratios = loadRounds.map((r) => r.search.requests.average / r.noop.requests.average);
    const cpuRatios = runs.map((r) => r.noop.cpuMicrosPerRequest / r.search.cpuMicrosPerRequest);
    const noopCpuMicros = median(runs.map((r) => r.noop.cpuMicrosPerRequest));
    const searchCpuMicros = median(runs.map((r) => r.search.cpuMicrosPerRequest));
    const replayCpuMicros = median(runs.map((r) => r.replay.cpuMicrosPerRequest));
    const engineUnderLoadMicros = median(
      runs.map((r) => r.search.cpuMicrosPerRequest - r.replay.cpuMicrosPerRequest),
    );
    const busyCpuMicros = median(runs.map((r) => r.busy.cpuMicrosPerRequest));
    const slowHandlerMicros = median(
      runs.map((r) => r.busy.cpuMicrosPerRequest - r.replay.cpuMicrosPerRequest - engineAloneMicros),
    );
    const engineBeyondSlowHandlerMicros = median(
      runs.map((r) => r.search.cpuMicrosPerRequest - r.busy.cpuMicrosPerRequest),
    );
    const replayRatio = median(
      runs.map((r) => r.replay.result.requests.average / r.noop.result.requests.average),
    );

    // Where a request's time goes: the same 50 queries, one at a time, in this process.
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
    const micros = await alternatedMicros(loadQueries, {
      bm25fFirstPass: (q) => stages.bm25f.search(q, { limit: 6 }),
      withProximity: (q) => stages.proximity.search(q, { limit: 6 }),
      withFeedback: (q) => stages.full.search(q, { limit: 6 }),
      engine: (q) => engine.search('cranfield', q, { limit: 6 }),
      withSnippets: (q) => engine.search('cranfield', q, searchOptions),
    });
    const responseBytes = median(
      await Promise.all(
        loadQueries.map(async (query) =>
          Buffer.byteLength(
            await (await post('/tools/searchDocs', { query, namespace: 'cranfield' })).text(),
          ),
        ),
      ),
    );
    // One process serves every connection: a request holds it for 1/throughput seconds.
    const serviceMicros = Math.round(1e6 / searchRps);
    const breakdown = {
      note: "CPU µs per searchDocs request (maxResults 6, 50 Cranfield queries): ranking stages, engine and snippets are medians over passes of the queries, one at a time in the bench process; under load, this process's CPU time over a load divided by its requests (server and load generator share the process), median over rounds; replayed = the same requests to a server of the same code whose backend hands back the engine's hits found beforehand; busy = the same with the backend first spinning on the CPU as long as the engine takes alone; service time = 1 / requests per second under load",
      serviceTimeUnderLoad: serviceMicros,
      noopServiceTimeUnderLoad: Math.round(1e6 / noopRps),
      cpuPerRequestUnderLoad: Math.round(searchCpuMicros),
      noopCpuPerRequestUnderLoad: Math.round(noopCpuMicros),
      rankingBm25fFirstPass: micros.bm25fFirstPass,
      rankingProximity: Math.max(0, micros.withProximity - micros.bm25fFirstPass),
      rankingRm3Feedback: Math.max(0, micros.withFeedback - micros.withProximity),
      engineSearch: micros.engine,
      snippets: Math.max(0, micros.withSnippets - micros.engine),
      engineSearchWithSnippets: micros.withSnippets,
      httpValidationJsonUnderLoadBeyondNoop: Math.round(replayCpuMicros - noopCpuMicros),
      responseBytes,
      searchDocsWithHitsReplayedCpuUnderLoad: Math.round(replayCpuMicros),
      engineCpuUnderLoad: Math.round(engineUnderLoadMicros),
      busySearchDocsCpuUnderLoad: Math.round(busyCpuMicros),
      engineAloneBeforeLoads: engineAloneMicros,
      slowHandlerUnderLoad: Math.round(slowHandlerMicros),
      engineBeyondSlowHandlerUnderLoad: Math.round(engineBeyondSlowHandlerMicros),
      engineShareOfSearchDocsCpu: Number((engineUnderLoadMicros / searchCpuMicros).toFixed(3)),
      // The most the ratio could reach if ranking and snippets cost nothing.
      ratioWithHitsReplayed: Number(replayRatio.toFixed(3)),
      cpuRatioWithHitsReplayed: Number((noopCpuMicros / replayCpuMicros).toFixed(3)),
      // What the engine may cost per request under load for a CPU ratio of 0.25.
      engineCpuBudgetForRatio025: Math.round(4 * noopCpuMicros - replayCpuMicros),
    };

    const results = {
      node: process.version,
      // The one-minute load average before and after: requests/s on a shared machine depend on it.
      loadAverage: { before: loadBefore, after: loadNow() },
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
        cpuRatio: Number(median(cpuRatios).toFixed(3)),
        cpuRatiosPerRound: cpuRatios.map((ratio) => Number(ratio.toFixed(3))),
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
      'no-op / searchDocs CPU µs per request (median of rounds; less skewed by other work)':
        results.load.cpuRatio,
      'CPU ratio per round': results.load.cpuRatiosPerRound.join(', '),
      'ingest 1400 abstracts (s)': results.corpus.ingestSeconds,
      'load average (1 min) before, after': `${loadBefore}, ${results.loadAverage.after}`,
    });
    console.log('where a searchDocs request goes (median CPU µs per request):');
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
      'engine search with snippets (what a searchDocs request runs), alone':
        breakdown.engineSearchWithSnippets,
      'under load, replayed searchDocs beyond the no-op (request body, validation, JSON, response bytes)':
        breakdown.httpValidationJsonUnderLoadBeyondNoop,
      'response size (bytes)': breakdown.responseBytes,
      'searchDocs with the hits replayed (no ranking, no snippets): CPU under load':
        breakdown.searchDocsWithHitsReplayedCpuUnderLoad,
      'engine (ranking + snippets) under load: searchDocs minus replayed': breakdown.engineCpuUnderLoad,
      'busy server (spins as long as the engine alone, then replays): CPU under load':
        breakdown.busySearchDocsCpuUnderLoad,
      'engine alone before the loads (the busy server spins this long)': breakdown.engineAloneBeforeLoads,
      'a handler that slow, under load, beyond its own CPU: busy minus replayed minus spin':
        breakdown.slowHandlerUnderLoad,
      'engine under load beyond a handler as slow: searchDocs minus busy (GC, caches)':
        breakdown.engineBeyondSlowHandlerUnderLoad,
      "engine share of a searchDocs request's CPU": breakdown.engineShareOfSearchDocsCpu,
      'ratio with the hits replayed (req/s; the ceiling if the engine cost nothing)':
        breakdown.ratioWithHitsReplayed,
      'CPU ratio with the hits replayed': breakdown.cpuRatioWithHitsReplayed,
      'engine CPU budget per request for a CPU ratio of 0.25': breakdown.engineCpuBudgetForRatio025,
    });
    writeResults('agent', results);
  } finally {
    await server.close();
    await engine.close();
    closeSync(logSink);
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
