/**
 * Retrieval quality on two classic test collections, Cranfield (1,400 aerodynamics abstracts, 225
 * queries, graded judgements) and CACM (3,204 titles and abstracts, 52 judged queries, binary
 * judgements): nDCG@10, MAP@100, Recall@100 and MRR@10 as ../shared/data/cranfield/README.md
 * defines them. Per collection:
 * - a plain BM25 implemented here (k1 1.2, b 0.75, the engine's tokenizer, stemmer and stop
 *   words, title + text of each record as one field): the reference every ranking must beat;
 * - the final configuration as a user gets it: one Markdown file per record (`# title` + text)
 *   ingested through the agent's HTTP API, each query sent to searchDocs (maxResults 100);
 * - each ranking feature turned off in turn, and the other ways of scoring a document from its
 *   chunks, on an index of the same chunks the engine made (loader + chunker).
 *
 *   npx tsx bench/knowledge/retrieval.ts [--cranfield ../shared/data/cranfield] [--cacm ../shared/data/cacm]
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { SearchResponse } from '../../shared/agent.js';
import { chunkDocument } from '../../knowledge/chunker.js';
import { loadSource } from '../../knowledge/loaders/index.js';
import {
  createChunkIndex,
  createTokenizer,
  DEFAULT_SETTINGS,
  type IndexSettingsInput,
} from '../../knowledge/search/index.js';
import { inverseDocumentFrequency } from '../../knowledge/search/bm25f.js';
import { agentConfigFromEnv, openAgentEngine, startAgentServer } from '../../knowledge/server/index.js';
import type { Chunk } from '../../knowledge/types.js';

export const DEFAULT_CRANFIELD_DIR = resolve(import.meta.dirname, '../../../shared/data/cranfield');
export const DEFAULT_CACM_DIR = resolve(import.meta.dirname, '../../../shared/data/cacm');

export interface CranfieldAbstract {
  id: string;
  title: string;
  text: string;
}

export interface Cranfield {
  abstracts: CranfieldAbstract[];
  /** Query texts; query n of the judgements is `queries[n - 1]`. */
  queries: string[];
  /** Per query (same order), document id → grade 1 (most relevant) … 4. */
  judgements: Map<string, number>[];
}

/** A collection as the bench scores it: records, and the queries that have judgements. */
export interface TestCollection {
  name: string;
  records: CranfieldAbstract[];
  /** Per query, document id → grade 1 (most relevant) … 4; binary judgements use 4 (gain 1). */
  queries: { text: string; grades: Map<string, number> }[];
}

export interface RetrievalMetrics {
  ndcg10: number;
  map100: number;
  recall100: number;
  mrr10: number;
}

export interface RetrievalRun {
  name: string;
  metrics: RetrievalMetrics;
}

export interface CollectionResult {
  collection: string;
  records: number;
  chunks: number;
  queries: number;
  plainBm25: RetrievalMetrics;
  final: RetrievalMetrics;
  /** The final configuration's nDCG@10 over plain BM25's, minus 1. */
  gain: number;
  runs: RetrievalRun[];
}

export interface RetrievalBenchResult {
  ingestPath: string;
  finalSettings: typeof DEFAULT_SETTINGS;
  collections: CollectionResult[];
  target: {
    everyCollectionAtLeastPlain: boolean;
    averageGain: number;
    averageGainRequired: number;
    met: boolean;
  };
}

/** SMART records: `.I <id>` starts one, `.X` lines start field X, other lines continue the field. */
export function parseSmart(text: string): { id: string; fields: Map<string, string> }[] {
  const records: { id: string; fields: Map<string, string> }[] = [];
  let field = '';
  for (const line of text.split(/\r?\n/)) {
    const marker = /^\.([A-Z])(?:\s+(.*))?$/.exec(line);
    if (marker?.[1] === 'I') {
      records.push({ id: (marker[2] ?? '').trim(), fields: new Map() });
      field = '';
    } else if (marker) {
      field = marker[1] as string;
    } else {
      const fields = records.at(-1)?.fields;
      if (fields && field) fields.set(field, fields.has(field) ? `${fields.get(field)}\n${line}` : line);
    }
  }
  return records;
}

const oneLine = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

export async function readCranfield(dataDir = DEFAULT_CRANFIELD_DIR): Promise<Cranfield> {
  const [all, qry, qrel] = await Promise.all(
    ['cran.all.1400', 'cran.qry', 'cranqrel'].map((file) => readFile(join(dataDir, file), 'utf8')),
  );
  const abstracts = parseSmart(all as string).map(({ id, fields }) => ({
    id,
    title: (fields.get('T') ?? '').trim(),
    text: (fields.get('W') ?? '').trim(),
  }));
  const queries = parseSmart(qry as string).map(({ fields }) => oneLine(fields.get('W')));
  const judgements = queries.map(() => new Map<string, number>());
  for (const line of (qrel as string).split('\n')) {
    const [query, document, grade] = line.trim().split(/\s+/).map(Number);
    if (query === undefined || document === undefined || grade === undefined) continue;
    if (grade >= 1 && grade <= 4) judgements[query - 1]?.set(String(document), grade);
  }
  return { abstracts, queries, judgements };
}

