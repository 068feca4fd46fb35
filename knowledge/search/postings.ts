import { ensureLength, trimmed } from './growable.js';

/**
 * Postings of every term in one Uint32Array pool: each term owns a chain of blocks, each block
 * `[next block, capacity, (slot, packed tf) × capacity]`. A term's next block is as large as all
 * its earlier ones together (up to MAX_BLOCK entries), so appending is cheap and at most about
 * half of the last block stands empty. Postings of removed slots stay until the index is compacted.
 */

const NO_BLOCK = 0;
const HEADER = 2;
const ENTRY = 2;
const MIN_BLOCK = 2;
const MAX_BLOCK = 4096;
/** Term frequencies are kept per field, 16 bits each, in one 32-bit word. */
const MAX_TF = 0xffff;

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

  /** The blocks of `term`'s postings, in the order they were added; `ranges` is reused from call to call. */
  blocks(term: number): PostingBlocks {
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
    return { pool: this.pool, ranges: this.ranges, count };
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
