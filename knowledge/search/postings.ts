import { ensureLength, trimmed } from './growable.js';

/**
 * Postings of every term in one Uint32Array pool: each term owns a chain of blocks, each block
 * `[next block, capacity, (slot, packed tf) × capacity]`. A term's next block is as large as all
 * its earlier ones together (up to MAX_BLOCK entries), so appending is cheap and at most about
 * half of the last block stands empty. Postings of removed slots stay until the index is compacted.
 *
 * Reading a term whose postings span several blocks first moves them into one block of their exact
 * size at the end of the pool (see `blocks`): a chain's blocks lie far apart, and following it cost
 * a cache miss per block on every query (about 6 % of a Cranfield query's CPU). The blocks left
 * behind are garbage; when it outweighs the postings, the whole pool is laid out again.
 */

const NO_BLOCK = 0;
const HEADER = 2;
const ENTRY = 2;
const MIN_BLOCK = 2;
const MAX_BLOCK = 4096;
/** Term frequencies are kept per field, 16 bits each, in one 32-bit word. */
export const MAX_TF = 0xffff;

export function packTf(titleTf: number, bodyTf: number): number {
  return ((Math.min(titleTf, MAX_TF) << 16) | Math.min(bodyTf, MAX_TF)) >>> 0;
}

/**
 * Where a term's postings are: `count` blocks, block i's entries (2 numbers each) at
 * `pool[ranges[2i]]` up to `pool[ranges[2i + 1]]`. Read in a plain loop, without a callback per
 * block; valid until the next change to the postings.
 */
export interface PostingBlocks {
  pool: Uint32Array;
  ranges: Uint32Array;
  count: number;
  /** Changes when postings move to other offsets of the pool (what is kept per offset is then stale). */
  layout: number;
}

export interface PostingSections {
  pool: Uint32Array;
  head: Uint32Array;
  tail: Uint32Array;
  tailFill: Uint32Array;
  entries: Uint32Array;
}

export class PostingLists {
  private pool: Uint32Array;
  private used: number;
  private head: Uint32Array;
  private tail: Uint32Array;
  /** Entries written into each term's last block. */
  private tailFill: Uint32Array;
  /** Entries per term, removed slots included. */
  private entries: Uint32Array;
  private termCount: number;
  private ranges = new Uint32Array(64);
  /** Words of the pool in blocks no term uses any more. */
  private garbage = 0;
  private layout = 0;

  constructor(sections?: PostingSections) {
    this.pool = sections?.pool ?? new Uint32Array(1024);
    // Offset 0 stands for "no block", so the pool's first word is never used.
    this.used = sections ? sections.pool.length : 1;
    this.head = sections?.head ?? new Uint32Array(256);
    this.tail = sections?.tail ?? new Uint32Array(256);
    this.tailFill = sections?.tailFill ?? new Uint32Array(256);
    this.entries = sections?.entries ?? new Uint32Array(256);
    this.termCount = sections?.head.length ?? 0;
  }

  /** Postings laid out one exact-size block per term, for filling in slot order after a compaction. */
  static withCapacities(capacities: Uint32Array, termCount: number): PostingLists {
    const lists = new PostingLists();
    lists.reserveTerms(termCount);
    let total = 1;
    for (let term = 0; term < termCount; term++) {
      const capacity = capacities[term] ?? 0;
      if (capacity > 0) total += HEADER + capacity * ENTRY;
    }
    lists.pool = new Uint32Array(total);
    for (let term = 0; term < termCount; term++) {
      const capacity = capacities[term] ?? 0;
      if (capacity === 0) continue;
      const block = lists.allocate(capacity);
      lists.head[term] = block;
      lists.tail[term] = block;
    }
    return lists;
  }

  add(term: number, slot: number, packedTf: number): void {
    this.reserveTerms(term + 1);
    let block = this.tail[term] as number;
    let fill = this.tailFill[term] as number;
    if (block === NO_BLOCK || fill === this.pool[block + 1]) {
      const capacity = Math.min(MAX_BLOCK, Math.max(MIN_BLOCK, this.entries[term] as number));
      const fresh = this.allocate(capacity);
      if (block === NO_BLOCK) this.head[term] = fresh;
      else this.pool[block] = fresh;
      this.tail[term] = fresh;
      block = fresh;
      fill = 0;
    }
    const at = block + HEADER + fill * ENTRY;
    this.pool[at] = slot;
    this.pool[at + 1] = packedTf;
    this.tailFill[term] = fill + 1;
    this.entries[term] = (this.entries[term] as number) + 1;
  }

