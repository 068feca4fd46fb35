import { inverseDocumentFrequency, type WeightedTerm } from './bm25f.js';
import { HELD_TERM_BITS, type TermMarks } from './accumulator.js';
import type { FieldNorms } from './field-norms.js';
import { ensureLength } from './growable.js';
import type { InvertedIndex } from './inverted-index.js';
import { MAX_TF } from './postings.js';
import type { RankingSettings } from './settings.js';

export interface RankedSlot {
  slot: number;
  score: number;
}

/** Which re-ranked results must be exact: see rerankByProximity. */
export interface WantedResults {
  count: number;
  /** The document of a slot, when results are counted one per document. */
  documentOf?: (slot: number) => number;
  /**
   * Per slot, which of the query terms it holds: bit i for `queryTerms[i]`, for the first
   * HELD_TERM_BITS terms (later ones count as held by every candidate). Without it every term does.
   */
  heldTerms?: Int32Array;
  /**
   * With `heldTerms`: the field norms the candidates' scores were saturated with, when each
   * candidate's score is at least the sum, over the query terms it holds, of the term's saturated
   * BM25F frequency there times (k1 + 1)·w·idf (w its weight here). The score then bounds how often
   * the terms occur, and so the bonus (see `closenessShareBound`).
   */
  norms?: FieldNorms;
}

/**
 * The best score of each of the `count` best keys (documents or slots) offered so far, best first.
 * One instance serves every re-rank of an index: `start` empties it.
 */
class LeadingScores {
  private keys = new Float64Array(16);
  private scores = new Float64Array(16);
  private size = 0;
  private count = 0;

  start(count: number): this {
    this.keys = ensureLength(this.keys, count);
    this.scores = ensureLength(this.scores, count);
    this.count = count;
    this.size = 0;
    return this;
  }

  get full(): boolean {
    return this.size === this.count;
  }

  /** The `count`-th best score: a result below it cannot be among the best. */
  get floor(): number {
    return this.scores[this.count - 1] as number;
  }

  offer(key: number, score: number): void {
    let at = this.size - 1;
    while (at >= 0 && this.keys[at] !== key) at--;
    if (at >= 0) {
      if (score <= (this.scores[at] as number)) return;
    } else if (this.size < this.count) {
      at = this.size++;
    } else if (score > this.floor) {
      // The last key leaves: its best is below the new one, so below the `count` best.
      at = this.count - 1;
    } else {
      return;
    }
    while (at > 0 && (this.scores[at - 1] as number) < score) {
      this.keys[at] = this.keys[at - 1] as number;
      this.scores[at] = this.scores[at - 1] as number;
      at--;
    }
    this.keys[at] = key;
    this.scores[at] = score;
  }
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
  /**
   * Per query position, the occurrence whose look-back last met it (plus one): a term met again
   * further back in the same look-back has a later occurrence, which already counted.
   */
  metBy = new Int32Array(64);
  /** A re-rank's candidates as it orders them: its order, slots and scores, reused from call to call. */
  rankedOrder = new Int32Array(128);
  rankedSlots = new Int32Array(128);
  rankedScores = new Float64Array(128);
  /** Per candidate, the most its score can become… */
  bounds = new Float64Array(128);
  /** …and 1 when that is its score after the bonus already (no scan needed). */
  exact = new Uint8Array(128);
  /** The candidates not yet taken, a heap by bound. */
  queue = new Int32Array(128);
  /** The best scores found so far by a re-rank that wants only a few. */
  readonly leading = new LeadingScores();
  /** harmonics[n] = 1 + 1/2² + … + 1/n², up to the window of the last re-rank. */
  private harmonics = new Float64Array(1);

