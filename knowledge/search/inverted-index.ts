import { ensureLength, trimmed } from './growable.js';
import { PostingLists, packTf, type PostingBlocks, type PostingSections } from './postings.js';

/**
 * The numbers behind ranking, owned here rather than by Orama (whose tokenizer keeps one copy of
 * each token per field and so loses term frequency): a term dictionary, per-term postings with
 * title and body term frequencies, and per-slot term sequences (a forward index) from which
 * proximity, feedback terms and removals are computed without tokenizing text again.
 * A slot is one chunk; a removed slot stays dead until `compacted()` renumbers the live ones.
 */

export interface InvertedIndexSections {
  terms: string[];
  termDf: Uint32Array;
  postings: PostingSections;
  forward: Uint32Array;
  slotStart: Uint32Array;
  slotTitleLength: Uint32Array;
  slotBodyLength: Uint32Array;
  slotLive: Uint8Array;
}

export interface SlotTerms {
  /** The slot's term ids: its title terms, then its body terms, in reading order. */
  terms: Uint32Array;
  titleLength: number;
}

export class InvertedIndex {
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[];
  private termDf: Uint32Array;
  private postings: PostingLists;
  private forward: Uint32Array;
  private forwardUsed: number;
  private slotStart: Uint32Array;
  private slotTitleLength: Uint32Array;
  private slotBodyLength: Uint32Array;
  private slotLive: Uint8Array;
  private slots: number;
  private live = 0;
  private titleLengthSum = 0;
  /** Live slots with a non-empty title field. */
  private titled = 0;
  private bodyLengthSum = 0;
  /** Per-term scratch counters, zero between calls. */
  private scratchTitle: Uint32Array;
  private scratchBody: Uint32Array;

  constructor(sections?: InvertedIndexSections) {
    this.terms = sections?.terms ?? [];
    this.terms.forEach((term, id) => this.termIds.set(term, id));
    this.scratchTitle = new Uint32Array(Math.max(256, this.terms.length));
    this.scratchBody = new Uint32Array(Math.max(256, this.terms.length));
    this.termDf = sections?.termDf ?? new Uint32Array(256);
    this.postings = new PostingLists(sections?.postings);
    this.forward = sections?.forward ?? new Uint32Array(4096);
    this.forwardUsed = sections?.forward.length ?? 0;
    this.slotStart = sections?.slotStart ?? new Uint32Array(256);
    this.slotTitleLength = sections?.slotTitleLength ?? new Uint32Array(256);
    this.slotBodyLength = sections?.slotBodyLength ?? new Uint32Array(256);
    this.slotLive = sections?.slotLive ?? new Uint8Array(256);
    this.slots = sections?.slotLive.length ?? 0;
    for (let slot = 0; slot < this.slots; slot++) {
      if (this.slotLive[slot] !== 1) continue;
      this.live++;
      if ((this.slotTitleLength[slot] as number) > 0) this.titled++;
      this.titleLengthSum += this.slotTitleLength[slot] as number;
      this.bodyLengthSum += this.slotBodyLength[slot] as number;
    }
  }

  /** Counts changes, so what is derived from slot lengths knows when to be recomputed. */
  version = 0;

  /** Slots ever handed out, dead ones included. */
  get slotCount(): number {
    return this.slots;
  }

  /** Terms ever seen, unused ones included: term ids are below this. */
  get termCount(): number {
    return this.terms.length;
  }

  get liveCount(): number {
    return this.live;
  }

  /** Over the slots that have a title: chunks without one do not make the others' titles look long. */
  get averageTitleLength(): number {
    return this.titled === 0 ? 0 : this.titleLengthSum / this.titled;
  }

  get averageBodyLength(): number {
    return this.live === 0 ? 0 : this.bodyLengthSum / this.live;
  }

  /** Adds one chunk's terms and returns its slot. */
  addSlot(titleTerms: readonly string[], bodyTerms: readonly string[]): number {
    const slot = this.slots++;
    this.version++;
    this.slotStart = ensureLength(this.slotStart, this.slots);
    this.slotTitleLength = ensureLength(this.slotTitleLength, this.slots);
    this.slotBodyLength = ensureLength(this.slotBodyLength, this.slots);
    this.slotLive = ensureLength(this.slotLive, this.slots);
    const length = titleTerms.length + bodyTerms.length;
    this.forward = ensureLength(this.forward, this.forwardUsed + length);
    this.slotStart[slot] = this.forwardUsed;
    for (const term of titleTerms) this.forward[this.forwardUsed++] = this.intern(term);
    for (const term of bodyTerms) this.forward[this.forwardUsed++] = this.intern(term);
    this.slotTitleLength[slot] = titleTerms.length;
    this.slotBodyLength[slot] = bodyTerms.length;
    this.slotLive[slot] = 1;
    this.live++;
    if (titleTerms.length > 0) this.titled++;
    this.titleLengthSum += titleTerms.length;
    this.bodyLengthSum += bodyTerms.length;
    this.post(slot, this.forward, this.slotStart[slot] as number, titleTerms.length, bodyTerms.length, true);
    return slot;
  }

  removeSlot(slot: number): void {
    if (this.slotLive[slot] !== 1) return;
    this.version++;
    const { terms } = this.slotTerms(slot);
    const seen = this.scratchTitle;
    for (const term of terms) {
      if (seen[term] === 0) this.termDf[term] = (this.termDf[term] as number) - 1;
      seen[term] = 1;
    }
    for (const term of terms) seen[term] = 0;
    this.slotLive[slot] = 0;
    this.live--;
    if ((this.slotTitleLength[slot] as number) > 0) this.titled--;
    this.titleLengthSum -= this.slotTitleLength[slot] as number;
    this.bodyLengthSum -= this.slotBodyLength[slot] as number;
  }

