/**
 * Retrieval quality on the Cranfield collection (1,400 aerodynamics abstracts, 225 queries with
 * graded judgements): nDCG@10, MAP@100, Recall@100 and MRR@10, as ../shared/data/cranfield/README.md
 * defines them, for plain BM25 and each ranking step on the same index, and for the default
 * settings with the abstracts ingested through the knowledge engine (Markdown files → loaders →
 * chunker → index). Printed beside the README's reference figures.
 *
 *   npx tsx bench/knowledge/retrieval.ts [--data ../shared/data/cranfield]
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { KnowledgeEngine } from '../../knowledge/index.js';
import {
  createChunkIndex,
  DEFAULT_SETTINGS,
  PLAIN_BM25_SETTINGS,
  type IndexSettingsInput,
} from '../../knowledge/search/index.js';
import type { Chunk } from '../../knowledge/types.js';

export const DEFAULT_CRANFIELD_DIR = resolve(import.meta.dirname, '../../../shared/data/cranfield');

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

export interface RetrievalBenchResult {
  collection: { abstracts: number; queries: number; judgements: number };
  /** How the engine run got its chunks. */
  ingestPath: string;
  runs: RetrievalRun[];
  /** From ../shared/data/cranfield/README.md, measured there on the same data. */
  reference: RetrievalRun[];
  acceptance: { ndcg10Required: number; ndcg10Aim: number; ndcg10Engine: number; met: boolean };
}

export const README_REFERENCE: RetrievalRun[] = [
  { name: 'README: plain BM25', metrics: { ndcg10: 0.361, map100: 0.308, recall100: 0.749, mrr10: 0.532 } },
  {
    name: 'README: Orama 3.1 default search',
    metrics: { ndcg10: 0.08, map100: 0.061, recall100: 0.378, mrr10: 0.155 },
  },
  {
    name: 'README: Orama 3.1 + stemmer + stop words',
    metrics: { ndcg10: 0.159, map100: 0.13, recall100: 0.526, mrr10: 0.284 },
  },
];

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

