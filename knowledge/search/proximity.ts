import { inverseDocumentFrequency, type WeightedTerm } from './bm25f.js';
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
): RankedSlot[] {
  const { weight, window } = ranking.proximity;
  if (weight === 0 || queryTerms.length < 2) return candidates.slice();
  const { k1, b } = ranking;
  const positionOf = new Map<number, number>();
  queryTerms.forEach((term, position) => positionOf.set(term.termId, position));
  const termWeights = queryTerms.map(
    (term) => term.weight * inverseDocumentFrequency(index.liveCount, index.documentFrequency(term.termId)),
  );
  const lastSeen = new Float64Array(queryTerms.length);
  const closeness = new Float64Array(queryTerms.length);
  const averageLength = index.averageTitleLength + index.averageBodyLength || 1;

  const reranked = candidates.map(({ slot, score }) => {
    lastSeen.fill(-Infinity);
    closeness.fill(0);
    const { terms } = index.slotTerms(slot);
    for (let at = 0; at < terms.length; at++) {
      const position = positionOf.get(terms[at] as number);
      if (position === undefined) continue;
      for (let other = 0; other < lastSeen.length; other++) {
        const distance = at - (lastSeen[other] as number);
        if (other === position || distance > window) continue;
        const bonus = 1 / (distance * distance);
        closeness[position] = (closeness[position] as number) + bonus;
        closeness[other] = (closeness[other] as number) + bonus;
      }
      lastSeen[position] = at;
    }
    const saturation = k1 * (1 - b + (b * terms.length) / averageLength);
    let bonus = 0;
    for (let position = 0; position < closeness.length; position++) {
      const close = closeness[position] as number;
      if (close > 0) bonus += ((termWeights[position] as number) * close * (k1 + 1)) / (saturation + close);
    }
    return { slot, score: score + weight * bonus };
  });
  return reranked.sort((x, y) => y.score - x.score || x.slot - y.slot);
}
