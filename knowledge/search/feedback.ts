import { bestSlots, type ScoreAccumulator } from './accumulator.js';
import type { WeightedTerm } from './bm25f.js';
import type { InvertedIndex } from './inverted-index.js';
import type { RankedSlot } from './proximity.js';

/**
 * The relevance model of RM3 (Abdul-Jaleel et al. 2004, as in Anserini): the best chunks of a
 * first pass are taken as relevant; each contributes its term distribution weighted by its share
 * of their scores; the `count` strongest terms come back with weights summing to 1 (ties: the
 * lower term id), each multiplied by `scale` (the weight of the feedback part of the query).
 * `relevance` is scratch indexed by term id, left cleared.
 */
export function feedbackTerms(
  index: InvertedIndex,
  feedbackSlots: readonly RankedSlot[],
  count: number,
  relevance: ScoreAccumulator,
  scale = 1,
): WeightedTerm[] {
  const totalScore = feedbackSlots.reduce((sum, { score }) => sum + score, 0);
  if (totalScore <= 0) return [];
  relevance.prepare(index.termCount);
  const { forward, start, titleLength, bodyLength } = index.slotArrays();
  try {
    for (const { slot, score } of feedbackSlots) {
      const from = start[slot] as number;
      const length = (titleLength[slot] as number) + (bodyLength[slot] as number);
      if (length === 0) continue;
      const share = score / totalScore / length;
      // relevance.add() written out: one scattered read and write per term of the chunk.
      const { scores, touched } = relevance;
      let touchedCount = relevance.count;
      for (let at = from; at < from + length; at++) {
        const termId = forward[at] as number;
        const before = scores[termId] as number;
        // Appended without a branch, as in Bm25fScorer's scoring loop.
        touched[touchedCount] = termId;
        touchedCount += +(before === 0);
        scores[termId] = before + share;
      }
      relevance.count = touchedCount;
    }
    const strongest = bestSlots(relevance, count);
    let total = 0;
    for (const termId of strongest) total += relevance.score(termId);
    const terms = new Array<WeightedTerm>(strongest.length);
    for (let at = 0; at < strongest.length; at++) {
      const termId = strongest[at] as number;
      terms[at] = { termId, weight: scale * (relevance.score(termId) / total) };
    }
    return terms;
  } finally {
    relevance.clear();
  }
}
