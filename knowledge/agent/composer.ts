import type { Citation, SearchHit } from '../../shared/agent.js';
import { citationFor, sourcesList } from './citations.js';
import { distinctTerms } from './terms.js';

export interface ComposeOptions {
  /** Most sentences quoted in an answer. */
  maxSentences?: number;
  /** Share of the question's terms (of at most COVERAGE_TERMS) a passage must contain to count as relevant. */
  minCoverage?: number;
}

export interface ComposedAnswer {
  /** The answer ending in its `Sources:` list, or the no-answer text. */
  text: string;
  citations: Citation[];
  /** False when nothing relevant was retrieved. */
  answered: boolean;
}

interface Candidate {
  hitIndex: number;
  position: number;
  sentence: string;
  terms: Set<string>;
  score: number;
}

const sentences = new Intl.Segmenter('und', { granularity: 'sentence' });
const MAX_SENTENCE_CHARS = 600;
/** A long question is rarely answered by one passage holding half its words: coverage counts at most this many. */
const COVERAGE_TERMS = 5;

/** Markdown headings name a passage rather than say something: they are never quoted. */
const HEADING_LINE = /^ {0,3}#{1,6}\s.*$/gm;

function splitSentences(text: string): string[] {
  const found: string[] = [];
  for (const paragraph of text.replace(HEADING_LINE, '').split(/\n\s*\n/)) {
    for (const { segment } of sentences.segment(paragraph.replace(/\s+/g, ' '))) {
      const sentence = segment.trim();
      if (sentence.length >= 12 && sentence.length <= MAX_SENTENCE_CHARS) found.push(sentence);
    }
  }
  return found;
}

const overlap = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared;
};

/** A passage is relevant when it (with its title and heading) holds enough of the question's terms. */
function relevantHits(
  hits: readonly SearchHit[],
  questionTerms: ReadonlySet<string>,
  minCoverage: number,
): number[] {
  const needed = Math.max(1, Math.ceil(Math.min(questionTerms.size, COVERAGE_TERMS) * minCoverage));
  const relevant: number[] = [];
  hits.forEach((hit, index) => {
    const terms = distinctTerms(`${hit.source.title} ${hit.source.heading ?? ''} ${hit.text}`);
    if (overlap(questionTerms, terms) >= needed) relevant.push(index);
  });
  return relevant;
}

/**
 * Scores every sentence of the relevant passages by the question terms it holds, rarer terms
 * weighing more, with a small bonus for the passage's rank. When no sentence holds any term (the
 * passages matched through their titles, as in "summarize <title>"), each passage offers its
 * opening sentences instead.
 */
