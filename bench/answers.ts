/**
 * Answer benchmark on real manuals (`npm run bench:answers`): each question set in bench/answers/
 * names a manual installed from Debian; its files are ingested THROUGH THE AGENT HTTP API (the real
 * agent server on an ephemeral port), then every question goes to searchDocs (top 5) and to
 * generate (extractive composer, no language model). Per manual it reports:
 * - ingest time of the folder;
 * - search hit@5: an expected page among searchDocs' first five results;
 * - cites expected: the answer cites an expected page (a file of the manual, or a PDF page number);
 * - answer hits: the answer's text before `Sources:`, as the widget shows it (`markdownToPlainText`,
 *   without Markdown marks), matches the answer pattern AND the answer cites an expected page.
 * - citation marks per answer (median/max): ` [n]` marks in the answer's text; the composer quotes
 *   at most 5 sentences, one mark each, but a quoted row may hold a document's own `[1]`.
 * Prints a table and writes bench/results/answers.json with the misses listed.
 *
 *   npx tsx bench/answers.ts [--only python-library,git] [--verbose]
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Citation, GenerateResponse, SearchResponse } from '../shared/agent.js';
import { agentConfigFromEnv, openAgentEngine, startAgentServer } from '../knowledge/server/index.js';
import { copyManual, displayedAnswer, isExpected, readSet, setNames as listSets } from './answer-sets.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { only: { type: 'string' }, verbose: { type: 'boolean', default: false } },
});

const percent = (count: number, total: number): number => Number(((100 * count) / total).toFixed(1));

const setNames = await listSets(values.only?.split(',').map((name) => name.trim()));

const root = await mkdtemp(join(tmpdir(), 'parley-bench-answers-'));
const dataDir = join(root, 'data');
// Rate limiting would throttle the measurement itself: the bench lifts it.
const config = agentConfigFromEnv({ INGEST_ROOTS: root, AGENT_RATE_LIMIT: '100000000' }, dataDir);
const engine = await openAgentEngine(dataDir, config);
const server = await startAgentServer({ config, backend: engine, host: '127.0.0.1', port: 0 });
const post = async <T>(path: string, body: unknown): Promise<T> => {
  const response = await fetch(`${server.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

const manuals: Record<string, unknown>[] = [];
const rows: Record<string, Record<string, string | number>> = {};
try {
  for (const name of setNames) {
    const set = await readSet(name);
    if (!(await stat(set.root).catch(() => undefined))) {
      const install = set.install ?? `sudo apt-get install ${set.package}`;
      console.log(`${name}: ${set.root} is missing — install it with: ${install}`);
      manuals.push({ name, manual: set.manual, skipped: `${set.root} is missing` });
      continue;
    }
    // A copy holding only the included files, so the folder ingested is exactly the manual.
    const copy = join(root, name);
    const files = await copyManual(set, copy);
    const namespace = name.replace(/[^a-z0-9._-]/g, '-');
    const ingestStart = performance.now();
    const ingested = await post<{ results: { status: string }[] }>('/tools/ingestSources', {
      namespace,
      sources: [copy],
    });
    const ingestSeconds = (performance.now() - ingestStart) / 1000;

    let searchHits = 0;
    let citesExpected = 0;
    let answerHits = 0;
    const misses: Record<string, unknown>[] = [];
    const generateMs: number[] = [];
    const citationMarks: number[] = [];
    for (const { question, pages, answer } of set.questions) {
      const search = await post<SearchResponse>('/tools/searchDocs', {
        query: question,
        namespace,
        maxResults: 5,
      });
      const searchHit = search.results.some((hit) => isExpected(hit.source, pages, copy));
      const start = performance.now();
      const generated = await post<GenerateResponse>('/agents/knowledge/generate', {
        messages: [{ role: 'user', content: question }],
        toolParams: { namespace },
        requireMention: false,
      });
      generateMs.push(performance.now() - start);
      const cited = generated.sources.some((source: Citation) => isExpected(source, pages, copy));
      const body = displayedAnswer(generated.text);
      const hit = cited && new RegExp(answer, 'i').test(body);
      citationMarks.push(body.match(/ \[\d+\](?= |$)/g)?.length ?? 0);
      searchHits += Number(searchHit);
      citesExpected += Number(cited);
      answerHits += Number(hit);
      if (!hit) {
        misses.push({
          question,
          searchHit,
          cited,
          answer: body,
          citedPages: generated.sources.map(
            (source) =>
              source.page ?? (source.path ? relative(copy, source.path).split(sep).join('/') : source.title),
          ),
        });
        if (values.verbose && !set.heldOut) console.log(`MISS ${question}\n  ${body}\n`);
      }
    }
    const total = set.questions.length;
    generateMs.sort((a, b) => a - b);
    const result = {
      name,
      manual: set.manual,
      package: set.package,
      heldOut: set.heldOut,
      files: files.length,
      indexed: ingested.results.filter((r) => r.status === 'indexed').length,
      ingestSeconds: Number(ingestSeconds.toFixed(2)),
      questions: total,
      searchHitAt5: percent(searchHits, total),
      citesExpectedPage: percent(citesExpected, total),
      answerHits: percent(answerHits, total),
      generateMedianMs: Number((generateMs[Math.floor(generateMs.length / 2)] ?? 0).toFixed(1)),
      medianCitationMarks: citationMarks.sort((a, b) => a - b)[Math.floor(citationMarks.length / 2)] ?? 0,
      maxCitationMarks: Math.max(...citationMarks),
      misses,
    };
    manuals.push(result);
    rows[set.heldOut ? `${name} (held out)` : name] = {
      files: result.files,
      'ingest (s)': result.ingestSeconds,
      questions: total,
      'search hit@5 %': result.searchHitAt5,
      'cites expected %': result.citesExpectedPage,
      'answer hits %': result.answerHits,
      'citation marks (median/max)': `${result.medianCitationMarks}/${result.maxCitationMarks}`,
    };
  }
} finally {
  await server.close();
  await engine.close();
  await rm(root, { recursive: true, force: true });
}

type Scored = { questions: number; answerHits: number; searchHitAt5: number; heldOut: boolean };
const scored = manuals.filter((m): m is Scored => typeof m.questions === 'number');
/** Question-weighted figures over some of the manuals. */
function summary(sets: readonly Scored[]) {
  const questions = sets.reduce((sum, m) => sum + m.questions, 0);
  const weighted = (pick: (m: Scored) => number): number =>
    percent(
      sets.reduce((sum, m) => sum + (pick(m) * m.questions) / 100, 0),
      questions,
    );
  return {
    questions,
    searchHitAt5: weighted((m) => m.searchHitAt5),
    answerHits: weighted((m) => m.answerHits),
  };
}
const overall = {
  ...summary(scored.filter((m) => !m.heldOut)),
  targets: { answerHits: 85, searchHitAt5: 90 },
};
const heldOut = summary(scored.filter((m) => m.heldOut));
console.table(rows);
if (overall.questions > 0)
  console.log(
    `manuals tuned on: ${overall.questions} questions, search hit@5 ${overall.searchHitAt5} % (target 90), ` +
      `answer hits ${overall.answerHits} % (target 85); composer: extractive, no language model`,
  );
if (heldOut.questions > 0)
  console.log(
    `held-out check: ${heldOut.questions} questions, search hit@5 ${heldOut.searchHitAt5} %, ` +
      `answer hits ${heldOut.answerHits} %`,
  );
await mkdir(join(repo, 'bench/results'), { recursive: true });
await writeFile(
  join(repo, 'bench/results/answers.json'),
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, overall, heldOut, manuals }, null, 2)}\n`,
);
