/**
 * Fits the weights of the extractive composer's sentence score (SENTENCE_SCORING in
 * knowledge/agent/composer.ts) on the answer bench's tuned question sets (bench/answers/*.json
 * without `heldOut`), and reports a cross-validated figure for them.
 *
 * Each manual is ingested through the agent HTTP API as bench/answers.ts does, and each question's
 * passages are retrieved once (`retrievePassages`, as the generate path does; retrieval does not
 * depend on the weights), optionally cached in a file (`--hits`). Each answer is then prepared once
 * (`prepareExtractiveAnswer`: sentences and their features) and composed with every weighting
 * tried. An answer hits by bench/answers.ts's rule: its text before `Sources:`, as the widget shows
 * it, matches the answer pattern AND it cites an expected page.
 *
 * The search is coordinate ascent: for each weight in turn (the coverage weight stays 1, as only
 * ratios of scores matter), the value of a small grid that hits most, ties kept at the current
 * value, for a few rounds. Cross-validation splits the manuals into folds (by manual, round-robin
 * in name order): each fold is scored with the weights fitted on the others, and with the current
 * weights; only that gain says what the fit would do on manuals nobody tuned on.
 *
 *   npx tsx bench/answers/fit.ts [--only a,b] [--folds 4] [--rounds 3] [--penalty 0.5] [--floor]
 *     [--hits /tmp/hits.json] [--ranks]
 *
 * --penalty p charges p for each answer the current weights hit that a weighting loses (0.5 fitted
 * SENTENCE_SCORING); --floor fits the relative floor too; --hits reads the retrieved passages from
 * the file, or writes them there when it does not exist; --ranks reports, for the misses whose
 * fact (the answer pattern) is in a sentence of an expected passage read, where that sentence
 * ranks under the current weights.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { SearchHit } from '../../shared/agent.js';
import { retrievePassages } from '../../knowledge/agent/answer.js';
import {
  prepareExtractiveAnswer,
  SENTENCE_SCORING,
  type PreparedAnswer,
  type SentenceFeatures,
  type SentenceScoring,
} from '../../knowledge/agent/composer.js';
import { resolveQuestion } from '../../knowledge/agent/question.js';
import { agentConfigFromEnv, openAgentEngine, startAgentServer } from '../../knowledge/server/index.js';
import { markdownToPlainText } from '../../widget/markdown.js';
import {
  copyManual,
  displayedAnswer,
  isExpected,
  readSet,
  setNames,
  type Page,
  type QuestionSet,
} from '../answer-sets.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    folds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    penalty: { type: 'string', default: '0' },
    floor: { type: 'boolean', default: false },
    hits: { type: 'string' },
    ranks: { type: 'boolean', default: false },
  },
});

/** One question with the passages retrieved for it: what composing its answer needs. */
interface Retrieved {
  set: string;
  question: string;
  retrievalQuery: string;
  pages: Page[];
  answer: string;
  /** The folder the manual was copied to and ingested from: expected pages are relative to it. */
  copy: string;
  hits: SearchHit[];
}

const only = values.only?.split(',').map((name) => name.trim());
const sets = new Map<string, QuestionSet>();
for (const name of await setNames(only)) {
  const set = await readSet(name);
  // Held-out sets are never fitted on.
  if (!set.heldOut) sets.set(name, set);
}

/** Ingests every manual and retrieves every question's passages, through the agent as the bench does. */
async function retrieveAll(): Promise<Retrieved[]> {
  const root = await mkdtemp(join(tmpdir(), 'parley-fit-'));
  const dataDir = join(root, 'data');
  const config = agentConfigFromEnv({ INGEST_ROOTS: root, AGENT_RATE_LIMIT: '100000000' }, dataDir);
  const engine = await openAgentEngine(dataDir, config);
  const server = await startAgentServer({ config, backend: engine, host: '127.0.0.1', port: 0 });
  const retrieved: Retrieved[] = [];
  try {
    for (const [name, set] of sets) {
      if (!(await stat(set.root).catch(() => undefined))) {
        console.log(`${name}: ${set.root} is missing — install it with: ${set.install ?? set.package}`);
        continue;
      }
      const copy = join(root, name);
      await copyManual(set, copy);
      const namespace = name.replace(/[^a-z0-9._-]/g, '-');
      const response = await fetch(`${server.apiUrl}/tools/ingestSources`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ namespace, sources: [copy] }),
      });
      if (!response.ok) throw new Error(`${name}: ingest HTTP ${response.status} ${await response.text()}`);
      for (const { question, pages, answer } of set.questions) {
        const { retrievalQuery } = resolveQuestion(
          [{ role: 'user', content: question }],
          config.mentionNames,
        )!;
        const hits = await retrievePassages(engine, namespace, retrievalQuery, config.passages);
        retrieved.push({ set: name, question, retrievalQuery, pages, answer, copy, hits });
      }
      console.log(`${name}: ${set.questions.length} questions retrieved`);
    }
  } finally {
    await server.close();
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
  return retrieved;
}

