import { ensureLength } from './growable.js';

/**
 * Scratch marks indexed by term id, -1 between uses: which query position a term holds, read
 * once per term occurrence while scanning chunks' term sequences.
 */
export class TermMarks {
  private marks = new Int32Array(256).fill(-1);

  /** Marks each term with its position in `termIds`; `unmark` must follow. */
  mark(termIds: readonly number[], termCount: number): Int32Array {
    if (this.marks.length < termCount)
      this.marks = new Int32Array(Math.max(termCount, this.marks.length * 2)).fill(-1);
    termIds.forEach((termId, position) => (this.marks[termId] = position));
    return this.marks;
  }

  unmark(termIds: readonly number[]): void {
    for (const termId of termIds) this.marks[termId] = -1;
  }
}

/** Query terms whose presence in a chunk the `bits` of a ScoreAccumulator record, one bit each. */
export const HELD_TERM_BITS = 31;

/**
 * Scores of the slots a query touches, in one array indexed by slot and reused across queries:
 * clearing resets only the touched entries, so a query costs what its postings cost, not the
 * size of the index. Every BM25 contribution is positive, so a zero score means "untouched".
 */
export class ScoreAccumulator {
  readonly termMarks = new TermMarks();
  scores = new Float64Array(256);
  touched = new Int32Array(256);
  /** Per touched slot, which of the first HELD_TERM_BITS query terms scored it; zero between uses. */
  bits = new Int32Array(256);
  count = 0;

  /** Makes room for slots below `slotCount`; call before adding. */
  prepare(slotCount: number): void {
    this.scores = ensureLength(this.scores, slotCount);
    // One more than the slots: a slot is written past the list's end before it is known to be new.
    this.touched = ensureLength(this.touched, slotCount + 1);
    this.bits = ensureLength(this.bits, slotCount);
  }

  add(slot: number, value: number): void {
    const scores = this.scores;
    if (scores[slot] === 0) this.touched[this.count++] = slot;
    scores[slot] = (scores[slot] as number) + value;
  }

  /** Adds to a slot already touched; leaves untouched slots out. */
  addToTouched(slot: number, value: number): void {
    const scores = this.scores;
    if (scores[slot] !== 0) scores[slot] = (scores[slot] as number) + value;
  }

  score(slot: number): number {
    return this.scores[slot] as number;
  }

  clear(): void {
    // Once more than a few percent of the slots are touched, zeroing the whole arrays (a memset) costs
    // less than one scattered write per touched slot: Cranfield queries touch about two thirds.
    if (this.count * 32 >= this.scores.length) {
      this.scores.fill(0);
      this.bits.fill(0);
      this.count = 0;
      return;
    }
    for (let i = 0; i < this.count; i++) {
      const slot = this.touched[i] as number;
      this.scores[slot] = 0;
      this.bits[slot] = 0;
    }
    this.count = 0;
  }
}

/** Whether (scoreA, slotA) ranks below (scoreB, slotB): a lower score, or an equal one on a later slot. */
function worse(scoreA: number, slotA: number, scoreB: number, slotB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && slotA > slotB);
}

/**
 * The `k` best touched slots, best first (ties: the earlier slot): the slots `topSlots` chooses,
 * emptied from its heap worst first into the result from its end, so no comparator sort follows.
 */
export function bestSlots(
  accumulator: ScoreAccumulator,
  k: number,
  likely: readonly number[] = [],
): number[] {
  return emptiedHeap(fillHeap(accumulator.scores, accumulator.touched, accumulator.count, k, likely));
}

/**
 * The `k` best of `slots` (distinct touched slots), best first (ties: the earlier slot): what
 * sorting them by score would put first, without sorting the rest.
 */
export function bestOf(accumulator: ScoreAccumulator, slots: readonly number[], k: number): number[] {
  listed = ensureLength(listed, slots.length);
  for (let at = 0; at < slots.length; at++) listed[at] = slots[at] as number;
  return emptiedHeap(fillHeap(accumulator.scores, listed, slots.length, k, []));
}

/** `bestOf`'s copy of its slots, so the heap reads one kind of array. */
let listed = new Int32Array(128);

/** The shared heap's `size` slots, best first. */
function emptiedHeap(size: number): number[] {
  const { slots: heapSlots, scores: heapScores } = heap;
  const best = new Array<number>(size);
  for (let last = size - 1; last >= 0; last--) {
    best[last] = heapSlots[0] as number;
    // The last leaf takes the root's place in a heap one smaller.
    siftDown(heapSlots, heapScores, last, heapSlots[last] as number, heapScores[last] as number);
  }
  return best;
}

/**
 * The `k` best touched slots (ties: the earlier slot) in no particular order, for a caller that
 * needs which slots they are, not their order: the proximity re-rank orders its candidates itself.
 */
export function topSlots(accumulator: ScoreAccumulator, k: number, likely: readonly number[] = []): number[] {
  const size = fillHeap(accumulator.scores, accumulator.touched, accumulator.count, k, likely);
  const top = new Array<number>(size);
  for (let at = 0; at < size; at++) top[at] = heap.slots[at] as number;
  return top;
}

/**
 * Fills the shared heap with the `k` best of the first `count` slots of `touched` (the
 * accumulator's touched slots, or a list of them), its root the worst of them, and returns
 * how many it holds. Most slots are turned away by one comparison with the root. `likely`
 * (distinct touched slots, such as the best before the scores last grew) sets a floor: at least k
 * slots score no less than its k-th best, so no slot below that is among the best, and the heap
 * meets only the few above it. Without it, when the slots are a few times k (the heap would take
 * in many of them), a floor read from a sample of them picks out those the heap meets (among many
 * more, one comparison turns most away, and the pass that picks would cost more than it saves).
 */