  /**
   * The blocks of `term`'s postings, in the order they were added; `ranges` is reused from call to
   * call. Postings of up to MAX_BLOCK entries spread over several blocks are first gathered into one.
   */
  blocks(term: number): PostingBlocks {
    let count = this.chain(term);
    if (count > 1 && (this.entries[term] as number) <= MAX_BLOCK) {
      this.gather(term);
      count = this.chain(term);
    }
    return { pool: this.pool, ranges: this.ranges, count, layout: this.layout };
  }

  /** Fills `ranges` with the term's blocks and returns how many there are. */
  private chain(term: number): number {
    let count = 0;
    if (term < this.termCount) {
      const last = this.tail[term] as number;
      for (let block = this.head[term] as number; block !== NO_BLOCK; block = this.pool[block] as number) {
        const filled = block === last ? (this.tailFill[term] as number) : (this.pool[block + 1] as number);
        this.ranges = ensureLength(this.ranges, 2 * count + 2);
        this.ranges[2 * count] = block + HEADER;
        this.ranges[2 * count + 1] = block + HEADER + filled * ENTRY;
        count++;
      }
    }
    return count;
  }

  /** Moves a term's postings into one full block at the end of the pool, or lays out the whole pool again. */
  private gather(term: number): void {
    const entries = this.entries[term] as number;
    for (let block = this.head[term] as number; block !== NO_BLOCK; block = this.pool[block] as number)
      this.garbage += HEADER + (this.pool[block + 1] as number) * ENTRY;
    if (2 * this.garbage > this.used) {
      this.relayout();
      return;
    }
    const gathered = this.allocate(entries);
    this.copyPostings(term, this.pool, gathered + HEADER);
    this.head[term] = gathered;
    this.tail[term] = gathered;
    this.tailFill[term] = entries;
  }

  /** Every term's postings in one block of their exact size, in a pool without garbage. */
  private relayout(): void {
    let total = 1;
    for (let term = 0; term < this.termCount; term++) {
      const entries = this.entries[term] as number;
      if (entries > 0) total += HEADER + entries * ENTRY;
    }
    const pool = new Uint32Array(total);
    let used = 1;
    for (let term = 0; term < this.termCount; term++) {
      const entries = this.entries[term] as number;
      if (entries === 0) continue;
      pool[used] = NO_BLOCK;
      pool[used + 1] = entries;
      this.copyPostings(term, pool, used + HEADER);
      this.head[term] = used;
      this.tail[term] = used;
      this.tailFill[term] = entries;
      used += HEADER + entries * ENTRY;
    }
    this.pool = pool;
    this.used = used;
    this.garbage = 0;
    this.layout++;
  }

  /** Copies the term's postings, in order, into `target` from offset `at`. */
  private copyPostings(term: number, target: Uint32Array, at: number): void {
    const count = this.chain(term);
    for (let block = 0; block < count; block++) {
      const from = this.ranges[2 * block] as number;
      const to = this.ranges[2 * block + 1] as number;
      target.set(this.pool.subarray(from, to), at);
      at += to - from;
    }
  }

  sections(): PostingSections {
    return {
      pool: trimmed(this.pool, this.used),
      head: trimmed(this.head, this.termCount),
      tail: trimmed(this.tail, this.termCount),
      tailFill: trimmed(this.tailFill, this.termCount),
      entries: trimmed(this.entries, this.termCount),
    };
  }

  private reserveTerms(count: number): void {
    if (count <= this.termCount) return;
    this.head = ensureLength(this.head, count);
    this.tail = ensureLength(this.tail, count);
    this.tailFill = ensureLength(this.tailFill, count);
    this.entries = ensureLength(this.entries, count);
    this.termCount = count;
  }

  private allocate(capacity: number): number {
    const block = this.used;
    this.used += HEADER + capacity * ENTRY;
    this.pool = ensureLength(this.pool, this.used);
    this.pool[block] = NO_BLOCK;
    this.pool[block + 1] = capacity;
    return block;
  }
}
