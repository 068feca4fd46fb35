/**
 * Chunk size and overlap, measured: Cranfield abstracts are concatenated (in id order, 40 to a
 * document) into long documents, the documents are chunked with knowledge/chunker.ts at each
 * setting, the chunks are ranked with a plain BM25 (k1 1.2, b 0.75, English stemmer and stop
 * words), and each ranked chunk stands for the abstract that supplies most of its text. A good
 * chunk size brings the relevant abstract's passage to the top (nDCG@10, MRR@10 over the graded
 * judgements, as data/cranfield/README.md computes them), and the passages an answer is built
 * from (the top 6, the search default) carry a relevant abstract and little else:
 * `answer@6` = share of queries whose top 6 chunks together hold at least half of some relevant
 * abstract; `on-topic@6` = share of those chunks' characters that come from relevant abstracts.
 *
 *   npx tsx bench/knowledge/chunk-size.ts [--data ../shared/data/cranfield] [--group 40]
 *
 * Prints a table and writes bench/results/chunk-size.json.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { stemmer } from '@orama/stemmers/english';
import { stopwords } from '@orama/stopwords/english';
import { chunkDocument } from '../../knowledge/chunker.js';
import type { Chunk, LoadedDocument } from '../../knowledge/types.js';
import { DEFAULT_CRANFIELD_DIR } from './retrieval.js';

interface Abstract {
  id: number;
  text: string;
}

interface Query {
  text: string;
  /** Abstract id → gain (5 - grade). */
  gains: Map<number, number>;
}

interface Placed {
  id: number;
  start: number;
  end: number;
}

interface Setting {
  maxChars: number;
  overlapChars: number;
}

interface Result extends Setting {
  chunks: number;
  meanChunkChars: number;
  ndcg10: number;
  mrr10: number;
  recall100: number;
  answerAt6: number;
  onTopicAt6: number;
}

/** Passages handed to answer composition (the search default, maxResults 6). */
const CONTEXT_CHUNKS = 6;

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: DEFAULT_CRANFIELD_DIR },
    group: { type: 'string', default: '40' },
  },
});
const dataDir = values.data ?? DEFAULT_CRANFIELD_DIR;
const group = Number(values.group);

const SETTINGS: Setting[] = [250, 500, 750, 1000, 1500, 2000, 3000].flatMap((maxChars) => [
  { maxChars, overlapChars: 0 },
  { maxChars, overlapChars: Math.round(maxChars * 0.15) },
]);

function records(raw: string): Map<string, string>[] {
  return raw
    .split(/^\.I /m)
    .slice(1)
    .map((record) => {
      const fields = new Map<string, string>();
      const [id = '', ...rest] = record.split('\n');
      fields.set('I', id.trim());
      let field = '';
      for (const line of rest) {
        const marker = /^\.([TABW])\s*$/.exec(line);
        if (marker?.[1]) field = marker[1];
        else if (field) fields.set(field, `${fields.get(field) ?? ''}${line}\n`);
      }
      return fields;
    });
}

/** An abstract keeps its inner paragraphs (lines indented by two spaces start one). */
function abstractText(raw: string): string {
  return raw
    .split(/\n(?= {2}\S)/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter((p) => p !== '')
    .join('\n\n');
}

async function loadCranfield(): Promise<{ abstracts: Abstract[]; queries: Query[] }> {
  const [docs, qry, qrel] = await Promise.all(
    ['cran.all.1400', 'cran.qry', 'cranqrel'].map((f) => readFile(join(dataDir, f), 'utf8')),
  );
  const abstracts = records(docs ?? '').map((r) => ({
    id: Number(r.get('I')),
    text: abstractText(r.get('W') ?? ''),
  }));
  const queries: Query[] = records(qry ?? '').map((r) => ({
    text: (r.get('W') ?? '').replace(/\s+/g, ' '),
    gains: new Map(),
  }));
  for (const line of (qrel ?? '').split('\n')) {
    const [q, doc, grade] = line.trim().split(/\s+/).map(Number);
    if (q === undefined || doc === undefined || grade === undefined || grade < 1 || grade > 4) continue;
    queries[q - 1]?.gains.set(doc, 5 - grade);
  }
  return { abstracts, queries: queries.filter((q) => q.gains.size > 0) };
}

/** Long documents of `group` abstracts each, with where each abstract sits in its document. */
function longDocuments(abstracts: Abstract[], group: number): { doc: LoadedDocument; placed: Placed[] }[] {
  const result: { doc: LoadedDocument; placed: Placed[] }[] = [];
  for (let i = 0; i < abstracts.length; i += group) {
    const placed: Placed[] = [];
    let text = '';
    for (const abstract of abstracts.slice(i, i + group)) {
      if (text !== '') text += '\n\n';
      placed.push({ id: abstract.id, start: text.length, end: text.length + abstract.text.length });
      text += abstract.text;
    }
    const doc: LoadedDocument = {
      title: `Cranfield ${i / group + 1}`,
      origin: { kind: 'text' },
      format: 'text',
      pages: [{ text }],
      warnings: [],
    };
    result.push({ doc, placed });
  }
  return result;
}

const STOP = new Set(stopwords);
function tokens(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => !STOP.has(t)).map(stemmer);
}

class Bm25 {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: number[] = [];
  private averageLength = 0;

