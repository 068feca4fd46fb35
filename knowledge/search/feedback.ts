import { bestSlots, type ScoreAccumulator } from './accumulator.js';
import type { WeightedTerm } from './bm25f.js';
import type { InvertedIndex } from './inverted-index.js';
import type { RankedSlot } from './proximity.js';

/**
 * The relevance model of RM3 (Abdul-Jaleel et al. 2004, as in Anserini): the best chunks of a
 * first pass are taken as relevant; each contributes its term distribution weighted by its share
 * of their scores; the `count` strongest terms come back with weights summing to 1 (ties: the
 * lower term id). `relevance` is scratch indexed by term id, left cleared.
 */
export function feedbackTerms(
  index: InvertedIndex,
  feedbackSlots: readonly RankedSlot[],
  count: number,
  relevance: ScoreAccumulator,
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
      for (let at = from; at < from + length; at++) relevance.add(forward[at] as number, share);
    }
    const strongest = bestSlots(relevance, count);
    const total = strongest.reduce((sum, termId) => sum + relevance.score(termId), 0);
    return strongest.map((termId) => ({ termId, weight: relevance.score(termId) / total }));
  } finally {
    relevance.clear();
  }
}