  harmonicsUpTo(window: number): Float64Array {
    if (this.harmonics.length !== window + 1) {
      this.harmonics = new Float64Array(window + 1);
      for (let distance = 1; distance <= window; distance++)
        this.harmonics[distance] = (this.harmonics[distance - 1] as number) + 1 / (distance * distance);
    }
    return this.harmonics;
  }

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
    this.metBy = ensureLength(this.metBy, termIds.length);
  }

  /** The row of `slot`, or -1 when its sums are not known yet. */
  row(slot: number): number {
    return this.rowOf[slot] as number;
  }

  /**
   * Makes room for `more` rows beyond those held, occurrence buffers for chunks of `length` terms
   * and the order of `more` candidates.
   */
  reserve(more: number, length: number): void {
    const rows = this.rows + more;
    this.sums = ensureLength(this.sums, rows * this.termIds.length);
    this.lengths = ensureLength(this.lengths, rows);
    this.rowSlots = ensureLength(this.rowSlots, rows);
    this.occurrenceAt = ensureLength(this.occurrenceAt, length);
    this.occurrenceTerm = ensureLength(this.occurrenceTerm, length);
    this.rankedOrder = ensureLength(this.rankedOrder, more);
    this.rankedSlots = ensureLength(this.rankedSlots, more);
    this.rankedScores = ensureLength(this.rankedScores, more);
    this.bounds = ensureLength(this.bounds, more);
    this.exact = ensureLength(this.exact, more);
    this.queue = ensureLength(this.queue, more);
  }

  /** A zeroed row for `slot`, within what `reserve` made room for. */
  addRow(slot: number): number {
    const row = this.rows++;
    const width = this.termIds.length;
    this.sums.fill(0, row * width, (row + 1) * width);
    this.rowOf[slot] = row;
    this.rowSlots[row] = slot;
    return row;
  }
}

/** Whether the proximity re-rank adds anything: a bonus weight, and two query terms to be near each other. */
export function addsProximityBonus(ranking: RankingSettings, queryTerms: readonly WeightedTerm[]): boolean {
  return ranking.proximity.weight !== 0 && queryTerms.length >= 2;
}

/**
 * BM25TP (Rasolofo & Savoy 2003): query terms that occur close together earn a bonus. Each pair of
 * occurrences of two different query terms `d` terms apart (d ≤ window) adds 1/d² to both terms;
 * each term's sum is saturated like a BM25 term frequency and weighted by the term's idf.
 * Distances are counted in index terms, so stop words between two terms do not push them apart.
 * Slots whose sums the memo holds for the same terms are not scanned again: pass the same memo
 * only to re-ranks of one query, on an unchanged index.
 *
 * `candidates` are slots in any order, each scoring `scores[slot]` before the bonus; the result is
 * ordered best first (ties: the lower slot). With `wanted`, only the best `count` results (of
 * distinct documents, with `documentOf`) must come out exact and in order. Each term's saturated
 * closeness is below 1, so a chunk's bonus is below `weight` times the sum of (k1 + 1)·w·idf over
 * the query terms it holds (`wanted.heldTerms`), and a chunk holding fewer than two of them earns
 * none. Candidates are taken highest bound first (a chunk whose sums the memo holds: its exact
 * score), and once the next bound cannot reach the `count`-th best found so far the rest are left
 * out unscanned.
 */