  constructor(texts: string[]) {
    texts.forEach((text, doc) => {
      const counts = new Map<string, number>();
      const terms = tokens(text);
      for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
      for (const [term, tf] of counts) {
        const list = this.postings.get(term) ?? [];
        list.push({ doc, tf });
        this.postings.set(term, list);
      }
      this.lengths.push(terms.length);
    });
    this.averageLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  rank(query: string, limit: number): number[] {
    const scores = new Map<number, number>();
    const n = this.lengths.length;
    for (const term of new Set(tokens(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = 1.2 * (0.25 + (0.75 * (this.lengths[doc] ?? 0)) / this.averageLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * 2.2) / (tf + norm));
      }
    }
    return [...scores.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([doc]) => doc);
  }
}

function overlap(a: { start: number; end: number }, b: { start: number; end: number }): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
}

function evaluate(setting: Setting, documents: ReturnType<typeof longDocuments>, queries: Query[]): Result {
  const chunks: Chunk[] = [];
  const owner: number[] = [];
  const shares: Map<number, number>[] = [];
  documents.forEach(({ doc, placed }, d) => {
    for (const chunk of chunkDocument(doc, `doc${d}`, setting)) {
      const perAbstract = new Map<number, number>();
      for (const p of placed) {
        const chars = overlap(chunk, p);
        if (chars > 0) perAbstract.set(p.id, chars);
      }
      chunks.push(chunk);
      shares.push(perAbstract);
      owner.push([...perAbstract.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? -1);
    }
  });
  const index = new Bm25(chunks.map((c) => c.text));
  let ndcg = 0;
  let mrr = 0;
  let recall = 0;
  let answered = 0;
  let onTopic = 0;
  const spans = new Map<number, Placed>();
  for (const { placed } of documents) for (const p of placed) spans.set(p.id, p);
  for (const query of queries) {
    const ranked = index.rank(query.text, 1000);
    const abstracts: number[] = [];
    for (const c of ranked) {
      const id = owner[c] ?? -1;
      if (!abstracts.includes(id)) abstracts.push(id);
      if (abstracts.length === 100) break;
    }
    const gains = abstracts.map((id) => query.gains.get(id) ?? 0);
    const dcg = gains.slice(0, 10).reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
    const ideal = [...query.gains.values()]
      .sort((a, b) => b - a)
      .slice(0, 10)
      .reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
    ndcg += ideal > 0 ? dcg / ideal : 0;
    const firstHit = gains.slice(0, 10).findIndex((g) => g > 0);
    mrr += firstHit >= 0 ? 1 / (firstHit + 1) : 0;
    recall += gains.filter((g) => g > 0).length / query.gains.size;
    const context = ranked.slice(0, CONTEXT_CHUNKS);
    const covered = new Map<number, Uint8Array>();
    let relevantChars = 0;
    let contextChars = 0;
    for (const c of context) {
      const chunk = chunks[c] as Chunk;
      contextChars += chunk.end - chunk.start;
      for (const [id, chars] of shares[c] ?? []) {
        const span = spans.get(id);
        if (!query.gains.has(id) || !span) continue;
        relevantChars += chars;
        const marks = covered.get(id) ?? new Uint8Array(span.end - span.start);
        const from = Math.max(chunk.start, span.start) - span.start;
        marks.fill(1, from, from + chars);
        covered.set(id, marks);
      }
    }
    if ([...covered.values()].some((marks) => marks.reduce((a, b) => a + b, 0) >= marks.length / 2))
      answered++;
    onTopic += contextChars > 0 ? relevantChars / contextChars : 0;
  }
  const q = queries.length;
  return {
    ...setting,
    chunks: chunks.length,
    meanChunkChars: Math.round(chunks.reduce((sum, c) => sum + c.text.length, 0) / chunks.length),
    ndcg10: ndcg / q,
    mrr10: mrr / q,
    recall100: recall / q,
    answerAt6: answered / q,
    onTopicAt6: onTopic / q,
  };
}

async function main(): Promise<void> {
  const { abstracts, queries } = await loadCranfield();
  const documents = longDocuments(abstracts, group);
  // Reference: one chunk per abstract, i.e. perfect boundaries (the README's BM25 setting).
  const perAbstract = evaluate({ maxChars: 100_000, overlapChars: 0 }, longDocuments(abstracts, 1), queries);
  const lengths = abstracts.map((a) => a.text.length).sort((a, b) => a - b);
  console.log(
    `${abstracts.length} abstracts (median ${lengths[lengths.length >> 1]} chars) in ${documents.length} documents; ` +
      `${queries.length} judged queries`,
  );
  const results = SETTINGS.map((setting) => evaluate(setting, documents, queries));
  const f = (x: number) => x.toFixed(3);
  console.log(
    '| max chars | overlap | chunks | mean chars | nDCG@10 | MRR@10 | Recall@100 | answer@6 | on-topic@6 |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  const g = perAbstract;
  console.log(
    `| one per abstract | 0 | ${g.chunks} | ${g.meanChunkChars} | ${f(g.ndcg10)} | ${f(g.mrr10)} | ${f(g.recall100)} | ${f(g.answerAt6)} | ${f(g.onTopicAt6)} |`,
  );
  for (const r of results) {
    console.log(
      `| ${r.maxChars} | ${r.overlapChars} | ${r.chunks} | ${r.meanChunkChars} | ${f(r.ndcg10)} | ${f(r.mrr10)} | ` +
        `${f(r.recall100)} | ${f(r.answerAt6)} | ${f(r.onTopicAt6)} |`,
    );
  }
  await mkdir('bench/results', { recursive: true });
  await writeFile(
    'bench/results/chunk-size.json',
    `${JSON.stringify({ group, queries: queries.length, perAbstract, results }, null, 2)}\n`,
  );
}

await main();