  /**
   * The per-slot arrays scoring reads in its inner loops, valid until the next change to the index:
   * a slot's terms are `forward[start[slot]]` onwards, its title's `titleLength[slot]` then its
   * body's `bodyLength[slot]` (what `slotTerms` returns, without a view per slot).
   */
  slotArrays(): {
    live: Uint8Array;
    titleLength: Uint32Array;
    bodyLength: Uint32Array;
    forward: Uint32Array;
    start: Uint32Array;
  } {
    return {
      live: this.slotLive,
      titleLength: this.slotTitleLength,
      bodyLength: this.slotBodyLength,
      forward: this.forward,
      start: this.slotStart,
    };
  }

  termId(term: string): number | undefined {
    return this.termIds.get(term);
  }

  /** Live slots that hold the term in any field. */
  documentFrequency(termId: number): number {
    return this.termDf[termId] ?? 0;
  }

  /** Postings of a term, dead slots included: callers skip those `slotArrays().live` marks 0. */
  postingBlocks(termId: number): PostingBlocks {
    return this.postings.blocks(termId);
  }

  slotTerms(slot: number): SlotTerms {
    const start = this.slotStart[slot] as number;
    const titleLength = this.slotTitleLength[slot] as number;
    const end = start + titleLength + (this.slotBodyLength[slot] as number);
    return { terms: this.forward.subarray(start, end), titleLength };
  }

  /**
   * The same content with dead slots and unused terms dropped and postings in one block per term.
   * `slotMap[old]` is the new slot of a live old slot, -1 for a dead one.
   */
  compacted(): { index: InvertedIndex; slotMap: Int32Array } {
    const termMap = new Int32Array(this.terms.length).fill(-1);
    const terms: string[] = [];
    this.terms.forEach((term, id) => {
      if ((this.termDf[id] as number) > 0) termMap[id] = terms.push(term) - 1;
    });
    const termDf = new Uint32Array(terms.length);
    for (let id = 0; id < this.terms.length; id++) {
      const mapped = termMap[id] as number;
      if (mapped >= 0) termDf[mapped] = this.termDf[id] as number;
    }
    const slotMap = new Int32Array(this.slots).fill(-1);
    let forwardLength = 0;
    for (let slot = 0, next = 0; slot < this.slots; slot++) {
      if (this.slotLive[slot] !== 1) continue;
      slotMap[slot] = next++;
      forwardLength += (this.slotTitleLength[slot] as number) + (this.slotBodyLength[slot] as number);
    }
    const forward = new Uint32Array(forwardLength);
    const slotStart = new Uint32Array(this.live);
    const slotTitleLength = new Uint32Array(this.live);
    const slotBodyLength = new Uint32Array(this.live);
    let written = 0;
    for (let slot = 0; slot < this.slots; slot++) {
      const mapped = slotMap[slot] as number;
      if (mapped < 0) continue;
      const { terms: slotTerms, titleLength } = this.slotTerms(slot);
      slotStart[mapped] = written;
      slotTitleLength[mapped] = titleLength;
      slotBodyLength[mapped] = slotTerms.length - titleLength;
      for (const term of slotTerms) forward[written++] = termMap[term] as number;
    }
    const index = new InvertedIndex({
      terms,
      termDf,
      postings: PostingLists.withCapacities(termDf, terms.length).sections(),
      forward,
      slotStart,
      slotTitleLength,
      slotBodyLength,
      slotLive: new Uint8Array(this.live).fill(1),
    });
    for (let slot = 0; slot < index.slots; slot++) {
      const start = slotStart[slot] as number;
      index.post(
        slot,
        forward,
        start,
        slotTitleLength[slot] as number,
        slotBodyLength[slot] as number,
        false,
      );
    }
    return { index, slotMap };
  }

  sections(): InvertedIndexSections {
    return {
      terms: this.terms.slice(),
      termDf: trimmed(this.termDf, this.terms.length),
      postings: this.postings.sections(),
      forward: trimmed(this.forward, this.forwardUsed),
      slotStart: trimmed(this.slotStart, this.slots),
      slotTitleLength: trimmed(this.slotTitleLength, this.slots),
      slotBodyLength: trimmed(this.slotBodyLength, this.slots),
      slotLive: trimmed(this.slotLive, this.slots),
    };
  }

  private intern(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.push(term) - 1;
      this.termIds.set(term, id);
      this.termDf = ensureLength(this.termDf, this.terms.length);
      this.scratchTitle = ensureLength(this.scratchTitle, this.terms.length);
      this.scratchBody = ensureLength(this.scratchBody, this.terms.length);
    }
    return id;
  }

  /** Writes one posting per distinct term of a slot, with its title and body frequencies. */
  private post(
    slot: number,
    forward: Uint32Array,
    start: number,
    titleLength: number,
    bodyLength: number,
    countDocumentFrequency: boolean,
  ): void {
    const titleCounts = this.scratchTitle;
    const bodyCounts = this.scratchBody;
    const end = start + titleLength + bodyLength;
    for (let at = start; at < end; at++) {
      const term = forward[at] as number;
      if (at < start + titleLength) titleCounts[term] = (titleCounts[term] as number) + 1;
      else bodyCounts[term] = (bodyCounts[term] as number) + 1;
    }
    for (let at = start; at < end; at++) {
      const term = forward[at] as number;
      const titleTf = titleCounts[term] as number;
      const bodyTf = bodyCounts[term] as number;
      if (titleTf === 0 && bodyTf === 0) continue; // already posted
      this.postings.add(term, slot, packTf(titleTf, bodyTf));
      if (countDocumentFrequency) this.termDf[term] = (this.termDf[term] as number) + 1;
      titleCounts[term] = 0;
      bodyCounts[term] = 0;
    }
  }
}