function scoreSentences(
  hits: readonly SearchHit[],
  relevant: readonly number[],
  queryTerms: ReadonlySet<string>,
): Candidate[] {
  const candidates: Candidate[] = [];
  for (const hitIndex of relevant) {
    splitSentences(hits[hitIndex]?.text ?? '').forEach((sentence, position) =>
      candidates.push({ hitIndex, position, sentence, terms: distinctTerms(sentence), score: 0 }),
    );
  }
  const frequency = new Map<string, number>();
  for (const candidate of candidates)
    for (const term of queryTerms)
      if (candidate.terms.has(term)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const weight = (term: string): number =>
    Math.log(1 + candidates.length / (frequency.get(term) ?? candidates.length));
  let total = 0;
  for (const term of queryTerms) total += weight(term);
  const rankBonus = (candidate: Candidate): number => 0.1 / (1 + relevant.indexOf(candidate.hitIndex));
  for (const candidate of candidates) {
    let matched = 0;
    for (const term of queryTerms) if (candidate.terms.has(term)) matched += weight(term);
    if (matched > 0) candidate.score = matched / (total || 1) + rankBonus(candidate);
  }
  const matching = candidates.filter((candidate) => candidate.score > 0);
  if (matching.length > 0) return matching;
  const openings = candidates.filter((candidate) => candidate.position < 2);
  for (const candidate of openings) candidate.score = rankBonus(candidate) - candidate.position * 0.01;
  return openings;
}

/** Picks the best sentences, skipping ones that say nearly the same as one already picked. */
function selectSentences(candidates: Candidate[], maxSentences: number): Candidate[] {
  const picked: Candidate[] = [];
  for (const candidate of [...candidates].sort((a, b) => b.score - a.score)) {
    if (picked.length >= maxSentences) break;
    const repeats = picked.some(
      (other) =>
        overlap(other.terms, candidate.terms) /
          Math.max(1, Math.min(other.terms.size, candidate.terms.size)) >
        0.8,
    );
    if (!repeats) picked.push(candidate);
  }
  return picked;
}

/** "summarize X", "give an overview of X": the relevant passages retold in reading order, best passage first. */
const SUMMARY_REQUEST = /\b(summari[sz]e|summary|overview|tl;?dr)\b/i;

function summarySentences(
  hits: readonly SearchHit[],
  relevant: readonly number[],
  maxSentences: number,
): Candidate[] {
  const candidates = relevant.flatMap((hitIndex) =>
    splitSentences(hits[hitIndex]?.text ?? '').map((sentence, position): Candidate => ({
      hitIndex,
      position,
      sentence,
      terms: distinctTerms(sentence),
      score: 0,
    })),
  );
  return candidates.slice(0, maxSentences);
}

/** Passages in the order of their best sentence; within a passage, sentences in reading order. */
function orderForReading(picked: Candidate[]): Candidate[] {
  const passageOrder = [...new Set(picked.map((candidate) => candidate.hitIndex))];
  return [...picked].sort(
    (a, b) => passageOrder.indexOf(a.hitIndex) - passageOrder.indexOf(b.hitIndex) || a.position - b.position,
  );
}

export function noAnswerText(question: string, namespace: string): string {
  const topic = question.trim() ? `“${question.trim()}”` : 'this question';
  return (
    `I found nothing about ${topic} in the knowledge namespace “${namespace}”, so I cannot answer from it. ` +
    `Ingest documents that cover it into “${namespace}” (for example with POST /api/tools/ingestSources ` +
    `or \`parley ingest <files> --namespace ${namespace}\`) and ask again.`
  );
}

/**
 * The offline answer: the most relevant sentences of the retrieved passages, each followed by the
 * `[n]` of its passage, then the `Sources:` list. `questionTerms` decide relevance (the latest
 * question); `queryTerms` rank sentences (the question with what it follows up on).
 */
export function composeExtractiveAnswer(
  input: { question: string; retrievalQuery: string; namespace: string; hits: readonly SearchHit[] },
  options: ComposeOptions = {},
): ComposedAnswer {
  const { maxSentences = 4, minCoverage = 0.5 } = options;
  const questionTerms = distinctTerms(input.question);
  const queryTerms = distinctTerms(input.retrievalQuery);
  const relevanceTerms = questionTerms.size > 0 ? questionTerms : queryTerms;
  const relevant = relevanceTerms.size > 0 ? relevantHits(input.hits, relevanceTerms, minCoverage) : [];
  const picked =
    SUMMARY_REQUEST.test(input.question) && relevant.length > 0
      ? summarySentences(input.hits, relevant, maxSentences)
      : orderForReading(selectSentences(scoreSentences(input.hits, relevant, queryTerms), maxSentences));
  if (picked.length === 0) {
    return { text: noAnswerText(input.question, input.namespace), citations: [], answered: false };
  }
  const numbers = new Map<number, number>();
  const citations: Citation[] = [];
  const quoted = picked.map((candidate) => {
    let n = numbers.get(candidate.hitIndex);
    if (n === undefined) {
      n = citations.length + 1;
      numbers.set(candidate.hitIndex, n);
      citations.push(citationFor(input.hits[candidate.hitIndex]!, n));
    }
    return `${candidate.sentence} [${n}]`;
  });
  return { text: `${quoted.join(' ')}\n\n${sourcesList(citations)}`, citations, answered: true };
}
