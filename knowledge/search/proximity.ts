import { inverseDocumentFrequency, type WeightedTerm } from './bm25f.js';
import type { TermMarks } from './accumulator.js';
import { ensureLength } from './growable.js';
import type { InvertedIndex } from './inverted-index.js';
import type { RankingSettings } from './settings.js';

export interface RankedSlot {
  slot: number;
  score: number;
}

/**
 * BM25TP (Rasolofo & Savoy 2003): query terms that occur close together earn a bonus. Each pair of
 * occurrences of two different query terms `d` terms apart (d ≤ window) adds 1/d² to both terms;
 * each term's sum is saturated like a BM25 term frequency and weighted by the term's idf.
 * Distances are counted in index terms, so stop words between two terms do not push them apart.
 */
export function rerankByProximity(
  index: InvertedIndex,
  candidates: readonly RankedSlot[],
  queryTerms: readonly WeightedTerm[],
  ranking: RankingSettings,
  termMarks: TermMarks,
): RankedSlot[] {
  const { weight, window } = ranking.proximity;
  if (weight === 0 || queryTerms.length < 2) return candidates.slice();
  const { k1, b } = ranking;
  const termIds = queryTerms.map(({ termId }) => termId);
  const termWeights = queryTerms.map(
    (term) => term.weight * inverseDocumentFrequency(index.liveCount, index.documentFrequency(term.termId)),
  );
  const closeness = new Float64Array(queryTerms.length);
  const averageLength = index.averageTitleLength + index.averageBodyLength || 1;
  // Where query terms occur in the chunk, in order: each occurrence looks back only as far as the window.
  let occurrenceAt = new Int32Array(64);
  let occurrenceTerm = new Int32Array(64);
  // A typed lookup from term id to query position: read once per term of every candidate.
  const positionOf = termMarks.mark(termIds, index.termCount);
  try {
    const reranked = candidates.map(({ slot, score }) => {
      closeness.fill(0);
      const { terms } = index.slotTerms(slot);
      occurrenceAt = ensureLength(occurrenceAt, terms.length);
      occurrenceTerm = ensureLength(occurrenceTerm, terms.length);
      let found = 0;
      for (let at = 0; at < terms.length; at++) {
        const position = positionOf[terms[at] as number] as number;
        if (position < 0) continue;
        // Each other query term counts once, at its latest occurrence: the first met looking back.
        for (let back = found - 1; back >= 0; back--) {
          const distance = at - (occurrenceAt[back] as number);
          if (distance > window) break;
          const other = occurrenceTerm[back] as number;
          if (other === position || laterOccurrence(occurrenceTerm, other, back + 1, found)) continue;
          const bonus = 1 / (distance * distance);
          closeness[position] = (closeness[position] as number) + bonus;
          closeness[other] = (closeness[other] as number) + bonus;
        }
        occurrenceAt[found] = at;
        occurrenceTerm[found++] = position;
      }
      if (found < 2) return { slot, score };
      const saturation = k1 * (1 - b + (b * terms.length) / averageLength);
      let bonus = 0;
      for (let position = 0; position < closeness.length; position++) {
        const close = closeness[position] as number;
        if (close > 0) bonus += ((termWeights[position] as number) * close * (k1 + 1)) / (saturation + close);
      }
      return { slot, score: score + weight * bonus };
    });
    return reranked.sort((x, y) => y.score - x.score || x.slot - y.slot);
  } finally {
    termMarks.unmark(termIds);
  }
}

/** Whether `term` occurs among the occurrences from `from` to `to`: only a window's worth apart. */
function laterOccurrence(occurrenceTerm: Int32Array, term: number, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (occurrenceTerm[at] === term) return true;
  return false;
}