export function cranfieldCollection(cranfield: Cranfield): TestCollection {
  return {
    name: 'Cranfield',
    records: cranfield.abstracts.map(({ id, title, text }) => ({
      id,
      title: oneLine(title),
      text: oneLine(text),
    })),
    queries: cranfield.queries
      .map((text, i) => ({ text, grades: cranfield.judgements[i] as Map<string, number> }))
      .filter(({ grades }) => grades.size > 0),
  };
}

/** CACM: `.T` and `.W` indexed (the rest is bibliographic); query `.I` numbers are the judgement ids. */
export async function readCacm(dataDir = DEFAULT_CACM_DIR): Promise<TestCollection> {
  const [all, query, qrels] = await Promise.all(
    ['cacm.all', 'query.text', 'qrels.text'].map((file) => readFile(join(dataDir, file), 'utf8')),
  );
  const records = parseSmart(all as string).map(({ id, fields }) => ({
    id,
    title: oneLine(fields.get('T')),
    text: oneLine(fields.get('W')),
  }));
  const queries = new Map(
    parseSmart(query as string).map(({ id, fields }) => [
      Number(id),
      { text: oneLine(fields.get('W')), grades: new Map<string, number>() },
    ]),
  );
  for (const line of (qrels as string).split('\n')) {
    const [query, document] = line.trim().split(/\s+/);
    if (query && document) queries.get(Number(query))?.grades.set(String(Number(document)), 4);
  }
  return { name: 'CACM', records, queries: [...queries.values()].filter(({ grades }) => grades.size > 0) };
}

/** The four measures for one ranked list of document ids (best first). */
export function measure(ranked: readonly string[], grades: ReadonlyMap<string, number>): RetrievalMetrics {
  const gain = (grade: number) => 2 ** (5 - grade) - 1;
  let dcg = 0;
  ranked.slice(0, 10).forEach((id, i) => {
    const grade = grades.get(id);
    if (grade !== undefined) dcg += gain(grade) / Math.log2(i + 2);
  });
  const ideal = [...grades.values()].sort((x, y) => x - y).slice(0, 10);
  const idcg = ideal.reduce((sum, grade, i) => sum + gain(grade) / Math.log2(i + 2), 0);
  let found = 0;
  let precisionSum = 0;
  let reciprocalRank = 0;
  ranked.slice(0, 100).forEach((id, i) => {
    if (!grades.has(id)) return;
    found++;
    precisionSum += found / (i + 1);
    if (reciprocalRank === 0 && i < 10) reciprocalRank = 1 / (i + 1);
  });
  const relevant = grades.size;
  return {
    ndcg10: idcg === 0 ? 0 : dcg / idcg,
    map100: relevant === 0 ? 0 : precisionSum / relevant,
    recall100: relevant === 0 ? 0 : found / relevant,
    mrr10: reciprocalRank,
  };
}

export function meanMetrics(perQuery: readonly RetrievalMetrics[]): RetrievalMetrics {
  const mean = (pick: (m: RetrievalMetrics) => number) =>
    perQuery.reduce((sum, metrics) => sum + pick(metrics), 0) / Math.max(1, perQuery.length);
  return {
    ndcg10: mean((m) => m.ndcg10),
    map100: mean((m) => m.map100),
    recall100: mean((m) => m.recall100),
    mrr10: mean((m) => m.mrr10),
  };
}

/** One chunk per abstract: its title, and its text (which in Cranfield starts with the title again). */
export function abstractChunks(abstracts: readonly CranfieldAbstract[]): Chunk[] {
  return abstracts.map(({ id, title, text }) => ({
    id: `${id}#0`,
    documentId: id,
    ordinal: 0,
    text,
    title,
    headingPath: [],
    start: 0,
    end: text.length,
  }));
}

const evaluate = (collection: TestCollection, rank: (query: string) => readonly string[]): RetrievalMetrics =>
  meanMetrics(collection.queries.map(({ text, grades }) => measure(rank(text), grades)));

/**
 * Plain BM25 written out here, independent of the engine's index: k1 1.2, b 0.75, Robertson/Lucene
 * idf, the engine's tokenizer (stemming, stop words), each record's title and text as one field.
 */