function fillHeap(
  scores: Float64Array,
  touched: Int32Array,
  count: number,
  k: number,
  likely: readonly number[],
): number {
  const size = Math.max(0, Math.min(k, count));
  if (size === 0) return 0;
  let floor = 0;
  if (likely.length === size) {
    // The k-th best of k slots is the lowest: no sort needed.
    floor = Infinity;
    for (const slot of likely) floor = Math.min(floor, scores[slot] as number);
  } else if (likely.length > size) {
    const likelyScores = new Float64Array(likely.length);
    likely.forEach((slot, at) => (likelyScores[at] = scores[slot] as number));
    floor = likelyScores.sort()[likely.length - size] as number;
  }
  let candidates = touched;
  let candidateCount = count;
  if (likely.length < size && count >= 4 * size && count <= 20 * size) {
    // A floor read from a sample of the slots, aimed a little below the k-th best: one pass keeps
    // the slots that reach it, and the heap meets only those. When at least k reach it the k best
    // are all among them; otherwise the heap meets every slot.
    const sampledFloor = histogramFloor(
      scores,
      touched,
      count,
      Math.ceil((SAMPLE_MARGIN * size) / SAMPLE_STRIDE),
      SAMPLE_STRIDE,
    );
    // One more than the slots: a slot is written before it is known to reach the floor.
    aboveFloor = ensureLength(aboveFloor, count + 1);
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const slot = touched[i] as number;
      aboveFloor[kept] = slot;
      kept += +((scores[slot] as number) >= sampledFloor);
    }
    if (kept >= size) {
      candidates = aboveFloor;
      candidateCount = kept;
    }
  }
  if (heap.slots.length < size) {
    heap.slots = new Int32Array(size);
    heap.scores = new Float64Array(size);
  }
  const { slots: heapSlots, scores: heapScores } = heap;
  let filled = 0;
  for (let i = 0; i < candidateCount; i++) {
    const slot = candidates[i] as number;
    const score = scores[slot] as number;
    if (score < floor) continue;
    if (filled < size) {
      // Sift up from the end.
      let at = filled++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!worse(score, slot, heapScores[parent] as number, heapSlots[parent] as number)) break;
        heapSlots[at] = heapSlots[parent] as number;
        heapScores[at] = heapScores[parent] as number;
        at = parent;
      }
      heapSlots[at] = slot;
      heapScores[at] = score;
    } else if (!worse(score, slot, heapScores[0] as number, heapSlots[0] as number)) {
      siftDown(heapSlots, heapScores, size, slot, score);
    }
  }
  return size;
}

/** The heap's arrays, reused by every call: a call returns its result as a fresh array. */
const heap = { slots: new Int32Array(128), scores: new Float64Array(128) };

/** The sampled floor reads every SAMPLE_STRIDE-th slot… */
const SAMPLE_STRIDE = 4;
/** …and aims at the (SAMPLE_MARGIN·k)-th best, so that k slots reach it nearly always. */
const SAMPLE_MARGIN = 1.5;
/** The slots that reach the sampled floor, reused by every call. */
let aboveFloor = new Int32Array(128);

const BINS = 64;
/** One more than BINS: the best score itself lands in the last, counted with the one below. */
const bins = new Int32Array(BINS + 1);

/**
 * A score that at least `size` of every `stride`-th of the touched slots reach: the lower edge of
 * the highest of 64 equal score ranges (up to their best score) that holds them, read from a count
 * of those slots per range.
 */
function histogramFloor(
  scores: Float64Array,
  touched: Int32Array,
  count: number,
  size: number,
  stride: number,
): number {
  let best = 0;
  for (let i = 0; i < count; i += stride) best = Math.max(best, scores[touched[i] as number] as number);
  const scale = BINS / best;
  bins.fill(0);
  for (let i = 0; i < count; i += stride) {
    // Scores are positive, so truncation is the floor.
    const bin = ((scores[touched[i] as number] as number) * scale) | 0;
    bins[bin] = (bins[bin] as number) + 1;
  }
  bins[BINS - 1] = (bins[BINS - 1] as number) + (bins[BINS] as number);
  let bin = BINS - 1;
  for (let reached = bins[bin] as number; reached < size && bin > 0;) reached += bins[--bin] as number;
  // Just below the edge, so a score the division above rounded into this range stays above it.
  return bin === 0 ? 0 : (bin / scale) * (1 - 1e-9);
}

/** Puts (slot, score) at the root of the heap's first `size` entries and sifts it down. */
function siftDown(
  heapSlots: Int32Array,
  heapScores: Float64Array,
  size: number,
  slot: number,
  score: number,
): void {
  let at = 0;
  for (;;) {
    const left = 2 * at + 1;
    if (left >= size) break;
    const right = left + 1;
    let child = left;
    if (
      right < size &&
      worse(
        heapScores[right] as number,
        heapSlots[right] as number,
        heapScores[left] as number,
        heapSlots[left] as number,
      )
    ) {
      child = right;
    }
    if (!worse(heapScores[child] as number, heapSlots[child] as number, score, slot)) break;
    heapSlots[at] = heapSlots[child] as number;
    heapScores[at] = heapScores[child] as number;
    at = child;
  }
  if (size > 0) {
    heapSlots[at] = slot;
    heapScores[at] = score;
  }
}