let retrieved: Retrieved[];
const cached = values.hits ? await readFile(values.hits, 'utf8').catch(() => undefined) : undefined;
if (cached !== undefined) {
  retrieved = (JSON.parse(cached) as Retrieved[]).filter((question) => sets.has(question.set));
} else {
  retrieved = await retrieveAll();
  if (values.hits) await writeFile(values.hits, JSON.stringify(retrieved));
}

interface Prepared {
  question: Retrieved;
  prepared: PreparedAnswer;
  pattern: RegExp;
  /** Whether each answer text composed hits: most weightings pick the same sentences. */
  outcomes: Map<string, boolean>;
}
const prepared: Prepared[] = retrieved.map((question) => ({
  question,
  prepared: prepareExtractiveAnswer({ ...question, namespace: question.set, hits: question.hits }),
  pattern: new RegExp(question.answer, 'i'),
  outcomes: new Map(),
}));

/** The bench's rule: the answer as the widget shows it holds the pattern, and it cites an expected page. */
function hits(
  { question, prepared: answer, pattern, outcomes }: Prepared,
  scoring: SentenceScoring,
): boolean {
  const composed = answer.compose(scoring);
  let hit = outcomes.get(composed.text);
  if (hit === undefined) {
    hit =
      composed.citations.some((citation) => isExpected(citation, question.pages, question.copy)) &&
      pattern.test(displayedAnswer(composed.text));
    outcomes.set(composed.text, hit);
  }
  return hit;
}

const hitCount = (questions: readonly Prepared[], scoring: SentenceScoring): number =>
  questions.reduce((count, question) => count + Number(hits(question, scoring)), 0);

if (values.ranks) {
  // Where the sentence holding the fact ranks among the sentences weighed, for each miss whose
  // fact a sentence of an expected passage holds.
  const buckets = new Map<string, number>();
  let misses = 0;
  for (const item of prepared) {
    if (hits(item, SENTENCE_SCORING)) continue;
    misses++;
    const { sentences } = item.prepared;
    const ranked = sentences.filter((sentence) => sentence.score > 0).sort((a, b) => b.score - a.score);
    const holdsFact = sentences.filter(
      (sentence) =>
        isExpected(item.question.hits[sentence.hitIndex]!.source, item.question.pages, item.question.copy) &&
        item.pattern.test(markdownToPlainText(`${sentence.label ?? ''} ${sentence.sentence}`)),
    );
    let bucket = 'no sentence of an expected passage holds it';
    if (holdsFact.length > 0) {
      const best = Math.min(...holdsFact.map((sentence) => ranked.indexOf(sentence)).filter((i) => i >= 0));
      bucket = !Number.isFinite(best)
        ? 'score 0 (no question term nor literal)'
        : best < 5
          ? 'rank 1-5'
          : best < 10
            ? 'rank 6-10'
            : best < 20
              ? 'rank 11-20'
              : 'rank > 20';
    }
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + 1);
  }
  console.log(`misses: ${misses}; where the sentence holding the fact ranks:`);
  console.table(Object.fromEntries([...buckets].sort()));
}

type Parameter = keyof SentenceFeatures | 'relativeFloor';
/**
 * The values tried for each parameter; coverage stays 1. The relative floor is fitted only with
 * --floor: the bench counts an answer holding the fact, not the sentences quoted beside it, so a
 * lower floor, quoting more siblings of the entry asked about, always looks better to it.
 */
