/**
 * Search latency, memory and restore time of the knowledge index at 1k, 10k and 100k chunks.
 * Corpora are real text: Cranfield sentences recombined into chunks of three to eight sentences
 * (ten chunks per document, titles from Cranfield), queries of 2, 4 and 8 words drawn from the
 * Cranfield queries. Heap is measured after a forced GC with the input chunks dropped, so the
 * index pays for the text it stores; both a freshly built and a restored index are measured.
 *
 *   npx tsx bench/knowledge/search-load.ts [--sizes 1000,10000,100000] [--queries 200]
 */
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  createChunkIndex,
  createTokenizer,
  DEFAULT_SETTINGS,
  restoreChunkIndex,
} from '../../knowledge/search/index.js';
import type { Chunk, ChunkIndex } from '../../knowledge/types.js';
import { readCranfield, type Cranfield } from './retrieval.js';

export interface LatencyFigures {
  terms: number;
  queries: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Process CPU time per query: what a query costs when the machine is shared (2 cores here). */
  cpuP50Ms: number;
  cpuP95Ms: number;
}

export interface SearchLoadSize {
  chunks: number;
  documents: number;
  textBytes: number;
  buildSeconds: number;
  latency: LatencyFigures[];
  /** Heap (JS heap + typed-array buffers) held by the index, per chunk and as a multiple of the text. */
  heapBytesPerChunk: number;
  heapToText: number;
  restoredHeapBytesPerChunk: number;
  restoredHeapToText: number;
  snapshotBytes: number;
  snapshotBytesPerChunk: number;
  snapshotToText: number;
  snapshotSeconds: number;
  restoreSeconds: number;
  /** Process CPU time of the restore, for comparison on a busy machine. */
  restoreCpuSeconds: number;
}

export interface SearchLoadResult {
  settings: string;
  /** 1-minute load average when the run ended, against the cores there are: wall times depend on it. */
  loadAverage: number;
  cores: number;
  sizes: SearchLoadSize[];
  targets: { p95MsAt100kFor8Terms: number; heapToText: number; restoreSecondsAt100k: number };
}

/** A deterministic pseudo-random sequence, so every run measures the same corpus and queries. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function pick<T>(items: readonly T[], next: () => number): T {
  return items[Math.floor(next() * items.length)] as T;
}

const CHUNKS_PER_DOCUMENT = 10;

export function recombinedChunks(cranfield: Cranfield, count: number, seed = 1): Chunk[] {
  const sentences = cranfield.abstracts.flatMap(({ text }) =>
    text
      .replace(/\s+/g, ' ')
      .split(/ \. /)
      .map((sentence) => sentence.trim())
      .filter((sentence) => sentence.length > 20)
      .map((sentence) => `${sentence} .`),
  );
  const titles = cranfield.abstracts.map(({ title }) => title.replace(/\s+/g, ' '));
  const next = random(seed);
  const chunks: Chunk[] = [];
  for (let i = 0; i < count; i++) {
    const documentId = `doc-${Math.floor(i / CHUNKS_PER_DOCUMENT)}`;
    const ordinal = i % CHUNKS_PER_DOCUMENT;
    const parts: string[] = [];
    const sentenceCount = 3 + Math.floor(next() * 6);
    for (let s = 0; s < sentenceCount; s++) parts.push(pick(sentences, next));
    const text = parts.join(' ');
    chunks.push({
      id: `${documentId}#${ordinal}`,
      documentId,
      ordinal,
      text,
      title: pick(titles, next),
      headingPath: [],
      start: 0,
      end: text.length,
    });
  }
  return chunks;
}

/** Queries of `terms` distinct index terms, from the words people used in the Cranfield queries. */
export function queryMix(cranfield: Cranfield, terms: number, count: number, seed = 7): string[] {
  const tokenizer = createTokenizer(DEFAULT_SETTINGS.tokenizer);
  const words = [
    ...new Set(
      cranfield.queries.flatMap((query) =>
        query.split(/\s+/).filter((word) => /^[a-z-]{3,}$/.test(word) && tokenizer.terms(word).length === 1),
      ),
    ),
  ];
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const chosen = new Set<string>();
    while (chosen.size < terms) chosen.add(pick(words, next));
    return [...chosen].join(' ');
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

function measureLatency(index: ChunkIndex, queries: readonly string[], terms: number): LatencyFigures {
  for (const query of queries.slice(0, 20)) index.search(query, { limit: 10 }); // warm up the JIT
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    index.search(query, { limit: 10 });
    const cpu = process.cpuUsage(cpuStarted);
    times.push(performance.now() - started);
    cpuTimes.push((cpu.user + cpu.system) / 1000);
  }
  times.sort((x, y) => x - y);
  cpuTimes.sort((x, y) => x - y);
  return {
    terms,
    queries: queries.length,
    p50Ms: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
    maxMs: times.at(-1) ?? 0,
    cpuP50Ms: percentile(cpuTimes, 0.5),
    cpuP95Ms: percentile(cpuTimes, 0.95),
  };
}