export function rerankByProximity(
  index: InvertedIndex,
  candidates: readonly number[],
  scores: Float64Array,
  queryTerms: readonly WeightedTerm[],
  ranking: RankingSettings,
  termMarks: TermMarks,
  memo: ClosenessMemo,
  wanted?: WantedResults,
): RankedSlot[] {
  const { weight, window } = ranking.proximity;
  if (!addsProximityBonus(ranking, queryTerms)) return sortedBySlotScore(candidates, scores);
  const { k1, b } = ranking;
  const width = queryTerms.length;
  const heldTerms = wanted?.heldTerms;
  const norms = heldTerms && wanted?.norms;
  // Per query term its id, its weight times idf and what its saturated closeness can add at most,
  // in one loop; terms past the held-term bits count as held by every candidate.
  const termIds: number[] = [];
  const termWeights: number[] = [];
  const mostPerTerm: number[] = [];
  let alwaysHeldMost = 0;
  for (let position = 0; position < width; position++) {
    const { termId, weight: queryWeight } = queryTerms[position] as WeightedTerm;
    const termWeight =
      queryWeight * inverseDocumentFrequency(index.liveCount, index.documentFrequency(termId));
    termIds.push(termId);
    termWeights.push(termWeight);
    mostPerTerm.push(termWeight * (k1 + 1));
    if (!heldTerms || position >= HELD_TERM_BITS) alwaysHeldMost += termWeight * (k1 + 1);
  }
  const alwaysHeld = heldTerms ? Math.max(0, width - HELD_TERM_BITS) : width;
  const averageLength = index.averageTitleLength + index.averageBodyLength || 1;
  const { forward, start: slotStart, titleLength, bodyLength } = index.slotArrays();
  memo.use(termIds, index.slotCount);
  const count = candidates.length;
  let longest = 0;
  for (let at = 0; at < count; at++) {
    const slot = candidates[at] as number;
    longest = Math.max(longest, (titleLength[slot] as number) + (bodyLength[slot] as number));
  }
  memo.reserve(count, longest);
  const { occurrenceAt, occurrenceTerm, metBy, sums: closeness, lengths } = memo;
  const { rankedOrder: order, rankedSlots: slots, rankedScores: rankedScores, bounds, exact, queue } = memo;
  const bonusTerms: BonusTerms = { termWeights, width, k1, b, averageLength, weight };
  const harmonics = memo.harmonicsUpTo(window);
  // Each candidate's bound: the most its score can become; exact for a chunk whose sums the memo
  // holds and for one holding fewer than two of the terms (no pair, no bonus).
  for (let at = 0; at < count; at++) {
    const slot = candidates[at] as number;
    const row = memo.row(slot);
    if (row >= 0) {
      bounds[at] = withBonus(bonusTerms, memo, row, scores[slot] as number);
      exact[at] = 1;
      continue;
    }
    let held = alwaysHeld;
    let most = alwaysHeldMost;
    for (let bits = heldTerms ? (heldTerms[slot] as number) : 0; bits !== 0; bits &= bits - 1) {
      held++;
      most += mostPerTerm[31 - Math.clz32(bits & -bits)] as number;
    }
    const score = scores[slot] as number;
    const share =
      norms && held >= 2
        ? closenessShareBound(
            bonusTerms,
            norms,
            slot,
            titleLength[slot] as number,
            bodyLength[slot] as number,
            (harmonics[Math.min(held - 1, window)] as number) + (harmonics[window] as number),
            score / most,
          )
        : 1;
    // A hair above the bound, so rounding cannot make it fall below the bonus.
    bounds[at] = held < 2 ? score : score + weight * most * share * (1 + 1e-9);
    exact[at] = held < 2 ? 1 : 0;
  }
  // The candidates in a heap, highest bound at the root.
  for (let at = 0; at < count; at++) queue[at] = at;
  for (let at = (count >> 1) - 1; at >= 0; at--) siftDownByBound(queue, count, at, bounds);
  // A typed lookup from term id to query position: read once per term of every candidate.
  const positionOf = termMarks.mark(termIds, index.termCount);
  try {
    // Pruning pays only when few of the candidates are wanted.
    const leading = wanted && 2 * wanted.count <= count ? memo.leading.start(wanted.count) : undefined;
    let kept = 0;
    for (let queued = count; queued > 0;) {
      const at = queue[0] as number;
      if (leading?.full && (bounds[at] as number) < leading.floor) break;
      queue[0] = queue[--queued] as number;
      siftDownByBound(queue, queued, 0, bounds);
      const slot = candidates[at] as number;
      let reranked = bounds[at] as number;
      if (exact[at] === 0) {
        const row = memo.addRow(slot);
        const base = row * width;
        const start = slotStart[slot] as number;
        const length = (titleLength[slot] as number) + (bodyLength[slot] as number);
        for (let position = 0; position < width; position++) metBy[position] = 0;
        let found = 0;
        for (let term = 0; term < length; term++) {
          const position = positionOf[forward[start + term] as number] as number;
          if (position < 0) continue;
          // Each other query term counts once, at its latest occurrence: the first met looking back.
          for (let back = found - 1; back >= 0; back--) {
            const distance = term - (occurrenceAt[back] as number);
            if (distance > window) break;
            const other = occurrenceTerm[back] as number;
            if (other === position || metBy[other] === found + 1) continue;
            metBy[other] = found + 1;
            const bonus = 1 / (distance * distance);
            closeness[base + position] = (closeness[base + position] as number) + bonus;
            closeness[base + other] = (closeness[base + other] as number) + bonus;
          }
          occurrenceAt[found] = term;
          occurrenceTerm[found++] = position;
        }
        lengths[row] = found < 2 ? -1 : length;
        reranked = withBonus(bonusTerms, memo, row, scores[slot] as number);
      }
      // Insertion into the order, best first (ties: the lower slot): candidates come highest bound
      // first, and the bound is close to the score after the bonus for most of them.
      let to = kept;
      while (to > 0) {
        const previous = order[to - 1] as number;
        const previousScore = rankedScores[previous] as number;
        if (previousScore > reranked || (previousScore === reranked && (slots[previous] as number) < slot))
          break;
        order[to] = previous;
        to--;
      }
      order[to] = kept;
      slots[kept] = slot;
      rankedScores[kept++] = reranked;
      leading?.offer(wanted?.documentOf ? wanted.documentOf(slot) : slot, reranked);
    }
    const ranked = new Array<RankedSlot>(kept);
    for (let at = 0; at < kept; at++) {
      const from = order[at] as number;
      ranked[at] = { slot: slots[from] as number, score: rankedScores[from] as number };
    }
    return ranked;
  } finally {
    termMarks.unmark(termIds);
  }
}