export function plainBm25(collection: TestCollection): RetrievalMetrics {
  const k1 = 1.2;
  const b = 0.75;
  const tokenizer = createTokenizer(DEFAULT_SETTINGS.tokenizer);
  const postings = new Map<string, { record: number; tf: number }[]>();
  const lengths = collection.records.map(({ title, text }, record) => {
    const terms = tokenizer.terms(`${title}\n${text}`);
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      const list = postings.get(term) ?? [];
      list.push({ record, tf });
      postings.set(term, list);
    }
    return terms.length;
  });
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / lengths.length;
  const count = collection.records.length;
  return evaluate(collection, (query) => {
    const scores = new Map<number, number>();
    for (const term of tokenizer.terms(query)) {
      const list = postings.get(term) ?? [];
      const idf = inverseDocumentFrequency(count, list.length);
      for (const { record, tf } of list) {
        const norm = k1 * (1 - b + (b * (lengths[record] as number)) / averageLength);
        scores.set(record, (scores.get(record) ?? 0) + (idf * tf * (k1 + 1)) / (tf + norm));
      }
    }
    return [...scores]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, 100)
      .map(([record]) => (collection.records[record] as CranfieldAbstract).id);
  });
}

/** Each record as the file a user would drop in: `<name>-<id>.md` holding `# title` and the text. */
async function writeRecordFiles(collection: TestCollection, folder: string): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const paths: string[] = [];
  for (const { id, title, text } of collection.records) {
    const path = join(folder, `${collection.name.toLowerCase()}-${id}.md`);
    await writeFile(path, `# ${title}\n\n${text}\n`);
    paths.push(path);
  }
  return paths;
}

const recordIdOf = (path: string | undefined) => /-(\d+)\.md$/.exec(basename(path ?? ''))?.[1] ?? '';

/** The chunks the engine makes of each record file (loader + chunker), with whole-record chunks as an option. */
async function engineChunks(paths: readonly string[], wholeRecords: boolean): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for (const path of paths) {
    const document = await loadSource({ kind: 'file', path });
    const options = wholeRecords ? { maxChars: Number.MAX_SAFE_INTEGER, overlapChars: 0 } : {};
    chunks.push(...chunkDocument(document, recordIdOf(path), options));
  }
  return chunks;
}

/** Ranks with `settings` over `chunks`; a document scores as its best chunk, or as the sum of its chunks. */
function evaluateChunks(
  collection: TestCollection,
  chunks: Chunk[],
  settings: IndexSettingsInput,
  documentScore: 'best chunk' | 'sum of chunks' = 'best chunk',
): RetrievalMetrics {
  const index = createChunkIndex(settings);
  index.add(chunks);
  return evaluate(collection, (query) => {
    if (documentScore === 'best chunk')
      return index.search(query, { limit: 100, onePerDocument: true }).map(({ chunk }) => chunk.documentId);
    const sums = new Map<string, number>();
    for (const { chunk, score } of index.search(query, { limit: 1000, onePerDocument: false }))
      sums.set(chunk.documentId, (sums.get(chunk.documentId) ?? 0) + score);
    return [...sums]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 100)
      .map(([documentId]) => documentId);
  });
}

