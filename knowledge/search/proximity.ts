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
 * Per-slot closeness sums of one list of query terms, kept between the re-ranks of one query: the
 * sums depend on the terms and the chunk only, not on the terms' weights, so the re-rank after
 * feedback (the same terms, other weights) reads them for every slot the first re-rank already
 * scanned instead of scanning its term sequence again.
 */
export class ClosenessMemo {
  private termIds: readonly number[] = [];
  /** The row of each slot, -1 for none: indexed by slot, reset through `rowSlots`. */
  private rowOf = new Int32Array(256).fill(-1);
  /** The slot of each row. */
  private rowSlots = new Int32Array(128);
  private rows = 0;
  /** Row r holds the sums of query positions at r·terms … r·terms + terms - 1. */
  sums = new Float64Array(1024);
  /** A row's chunk length in terms, or -1 when fewer than two query terms occur in it. */
  lengths = new Int32Array(128);
  /** Where query terms occur in the chunk being scanned, in order, and which term each is. */
  occurrenceAt = new Int32Array(256);
  occurrenceTerm = new Int32Array(256);

  /** Forgets every row: a new query, or the index changed. */
  clear(): void {
    this.termIds = [];
    for (let row = 0; row < this.rows; row++) this.rowOf[this.rowSlots[row] as number] = -1;
    this.rows = 0;
  }

  /** Starts over unless the memo already holds sums of these terms in this order; slots are below `slotCount`. */
  use(termIds: readonly number[], slotCount: number): void {
    if (this.rowOf.length < slotCount) {
      this.clear();
      this.rowOf = new Int32Array(Math.max(slotCount, 2 * this.rowOf.length)).fill(-1);
    }
    if (termIds.length === this.termIds.length && termIds.every((id, at) => id === this.termIds[at])) return;
    this.clear();
    this.termIds = termIds;
  }

  /** The row of `slot`, or -1 when its sums are not known yet. */
  row(slot: number): number {
    return this.rowOf[slot] as number;
  }

  /** A zeroed row for `slot`; `sums` and `lengths` may be replaced by larger arrays. */
  addRow(slot: number): number {
    const row = this.rows++;
    const width = this.termIds.length;
    this.sums = ensureLength(this.sums, (row + 1) * width);
    this.lengths = ensureLength(this.lengths, row + 1);
    this.rowSlots = ensureLength(this.rowSlots, row + 1);
    this.sums.fill(0, row * width, (row + 1) * width);
    this.rowOf[slot] = row;
    this.rowSlots[row] = slot;
    return row;
  }
}

/**
 * BM25TP (Rasolofo & Savoy 2003): query terms that occur close together earn a bonus. Each pair of
 * occurrences of two different query terms `d` terms apart (d ≤ window) adds 1/d² to both terms;
 * each term's sum is saturated like a BM25 term frequency and weighted by the term's idf.
 * Distances are counted in index terms, so stop words between two terms do not push them apart.
 * Slots whose sums the memo holds for the same terms are not scanned again: pass the same memo
 * only to re-ranks of one query, on an unchanged index.
 */
export function rerankByProximity(
  index: InvertedIndex,
  candidates: readonly RankedSlot[],
  queryTerms: readonly WeightedTerm[],
  ranking: RankingSettings,
  termMarks: TermMarks,
  memo: ClosenessMemo,
): RankedSlot[] {
  const { weight, window } = ranking.proximity;
  if (weight === 0 || queryTerms.length < 2) return candidates.slice();
  const { k1, b } = ranking;
  const termIds = queryTerms.map(({ termId }) => termId);
  const width = termIds.length;
  const termWeights = queryTerms.map(
    (term) => term.weight * inverseDocumentFrequency(index.liveCount, index.documentFrequency(term.termId)),
  );
  const averageLength = index.averageTitleLength + index.averageBodyLength || 1;
  const { forward, start: slotStart, titleLength, bodyLength } = index.slotArrays();
  memo.use(termIds, index.slotCount);
  // A typed lookup from term id to query position: read once per term of every candidate.
  const positionOf = termMarks.mark(termIds, index.termCount);
  try {
    const reranked = candidates.map(({ slot, score }) => {
      let row = memo.row(slot);
      if (row < 0) {
        row = memo.addRow(slot);
        const closeness = memo.sums;
        const base = row * width;
        const start = slotStart[slot] as number;
        const length = (titleLength[slot] as number) + (bodyLength[slot] as number);
        // Each occurrence looks back only as far as the window.
        const occurrenceAt = (memo.occurrenceAt = ensureLength(memo.occurrenceAt, length));
        const occurrenceTerm = (memo.occurrenceTerm = ensureLength(memo.occurrenceTerm, length));
        let found = 0;
        for (let at = 0; at < length; at++) {
          const position = positionOf[forward[start + at] as number] as number;
          if (position < 0) continue;
          // Each other query term counts once, at its latest occurrence: the first met looking back.
          for (let back = found - 1; back >= 0; back--) {
            const distance = at - (occurrenceAt[back] as number);
            if (distance > window) break;
            const other = occurrenceTerm[back] as number;
            if (other === position || laterOccurrence(occurrenceTerm, other, back + 1, found)) continue;
            const bonus = 1 / (distance * distance);
            closeness[base + position] = (closeness[base + position] as number) + bonus;
            closeness[base + other] = (closeness[base + other] as number) + bonus;
          }
          occurrenceAt[found] = at;
          occurrenceTerm[found++] = position;
        }
        memo.lengths[row] = found < 2 ? -1 : length;
      }
      const length = memo.lengths[row] as number;
      if (length < 0) return { slot, score };
      const closeness = memo.sums;
      const base = row * width;
      const saturation = k1 * (1 - b + (b * length) / averageLength);
      let bonus = 0;
      for (let position = 0; position < width; position++) {
        const close = closeness[base + position] as number;
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