const GRID: Partial<Record<Exclude<Parameter, 'coverage'>, readonly number[]>> = {
  context: [0, 0.1, 0.2, 0.3, 0.45, 0.6],
  literal: [0, 0.1, 0.2, 0.3, 0.45, 0.6, 0.9],
  entry: [0, 0.1, 0.2, 0.3, 0.45, 0.6, 0.9],
  page: [0, 0.1, 0.2, 0.3, 0.4, 0.6, 0.9],
  definition: [0, 0.1, 0.2, 0.3, 0.45, 0.6, 0.9],
  statement: [0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6],
  defaultChoice: [0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6],
  rank: [0, 0.05, 0.1, 0.2, 0.3, 0.45],
  retrieval: [0, 0.05, 0.1, 0.2, 0.3],
  ...(values.floor ? { relativeFloor: [0.3, 0.4, 0.5, 0.6, 0.7, 0.8] } : {}),
};

const withValue = (scoring: SentenceScoring, parameter: Parameter, value: number): SentenceScoring =>
  parameter === 'relativeFloor'
    ? { ...scoring, relativeFloor: value }
    : { ...scoring, weights: { ...scoring.weights, [parameter]: value } };
const valueOf = (scoring: SentenceScoring, parameter: Parameter): number =>
  parameter === 'relativeFloor' ? scoring.relativeFloor : scoring.weights[parameter];

/**
 * Coordinate ascent from the current weights over GRID, `rounds` times at most, maximising the
 * answers hit less `penalty` for each answer the current weights hit that a weighting loses.
 */
function fit(
  questions: readonly Prepared[],
  rounds: number,
  penalty: number,
): { scoring: SentenceScoring; hits: number } {
  const hitNow = questions.map((question) => hits(question, SENTENCE_SCORING));
  const objective = (scoring: SentenceScoring): number =>
    questions.reduce((sum, question, i) => {
      const hit = hits(question, scoring);
      return sum + Number(hit) - (hitNow[i] && !hit ? penalty : 0);
    }, 0);
  let scoring = SENTENCE_SCORING;
  let best = objective(scoring);
  for (let round = 0; round < rounds; round++) {
    let improved = false;
    for (const [parameter, grid] of Object.entries(GRID) as [Parameter, readonly number[]][]) {
      const current = valueOf(scoring, parameter);
      for (const value of grid) {
        if (value === current) continue;
        const trial = withValue(scoring, parameter, value);
        const gain = objective(trial);
        if (gain > best) {
          best = gain;
          scoring = trial;
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  return { scoring, hits: hitCount(questions, scoring) };
}

const rounds = Number(values.rounds);
const penalty = Number(values.penalty);
const manuals = [...new Set(prepared.map(({ question }) => question.set))].sort();
const folds = Math.min(Number(values.folds), manuals.length);
if (folds >= 2) {
  let currentHits = 0;
  let fittedHits = 0;
  for (let fold = 0; fold < folds; fold++) {
    const held = new Set(manuals.filter((_, i) => i % folds === fold));
    const train = prepared.filter(({ question }) => !held.has(question.set));
    const test = prepared.filter(({ question }) => held.has(question.set));
    const { scoring } = fit(train, rounds, penalty);
    const current = hitCount(test, SENTENCE_SCORING);
    const fitted = hitCount(test, scoring);
    currentHits += current;
    fittedHits += fitted;
    console.log(
      `fold ${fold + 1}/${folds} (${[...held].join(', ')}): ${test.length} questions, ` +
        `current ${current}, fitted ${fitted}; ${JSON.stringify(scoring)}`,
    );
  }
  const percent = (count: number): string => ((100 * count) / prepared.length).toFixed(1);
  console.log(
    `cross-validated over ${folds} folds: current ${currentHits} (${percent(currentHits)} %), ` +
      `fitted ${fittedHits} (${percent(fittedHits)} %) of ${prepared.length}`,
  );
}

const final = fit(prepared, rounds, penalty);
console.log(
  `fitted on all ${prepared.length} questions: ${hitCount(prepared, SENTENCE_SCORING)} → ${final.hits}; ` +
    JSON.stringify(final.scoring),
);
for (const manual of manuals) {
  const questions = prepared.filter(({ question }) => question.set === manual);
  const before = hitCount(questions, SENTENCE_SCORING);
  const after = hitCount(questions, final.scoring);
  if (before !== after) console.log(`  ${manual}: ${before} → ${after} of ${questions.length}`);
}
