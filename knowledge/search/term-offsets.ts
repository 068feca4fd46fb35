import { ensureLength, trimmed } from './growable.js';

/**
 * Where each term of a chunk's text came from: the [start, end) character offsets of its word,
 * kept per slot at ingest in the order of the slot's text terms (the last terms of its forward
 * sequence). A snippet then finds the query's words from the forward index and these offsets
 * instead of tokenizing (and stemming) the chunk's text again on every search. Offsets take 16 bits
 * each; a text longer than that keeps none, and its snippets are made from the text.
 */

/** Offsets of a slot whose text is too long for 16 bits, or that has none. */
const NONE = 0xffffffff;
const MAX_TEXT_LENGTH = 0xffff;

export interface TermOffsetSections {
  /** Start and end of each term, two 16-bit numbers per term. */
  offsets: Uint16Array;
  /** Where each slot's terms begin in `offsets` (in terms), NONE when it keeps none. */
  slotFirst: Uint32Array;
  /** How many text terms each slot has. */
  slotTerms: Uint32Array;
}

export class TermOffsets {
  private offsets: Uint16Array;
  private used: number;
  private slotFirst: Uint32Array;
  private slotTerms: Uint32Array;

  constructor(sections?: TermOffsetSections) {
    this.offsets = sections?.offsets ?? new Uint16Array(4096);
    this.used = sections ? sections.offsets.length / 2 : 0;
    this.slotFirst = sections?.slotFirst ?? new Uint32Array(256).fill(NONE);
    this.slotTerms = sections?.slotTerms ?? new Uint32Array(256);
  }

  /** Records the offsets of `slot`'s text terms, `starts[i]`–`ends[i]` for its i-th. */
  set(slot: number, textLength: number, starts: readonly number[], ends: readonly number[]): void {
    if (slot >= this.slotFirst.length) {
      const grown = ensureLength(this.slotFirst, slot + 1);
      grown.fill(NONE, this.slotFirst.length);
      this.slotFirst = grown;
      this.slotTerms = ensureLength(this.slotTerms, slot + 1);
    }
    this.slotTerms[slot] = starts.length;
    if (textLength > MAX_TEXT_LENGTH) {
      this.slotFirst[slot] = NONE;
      return;
    }
    this.offsets = ensureLength(this.offsets, 2 * (this.used + starts.length));
    this.slotFirst[slot] = this.used;
    for (let i = 0; i < starts.length; i++) {
      this.offsets[2 * (this.used + i)] = starts[i] as number;
      this.offsets[2 * (this.used + i) + 1] = ends[i] as number;
    }
    this.used += starts.length;
  }

  /** Where `slot`'s term offsets begin in `array()` (in terms), or -1 when it keeps none. */
  first(slot: number): number {
    const first = this.slotFirst[slot];
    return first === undefined || first === NONE ? -1 : first;
  }

  /** How many text terms `slot` has: they are the last ones of its forward sequence. */
  termCount(slot: number): number {
    return this.slotTerms[slot] as number;
  }

  /** Start of term i at `2i`, its end at `2i + 1`; valid until the next `set`. */
  array(): Uint16Array {
    return this.offsets;
  }

  /** The offsets of the slots `slotMap` keeps (-1: dropped), renumbered in the same order. */
  compacted(slotMap: Int32Array, slotCount: number): TermOffsets {
    const compact = new TermOffsets({
      offsets: new Uint16Array(4096),
      slotFirst: new Uint32Array(Math.max(256, slotCount)).fill(NONE),
      slotTerms: new Uint32Array(Math.max(256, slotCount)),
    });
    compact.used = 0;
    slotMap.forEach((mapped, slot) => {
      if (mapped < 0) return;
      const count = this.slotTerms[slot] as number;
      compact.slotTerms[mapped] = count;
      const first = this.first(slot);
      if (first < 0) return;
      compact.offsets = ensureLength(compact.offsets, 2 * (compact.used + count));
      compact.offsets.set(this.offsets.subarray(2 * first, 2 * (first + count)), 2 * compact.used);
      compact.slotFirst[mapped] = compact.used;
      compact.used += count;
    });
    return compact;
  }

  sections(slotCount: number): TermOffsetSections {
    return {
      offsets: trimmed(this.offsets, 2 * this.used),
      slotFirst: trimmed(this.slotFirst, slotCount),
      slotTerms: trimmed(this.slotTerms, slotCount),
    };
  }
}