export async function readCranfield(dataDir = DEFAULT_CRANFIELD_DIR): Promise<Cranfield> {
  const [all, qry, qrel] = await Promise.all(
    ['cran.all.1400', 'cran.qry', 'cranqrel'].map((file) => readFile(join(dataDir, file), 'utf8')),
  );
  const abstracts = parseSmart(all as string).map(({ id, fields }) => ({
    id,
    title: (fields.get('T') ?? '').trim(),
    text: (fields.get('W') ?? '').trim(),
  }));
  const queries = parseSmart(qry as string).map(({ fields }) =>
    (fields.get('W') ?? '').replace(/\s+/g, ' ').trim(),
  );
  const judgements = queries.map(() => new Map<string, number>());
  for (const line of (qrel as string).split('\n')) {
    const [query, document, grade] = line.trim().split(/\s+/).map(Number);
    if (query === undefined || document === undefined || grade === undefined) continue;
    if (grade >= 1 && grade <= 4) judgements[query - 1]?.set(String(document), grade);
  }
  return { abstracts, queries, judgements };
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

/** Ranks every query against a fresh index built directly from the abstracts with `settings`. */
export function evaluateSettings(cranfield: Cranfield, settings: IndexSettingsInput): RetrievalMetrics {
  const index = createChunkIndex(settings);
  index.add(abstractChunks(cranfield.abstracts));
  return meanMetrics(
    cranfield.queries.map((query, i) =>
      measure(
        index.search(query, { limit: 100, onePerDocument: true }).map(({ chunk }) => chunk.documentId),
        cranfield.judgements[i] as Map<string, number>,
      ),
    ),
  );
}

/** The default settings end to end: abstracts written as Markdown files and ingested by the engine. */
async function evaluateThroughEngine(cranfield: Cranfield): Promise<RetrievalMetrics> {
  const root = await mkdtemp(join(tmpdir(), 'parley-bench-retrieval-'));
  const engine = await KnowledgeEngine.open({ dataDir: join(root, 'data') });
  try {
    const corpus = join(root, 'cranfield');
    await mkdir(corpus);
    for (const { id, title, text } of cranfield.abstracts) {
      await writeFile(join(corpus, `cran-${id}.md`), `# ${title}\n\n${text}\n`);
    }
    const results = await engine.ingest('cranfield', [{ kind: 'file', path: corpus }]);
    const failed = results.filter((result) => result.status === 'failed');
    if (failed.length > 0)
      throw new Error(`${failed.length} abstracts failed to ingest: ${failed[0]?.error}`);
    const perQuery: RetrievalMetrics[] = [];
    for (const [i, query] of cranfield.queries.entries()) {
      const hits = await engine.search('cranfield', query, { limit: 100, onePerDocument: true });
      const ranked = hits.map((hit) => /^cran-(\d+)\.md$/.exec(basename(hit.source.path ?? ''))?.[1] ?? '');
      perQuery.push(measure(ranked, cranfield.judgements[i] as Map<string, number>));
    }
    return meanMetrics(perQuery);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
}

const withoutFeedback: IndexSettingsInput = { ranking: { feedback: null } };

export async function runRetrievalBench(options: { dataDir?: string } = {}): Promise<RetrievalBenchResult> {
  const cranfield = await readCranfield(options.dataDir);
  const direct = (name: string, settings: IndexSettingsInput): RetrievalRun => ({
    name,
    metrics: evaluateSettings(cranfield, settings),
  });
  const runs: RetrievalRun[] = [
    direct('plain BM25 (k1 1.2, b 0.75, title + text one field)', PLAIN_BM25_SETTINGS),
    direct(`BM25F (title weight ${DEFAULT_SETTINGS.ranking.titleWeight})`, {
      ranking: { feedback: null, proximity: { weight: 0 } },
    }),
    direct('BM25F + proximity', withoutFeedback),
    direct('BM25F + proximity + RM3 = default settings', {}),
  ];
  const engineMetrics = await evaluateThroughEngine(cranfield);
  runs.push({ name: 'default settings, ingested through the engine', metrics: engineMetrics });
  return {
    collection: {
      abstracts: cranfield.abstracts.length,
      queries: cranfield.queries.length,
      judgements: cranfield.judgements.reduce((sum, grades) => sum + grades.size, 0),
    },
    ingestPath:
      'direct runs: one chunk per abstract (title, abstract text; documentId = Cranfield id); engine run: cran-<id>.md files ("# title" + abstract) through KnowledgeEngine.ingest and search',
    runs,
    reference: README_REFERENCE,
    acceptance: {
      ndcg10Required: 0.361,
      ndcg10Aim: 0.4,
      ndcg10Engine: engineMetrics.ndcg10,
      met: engineMetrics.ndcg10 >= 0.361,
    },
  };
}

export function retrievalTable(result: RetrievalBenchResult): string {
  const row = ({ name, metrics }: RetrievalRun) =>
    `| ${name} | ${metrics.ndcg10.toFixed(3)} | ${metrics.map100.toFixed(3)} | ${metrics.recall100.toFixed(3)} | ${metrics.mrr10.toFixed(3)} |`;
  return [
    `Cranfield: ${result.collection.abstracts} abstracts, ${result.collection.queries} queries, ${result.collection.judgements} judgements`,
    '| ranker | nDCG@10 | MAP@100 | Recall@100 | MRR@10 |',
    '|---|---|---|---|---|',
    ...result.runs.map(row),
    ...result.reference.map(row),
    `acceptance: nDCG@10 through the engine ${result.acceptance.ndcg10Engine.toFixed(3)} ≥ ${result.acceptance.ndcg10Required}: ${result.acceptance.met ? 'met' : 'NOT met'} (aim ${result.acceptance.ndcg10Aim})`,
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { values } = parseArgs({ options: { data: { type: 'string' } } });
  const result = await runRetrievalBench({ dataDir: values.data && resolve(values.data) });
  console.log(retrievalTable(result));
}