/** The default settings as a user meets them: the record files ingested and searched over the agent's HTTP API. */
async function evaluateThroughApi(
  collection: TestCollection,
  folder: string,
  dataDir: string,
): Promise<RetrievalMetrics> {
  const config = agentConfigFromEnv({ INGEST_ROOTS: folder, AGENT_RATE_LIMIT: '100000000' }, dataDir);
  const engine = await openAgentEngine(dataDir, config);
  const server = await startAgentServer({ config, backend: engine, host: '127.0.0.1', port: 0 });
  const post = async (path: string, body: unknown): Promise<unknown> => {
    const response = await fetch(`${server.apiUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
    return response.json();
  };
  try {
    const namespace = collection.name.toLowerCase();
    const ingested = (await post('/tools/ingestSources', { namespace, sources: [folder] })) as {
      results: { status: string; error?: string }[];
    };
    const failed = ingested.results.filter(({ status }) => status === 'failed');
    if (failed.length > 0) throw new Error(`${failed.length} records failed to ingest: ${failed[0]?.error}`);
    const perQuery: RetrievalMetrics[] = [];
    for (const { text, grades } of collection.queries) {
      const { results } = (await post('/tools/searchDocs', {
        namespace,
        query: text,
        maxResults: 100,
      })) as SearchResponse;
      perQuery.push(
        measure(
          results.map(({ source }) => recordIdOf(source.path)),
          grades,
        ),
      );
    }
    return meanMetrics(perQuery);
  } finally {
    await server.close();
    await engine.close();
  }
}

async function benchCollection(collection: TestCollection, root: string): Promise<CollectionResult> {
  const folder = join(root, collection.name.toLowerCase());
  const paths = await writeRecordFiles(collection, folder);
  const chunks = await engineChunks(paths, false);
  const direct = (
    name: string,
    settings: IndexSettingsInput,
    documentScore?: 'sum of chunks',
  ): RetrievalRun => ({
    name,
    metrics: evaluateChunks(collection, chunks, settings, documentScore),
  });
  const plain = plainBm25(collection);
  const final = await evaluateThroughApi(collection, folder, join(root, 'data'));
  const runs: RetrievalRun[] = [
    { name: 'plain BM25 (in the bench: k1 1.2, b 0.75, whole records, one field)', metrics: plain },
    { name: 'final: default settings, files ingested and searched over the agent API', metrics: final },
    direct('final, same chunks indexed directly', {}),
    direct('  without the title field (title + headings + text as one field)', { fields: 'single' }),
    direct('  without proximity', { ranking: { proximity: { weight: 0 } } }),
    direct('  without RM3', { ranking: { feedback: null } }),
    direct('  RM3 on every query (no confidence check)', { ranking: { feedback: { minConfidence: 0 } } }),
    direct(`  RM3 with Anserini's λ 0.5 (gated as final)`, {
      ranking: { feedback: { originalQueryWeight: 0.5 } },
    }),
    direct('  document = sum of its chunk scores (instead of its best chunk)', {}, 'sum of chunks'),
    {
      name: '  each record indexed whole (no 1,000-character chunks)',
      metrics: evaluateChunks(collection, await engineChunks(paths, true), {}),
    },
    direct('BM25F only (no proximity, no RM3)', { ranking: { proximity: { weight: 0 }, feedback: null } }),
  ];
  return {
    collection: collection.name,
    records: collection.records.length,
    chunks: chunks.length,
    queries: collection.queries.length,
    plainBm25: plain,
    final,
    gain: final.ndcg10 / plain.ndcg10 - 1,
    runs,
  };
}

export async function runRetrievalBench(
  options: { cranfieldDir?: string; cacmDir?: string } = {},
): Promise<RetrievalBenchResult> {
  const collections = [
    cranfieldCollection(await readCranfield(options.cranfieldDir)),
    await readCacm(options.cacmDir),
  ];
  const root = await mkdtemp(join(tmpdir(), 'parley-bench-retrieval-'));
  try {
    const results: CollectionResult[] = [];
    for (const collection of collections) results.push(await benchCollection(collection, root));
    const averageGain = results.reduce((sum, { gain }) => sum + gain, 0) / results.length;
    const everyCollectionAtLeastPlain = results.every(
      ({ final, plainBm25 }) => final.ndcg10 >= plainBm25.ndcg10,
    );
    return {
      ingestPath:
        'one Markdown file per record ("# title" + text) through POST /api/tools/ingestSources, queries through POST /api/tools/searchDocs (maxResults 100); feature runs index the same loader + chunker output directly',
      finalSettings: DEFAULT_SETTINGS,
      collections: results,
      target: {
        everyCollectionAtLeastPlain,
        averageGain,
        averageGainRequired: 0.05,
        met: everyCollectionAtLeastPlain && averageGain >= 0.05,
      },
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const percent = (ratio: number) => `${ratio >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)} %`;

export function retrievalTable(result: RetrievalBenchResult): string {
  const lines: string[] = [];
  for (const collection of result.collections) {
    lines.push(
      `${collection.collection}: ${collection.records} records (${collection.chunks} chunks), ${collection.queries} judged queries`,
      '| ranker | nDCG@10 | vs plain | MAP@100 | R@100 | MRR@10 |',
      '|---|---|---|---|---|---|',
      ...collection.runs.map(
        ({ name, metrics }) =>
          `| ${name} | ${metrics.ndcg10.toFixed(3)} | ${percent(metrics.ndcg10 / collection.plainBm25.ndcg10 - 1)} | ${metrics.map100.toFixed(3)} | ${metrics.recall100.toFixed(3)} | ${metrics.mrr10.toFixed(3)} |`,
      ),
      '',
    );
  }
  const { target } = result;
  lines.push(
    `target: final ≥ plain BM25 on every collection (${target.everyCollectionAtLeastPlain ? 'yes' : 'NO'}) and ≥ ${percent(target.averageGainRequired)} on average (${percent(target.averageGain)}): ${target.met ? 'met' : 'NOT met'}`,
  );
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { values } = parseArgs({ options: { cranfield: { type: 'string' }, cacm: { type: 'string' } } });
  const result = await runRetrievalBench({
    cranfieldDir: values.cranfield && resolve(values.cranfield),
    cacmDir: values.cacm && resolve(values.cacm),
  });
  console.log(retrievalTable(result));
}
