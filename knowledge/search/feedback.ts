import type { WeightedTerm } from './bm25f.js';
import type { InvertedIndex } from './inverted-index.js';
import type { RankedSlot } from './proximity.js';

/**
 * The relevance model of RM3 (Abdul-Jaleel et al. 2004, as in Anserini): the best chunks of a
 * first pass are taken as relevant; each contributes its term distribution weighted by its share
 * of their scores; the `count` strongest terms come back with weights summing to 1.
 */
export function feedbackTerms(
  index: InvertedIndex,
  feedbackSlots: readonly RankedSlot[],
  count: number,
): WeightedTerm[] {
  const totalScore = feedbackSlots.reduce((sum, { score }) => sum + score, 0);
  if (totalScore <= 0) return [];
  const relevance = new Map<number, number>();
  for (const { slot, score } of feedbackSlots) {
    const { terms } = index.slotTerms(slot);
    if (terms.length === 0) continue;
    const share = score / totalScore / terms.length;
    for (const term of terms) relevance.set(term, (relevance.get(term) ?? 0) + share);
  }
  const strongest = [...relevance].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, count);
  const total = strongest.reduce((sum, [, weight]) => sum + weight, 0);
  return strongest.map(([termId, weight]) => ({ termId, weight: weight / total }));
}
