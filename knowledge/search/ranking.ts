import { bestOf, bestSlots, topSlots, type ScoreAccumulator } from './accumulator.js';
import { Bm25fScorer, type WeightedTerm } from './bm25f.js';
import { feedbackTerms } from './feedback.js';
import type { FieldNorms } from './field-norms.js';
import type { InvertedIndex } from './inverted-index.js';
import { addsProximityBonus, rerankByProximity, type ClosenessMemo, type RankedSlot } from './proximity.js';
import type { RankingSettings } from './settings.js';

/** Buffers reused across the queries of one index. */
export interface RankingScratch {
  accumulator: ScoreAccumulator;
  /** RM3's term weights, indexed by term id. */
  termRelevance: ScoreAccumulator;
  norms: FieldNorms;
  /** Proximity's closeness sums, shared by the re-ranks of one query. */
  closeness: ClosenessMemo;
}

export interface RankRequest {
  query: readonly WeightedTerm[];
  limit: number;
  /** The document a slot belongs to, when at most one chunk per document is wanted. */
  documentOf?: (slot: number) => number;
}

/**
 * Feedback terms found in more chunks than this many times the re-rank depth are scored only
 * for that many of the best chunks so far, from their term sequences, instead of over their
 * whole postings. Such terms have a low idf, and a chunk ranked below the candidates would need
 * them to lift it past all of them; scanning their postings cost most of a query's time at 100k
 * chunks (about 670k postings for a query of 8 terms). When the postings are the cheaper read
 * (a namespace of a few thousand chunks), they are scanned instead.
 */
const FEEDBACK_CANDIDATES_PER_DEPTH = 5;

/**
 * The ranking pipeline: BM25F over the postings of the query terms; the proximity bonus re-ranks
 * the best `rerankDepth`; with feedback on and a confident first pass, RM3 mixes the first-pass scores (weight λ) with the
 * feedback terms' BM25F scores (weight 1 - λ) and the proximity bonus re-ranks again; finally the
 * best chunk of each document, when asked for.
 */