let collectGarbage: (() => void) | undefined;
function heapInUse(): number {
  if (!collectGarbage) {
    setFlagsFromString('--expose-gc');
    collectGarbage = runInNewContext('gc') as () => void;
  }
  collectGarbage();
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

async function measureSize(cranfield: Cranfield, count: number, queryCount: number): Promise<SearchLoadSize> {
  const before = heapInUse();
  let chunks: Chunk[] | undefined = recombinedChunks(cranfield, count);
  const textBytes = chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk.text), 0);
  const buildStarted = performance.now();
  let index: ChunkIndex | undefined = createChunkIndex();
  for (let i = 0; i < chunks.length; i += CHUNKS_PER_DOCUMENT)
    index.add(chunks.slice(i, i + CHUNKS_PER_DOCUMENT));
  const buildSeconds = (performance.now() - buildStarted) / 1000;
  chunks = undefined;
  const heapBytes = heapInUse() - before;

  const latency = [2, 4, 8].map((terms) =>
    measureLatency(index as ChunkIndex, queryMix(cranfield, terms, queryCount), terms),
  );

  const snapshotStarted = performance.now();
  const snapshot = index.snapshot();
  const snapshotSeconds = (performance.now() - snapshotStarted) / 1000;
  index = undefined;
  const afterDrop = heapInUse();
  const restoreStarted = performance.now();
  const restoreCpuStarted = process.cpuUsage();
  const restored = restoreChunkIndex(snapshot);
  const restoreCpu = process.cpuUsage(restoreCpuStarted);
  const restoreSeconds = (performance.now() - restoreStarted) / 1000;
  const restoredHeapBytes = heapInUse() - afterDrop;
  if (restored.size !== count) throw new Error(`restored ${restored.size} chunks, expected ${count}`);

  return {
    chunks: count,
    documents: Math.ceil(count / CHUNKS_PER_DOCUMENT),
    textBytes,
    buildSeconds,
    latency,
    heapBytesPerChunk: heapBytes / count,
    heapToText: heapBytes / textBytes,
    restoredHeapBytesPerChunk: restoredHeapBytes / count,
    restoredHeapToText: restoredHeapBytes / textBytes,
    snapshotBytes: snapshot.byteLength,
    snapshotBytesPerChunk: snapshot.byteLength / count,
    snapshotToText: snapshot.byteLength / textBytes,
    snapshotSeconds,
    restoreSeconds,
    restoreCpuSeconds: (restoreCpu.user + restoreCpu.system) / 1e6,
  };
}

export async function runSearchLoadBench(
  options: { dataDir?: string; sizes?: number[]; queries?: number } = {},
): Promise<SearchLoadResult> {
  const cranfield = await readCranfield(options.dataDir);
  const sizes: SearchLoadSize[] = [];
  for (const count of options.sizes ?? [1_000, 10_000, 100_000]) {
    sizes.push(await measureSize(cranfield, count, options.queries ?? 200));
  }
  return {
    settings: 'default (BM25F + proximity + RM3), limit 10, one chunk per document',
    loadAverage: loadavg()[0] ?? 0,
    cores: availableParallelism(),
    sizes,
    targets: { p95MsAt100kFor8Terms: 25, heapToText: 6, restoreSecondsAt100k: 5 },
  };
}

export function searchLoadTable(result: SearchLoadResult): string {
  const lines = [
    `settings: ${result.settings}; load average ${result.loadAverage.toFixed(1)} on ${result.cores} cores`,
    '| chunks | terms | p50 ms | p95 ms | max ms | CPU p50 ms | CPU p95 ms |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const size of result.sizes) {
    for (const figures of size.latency) {
      lines.push(
        `| ${size.chunks} | ${figures.terms} | ${figures.p50Ms.toFixed(2)} | ${figures.p95Ms.toFixed(2)} | ${figures.maxMs.toFixed(2)} | ${figures.cpuP50Ms.toFixed(2)} | ${figures.cpuP95Ms.toFixed(2)} |`,
      );
    }
  }
  lines.push(
    '',
    '| chunks | text MB | build s | heap B/chunk | heap/text | restored heap/text | snapshot B/chunk | snapshot/text | snapshot s | restore s | restore CPU s |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const size of result.sizes) {
    lines.push(
      `| ${size.chunks} | ${(size.textBytes / 1e6).toFixed(1)} | ${size.buildSeconds.toFixed(2)} | ${size.heapBytesPerChunk.toFixed(0)} | ${size.heapToText.toFixed(2)} | ${size.restoredHeapToText.toFixed(2)} | ${size.snapshotBytesPerChunk.toFixed(0)} | ${size.snapshotToText.toFixed(2)} | ${size.snapshotSeconds.toFixed(2)} | ${size.restoreSeconds.toFixed(2)} | ${size.restoreCpuSeconds.toFixed(2)} |`,
    );
  }
  const { targets } = result;
  lines.push(
    `targets: p95 ≤ ${targets.p95MsAt100kFor8Terms} ms for 8 terms at 100k chunks, heap ≤ ${targets.heapToText} × text, restore ≤ ${targets.restoreSecondsAt100k} s at 100k`,
  );
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { values } = parseArgs({
    options: { data: { type: 'string' }, sizes: { type: 'string' }, queries: { type: 'string' } },
  });
  const result = await runSearchLoadBench({
    dataDir: values.data && resolve(values.data),
    sizes: values.sizes?.split(',').map(Number),
    queries: values.queries ? Number(values.queries) : undefined,
  });
  console.log(searchLoadTable(result));
}
