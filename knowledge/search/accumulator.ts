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

/**
 * Scores of the slots a query touches, in one array indexed by slot and reused across queries:
 * clearing resets only the touched entries, so a query costs what its postings cost, not the
 * size of the index. Every BM25 contribution is positive, so a zero score means "untouched".
 */
export class ScoreAccumulator {
  readonly termMarks = new TermMarks();
  scores = new Float64Array(256);
  touched = new Int32Array(256);
  count = 0;

  /** Makes room for slots below `slotCount`; call before adding. */
  prepare(slotCount: number): void {
    this.scores = ensureLength(this.scores, slotCount);
    this.touched = ensureLength(this.touched, slotCount);
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

  /** Multiplies every score by `factor` (> 0). */
  scale(factor: number): void {
    for (let i = 0; i < this.count; i++) {
      const slot = this.touched[i] as number;
      this.scores[slot] = (this.scores[slot] as number) * factor;
    }
  }

  score(slot: number): number {
    return this.scores[slot] as number;
  }

  clear(): void {
    for (let i = 0; i < this.count; i++) this.scores[this.touched[i] as number] = 0;
    this.count = 0;
  }
}

/** `a` ranks before `b`: the higher score, and on equal scores the earlier slot (a stable order). */
function before(scores: Float64Array, a: number, b: number): boolean {
  const difference = (scores[a] as number) - (scores[b] as number);
  return difference > 0 || (difference === 0 && a < b);
}

/** The `k` best touched slots, best first, chosen with a size-k heap (k log k, not n log n). */
export function bestSlots(accumulator: ScoreAccumulator, k: number): number[] {
  const { scores, touched, count } = accumulator;
  const size = Math.min(k, count);
  if (size <= 0) return [];
  // A heap whose root is the worst of the best so far.
  const heap = new Int32Array(size);
  let filled = 0;
  const siftDown = (from: number): void => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= filled) return;
      const right = left + 1;
      let worst = left;
      if (right < filled && before(scores, heap[left] as number, heap[right] as number)) worst = right;
      if (!before(scores, heap[at] as number, heap[worst] as number)) return;
      const swap = heap[at] as number;
      heap[at] = heap[worst] as number;
      heap[worst] = swap;
      at = worst;
    }
  };
  // The root's score, cached: most slots are rejected by this one comparison.
  let worstScore = -Infinity;
  for (let i = 0; i < count; i++) {
    const slot = touched[i] as number;
    if (filled === size) {
      const score = scores[slot] as number;
      if (score < worstScore || (score === worstScore && slot > (heap[0] as number))) continue;
    }
    if (filled < size) {
      let at = filled++;
      heap[at] = slot;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!before(scores, heap[parent] as number, heap[at] as number)) break;
        const swap = heap[parent] as number;
        heap[parent] = heap[at] as number;
        heap[at] = swap;
        at = parent;
      }
      if (filled === size) worstScore = scores[heap[0] as number] as number;
    } else {
      heap[0] = slot;
      siftDown(0);
      worstScore = scores[heap[0] as number] as number;
    }
  }
  return Array.from(heap).sort((a, b) => (before(scores, a, b) ? -1 : 1));
}