export function rankSlots(
  index: InvertedIndex,
  ranking: RankingSettings,
  scratch: RankingScratch,
  { query, limit, documentOf }: RankRequest,
): RankedSlot[] {
  const { accumulator } = scratch;
  accumulator.prepare(index.slotCount);
  try {
    const scorer = new Bm25fScorer(index, ranking, scratch.norms);
    const depth = Math.max(limit, ranking.rerankDepth);
    scorer.accumulate(query, accumulator);
    let proximityTerms = query;
    let feedbackCandidates: number[] | undefined;
    let expanded = false;
    // Both re-ranks score the query's own terms: the second reads the first's sums where it can.
    const { closeness } = scratch;
    // Which query terms each chunk holds, for the re-ranks' bound on the bonus; with a title weight
    // of 0 a title-only term scores nothing, so the bits would miss it.
    const heldTerms = ranking.titleWeight > 0 ? accumulator.bits : undefined;
    // The first pass's best, in no order: the re-rank orders its candidates itself.
    const firstBest = ranking.feedback ? topSlots(accumulator, depth) : [];
    if (
      ranking.feedback &&
      confident(scorer, query, accumulator, firstBest, ranking.feedback.minConfidence)
    ) {
      expanded = true;
      const { documents, terms, originalQueryWeight } = ranking.feedback;
      const firstPass = rerankByProximity(
        index,
        firstBest,
        accumulator.scores,
        query,
        ranking,
        accumulator.termMarks,
        closeness,
        { count: documents, heldTerms, norms: scratch.norms },
      );
      // RM3's query is λ·q(t)/|q| + (1-λ)·feedback(t). BM25F is linear in the term weights, so
      // the first-pass scores already hold the original part; multiplied through by |q|/λ, the
      // feedback part is added with weight (1-λ)·|q|/λ and scores stay on the first pass's scale.
      const queryLength = query.reduce((sum, { weight }) => sum + weight, 0);
      const feedbackWeight = ((1 - originalQueryWeight) * queryLength) / originalQueryWeight;
      const expansion = feedbackTerms(
        index,
        firstPass.slice(0, documents),
        terms,
        scratch.termRelevance,
        feedbackWeight,
      );
      const candidateLimit = depth * FEEDBACK_CANDIDATES_PER_DEPTH;
      // Scoring the candidates from their term sequences costs their length; scanning the
      // postings costs the terms' document frequencies. On a small namespace the postings are
      // cheaper, and exact.
      const frequent: WeightedTerm[] = [];
      const rare: WeightedTerm[] = [];
      let postingsCost = 0;
      for (const term of expansion) {
        const documentFrequency = index.documentFrequency(term.termId);
        if (documentFrequency > candidateLimit) {
          frequent.push(term);
          postingsCost += documentFrequency;
        } else rare.push(term);
      }
      const sequencesCost = candidateLimit * (index.averageTitleLength + index.averageBodyLength);
      if (postingsCost > sequencesCost) {
        // Expansion re-weights chunks that hold a query term; it does not bring in chunks that hold
        // none, which on a small namespace would be chunks that merely share words with the best ones.
        scorer.accumulate(rare, accumulator, true);
        feedbackCandidates = bestSlots(accumulator, candidateLimit);
        scorer.accumulateFor(feedbackCandidates, frequent, accumulator);
      } else {
        scorer.accumulate(expansion, accumulator, true);
      }
      // The query's terms in the query's order (the held-term bits follow it), with their feedback
      // weight added: a loop over the few expansion terms, without a closure per query term.
      const weighted = new Array<WeightedTerm>(query.length);
      for (let position = 0; position < query.length; position++) {
        const { termId, weight } = query[position] as WeightedTerm;
        let added = 0;
        for (const term of expansion) {
          if (term.termId === termId) {
            added = term.weight;
            break;
          }
        }
        weighted[position] = { termId, weight: weight + added };
      }
      proximityTerms = weighted;
    }
    // The feedback candidates only gained, every other chunk stayed below them: the best are among
    // them, chosen without sorting all of them. Without feedback the scores are the first pass's,
    // whose best are known already.
    let ranked: RankedSlot[];
    if (!addsProximityBonus(ranking, proximityTerms)) {
      // A re-rank that adds no bonus only orders its candidates: the heap that chooses them orders
      // them too, best first (ties: the lower slot), as the re-rank would, without a sort.
      ranked = scored(
        accumulator,
        feedbackCandidates
          ? bestOf(accumulator, feedbackCandidates, depth)
          : bestSlots(accumulator, depth, firstBest),
      );
    } else {
      const best = feedbackCandidates
        ? bestOf(accumulator, feedbackCandidates, depth)
        : ranking.feedback && !expanded
          ? firstBest
          : topSlots(accumulator, depth, firstBest);
      ranked = rerankByProximity(
        index,
        best,
        accumulator.scores,
        proximityTerms,
        ranking,
        accumulator.termMarks,
        closeness,
        { count: limit, documentOf, heldTerms, norms: scratch.norms },
      );
    }
    if (!documentOf) return ranked.slice(0, limit);

    const seen = new Set<number>();
    const results: RankedSlot[] = [];
    takeFirstPerDocument(ranked, documentOf, limit, seen, results);
    if (results.length < limit && accumulator.count > depth) {
      // Documents with many matching chunks filled the re-ranked depth: look through the rest,
      // whose scores are all below the re-ranked ones (the proximity bonus only adds).
      takeFirstPerDocument(
        scored(accumulator, bestSlots(accumulator, accumulator.count).slice(depth)),
        documentOf,
        limit,
        seen,
        results,
      );
    }
    return results;
  } finally {
    accumulator.clear();
    scratch.closeness.clear();
  }
}

/**
 * Whether the first pass found a chunk worth learning from: its BM25F score is at least
 * `minConfidence` of the most any chunk could score for the query (every term saturated). A
 * query whose best match holds only a few of its terms, or only common ones, would otherwise
 * expand towards whatever that weak match is about (query drift).
 */
function confident(
  scorer: Bm25fScorer,
  query: readonly WeightedTerm[],
  accumulator: ScoreAccumulator,
  firstBest: readonly number[],
  minConfidence: number,
): boolean {
  if (firstBest.length === 0) return false;
  let best = 0;
  for (const slot of firstBest) best = Math.max(best, accumulator.score(slot));
  const ceiling = query.reduce((sum, term) => sum + scorer.termFactor(term), 0);
  return best >= minConfidence * ceiling;
}

/**
 * Appends to `results`, up to `limit`, each candidate whose document is not `seen` yet. A function
 * of the module rather than a closure per query (tsx names each closure it makes).
 */
function takeFirstPerDocument(
  candidates: readonly RankedSlot[],
  documentOf: (slot: number) => number,
  limit: number,
  seen: Set<number>,
  results: RankedSlot[],
): void {
  for (const candidate of candidates) {
    if (results.length === limit) return;
    const document = documentOf(candidate.slot);
    if (seen.has(document)) continue;
    seen.add(document);
    results.push(candidate);
  }
}

function scored(accumulator: ScoreAccumulator, slots: readonly number[]): RankedSlot[] {
  return slots.map((slot) => ({ slot, score: accumulator.score(slot) }));
}