/** What the bonus of a row of closeness sums depends on besides the sums: the same for every row of a re-rank. */
interface BonusTerms {
  termWeights: readonly number[];
  width: number;
  k1: number;
  b: number;
  averageLength: number;
  weight: number;
}

/**
 * `score` with the bonus of the sums in the memo's `row`. A function of the module, not a closure
 * made per re-rank: tsx names every closure it makes (`__name`, a property definition), which cost
 * about 2 % of a search under load.
 */
function withBonus(terms: BonusTerms, memo: ClosenessMemo, row: number, score: number): number {
  const length = memo.lengths[row] as number;
  if (length < 0) return score;
  const { termWeights, width, k1, b, averageLength, weight } = terms;
  const closeness = memo.sums;
  const base = row * width;
  const saturation = k1 * (1 - b + (b * length) / averageLength);
  let bonus = 0;
  for (let position = 0; position < width; position++) {
    const close = closeness[base + position] as number;
    if (close > 0) bonus += ((termWeights[position] as number) * close * (k1 + 1)) / (saturation + close);
  }
  return score + weight * bonus;
}

/**
 * At most what share of its most (the sum of (k1 + 1)·w·idf over the query terms it holds) a
 * candidate's bonus can be, from its score, without reading its terms. The bonus is the
 * weighted sum of each held term's c/(S + c), c the term's closeness sum and S the chunk's
 * length saturation. Each occurrence of a term adds to its closeness at most
 * `closenessPerOccurrence`: looking back, it meets each other held term once at most, at distinct
 * distances (at most 1 + 1/2² + … over held - 1 of them); looking forward, it is met by later
 * occurrences at distinct distances within the window. So c ≤ κ·tf, and tf ≤ tf'/m, tf' the
 * term's BM25F frequency (field counts times field norms) and m the chunk's smaller field norm;
 * tf' = k1·s/(1 - s), s the term's saturated frequency. Hence c/(S + c) ≤ φ(s) = A·s/(S + (A - S)·s)
 * with A = κ·k1/m: concave in s when A > S, so the weighted sum of φ(s) is at most `most` times
 * φ of the weighted mean of s, which is at most the score over `most` (the score holds each held
 * term's weight times s, and perhaps more). When A ≤ S, φ(s) ≤ s. At most 1 (each c/(S + c) is).
 */
function closenessShareBound(
  { k1, b, averageLength }: BonusTerms,
  norms: FieldNorms,
  slot: number,
  titleLength: number,
  bodyLength: number,
  closenessPerOccurrence: number,
  meanSaturation: number,
): number {
  const length = titleLength + bodyLength;
  // Frequencies above MAX_TF are kept as MAX_TF: the score would understate them.
  if (length > MAX_TF) return 1;
  const body = norms.body[slot] as number;
  const smallerNorm = titleLength > 0 ? Math.min(body, norms.title[slot] as number) : body;
  if (!(smallerNorm > 0)) return 1;
  const saturation = k1 * (1 - b + (b * length) / averageLength);
  const steepness = (closenessPerOccurrence * k1) / smallerNorm;
  // The stored saturated frequencies are 32-bit floats, a little below the true ones at most by
  // far less than this.
  const mean = Math.min(1, meanSaturation + 1e-6);
  const share =
    steepness > saturation ? (steepness * mean) / (saturation + (steepness - saturation) * mean) : mean;
  return Math.min(1, share);
}

/** Sifts `queue[at]` down the heap of the first `size` entries, highest of `bounds` at the root. */
function siftDownByBound(queue: Int32Array, size: number, at: number, bounds: Float64Array): void {
  const moving = queue[at] as number;
  const bound = bounds[moving] as number;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= size) break;
    if (
      child + 1 < size &&
      (bounds[queue[child + 1] as number] as number) > (bounds[queue[child] as number] as number)
    )
      child++;
    if ((bounds[queue[child] as number] as number) <= bound) break;
    queue[at] = queue[child] as number;
    at = child;
  }
  queue[at] = moving;
}

/** The candidates with their scores, best first (ties: the lower slot): a re-rank that adds nothing. */
function sortedBySlotScore(candidates: readonly number[], scores: Float64Array): RankedSlot[] {
  return candidates
    .map((slot) => ({ slot, score: scores[slot] as number }))
    .sort((x, y) => y.score - x.score || x.slot - y.slot);
}
