import { HELD_TERM_BITS, type ScoreAccumulator } from './accumulator.js';
import type { FieldNorms } from './field-norms.js';
import type { InvertedIndex } from './inverted-index.js';
import type { PostingBlocks } from './postings.js';
import type { RankingSettings } from './settings.js';

/** A query term and its weight: its count in the query, or its share after feedback expansion. */
export interface WeightedTerm {
  termId: number;
  weight: number;
}

/** Robertson/Lucene idf: always positive, so a term in every chunk still counts a little. */
export function inverseDocumentFrequency(liveCount: number, documentFrequency: number): number {
  return Math.log(1 + (liveCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * BM25F (Robertson, Zaragoza & Taylor 2004): each field's term frequency is length-normalised
 * with its own b and weighted, the weighted sum is saturated once with k1. With one field this
 * is plain BM25.
 */
export class Bm25fScorer {
  private readonly k1: number;
  private readonly body: Float32Array;
  private readonly title: Float32Array;

  constructor(
    private readonly index: InvertedIndex,
    ranking: RankingSettings,
    norms: FieldNorms,
  ) {
    this.k1 = ranking.k1;
    norms.refresh(index);
    ({ body: this.body, title: this.title } = norms);
  }

  /** What every occurrence-weighted contribution of a term is multiplied by. */
  termFactor(term: WeightedTerm): number {
    const documentFrequency = this.index.documentFrequency(term.termId);
    if (documentFrequency === 0) return 0;
    return term.weight * inverseDocumentFrequency(this.index.liveCount, documentFrequency) * (this.k1 + 1);
  }

  /** A term's contribution to one slot, from its title and body frequencies there. */
  score(slot: number, titleTf: number, bodyTf: number, factor: number): number {
    const tf = bodyTf * (this.body[slot] as number) + titleTf * (this.title[slot] as number);
    return tf > 0 ? (factor * tf) / (this.k1 + tf) : 0;
  }

  /**
   * Adds the terms' contributions to every live slot in their postings, setting bit i of the
   * accumulator's `bits` for the slots `query[i]` scored (the first HELD_TERM_BITS terms); or with
   * `touchedOnly`, to the slots the accumulator already holds.
   */
  accumulate(query: readonly WeightedTerm[], accumulator: ScoreAccumulator, touchedOnly = false): void {
    for (let position = 0; position < query.length; position++) {
      const term = query[position] as WeightedTerm;
      const factor = this.termFactor(term);
      if (factor === 0) continue;
      const postings = this.index.postingBlocks(term.termId);
      if (touchedOnly) this.addToTouched(postings, factor, accumulator);
      else this.addToAll(postings, factor, position < HELD_TERM_BITS ? 1 << position : 0, accumulator);
    }
  }

  /**
   * The hot loop of every query, one term's postings: score() and accumulator.add() written out in
   * place, and `bit` set for each slot scored.
   */
  private addToAll(
    { pool, ranges, count: blocks }: PostingBlocks,
    factor: number,
    bit: number,
    accumulator: ScoreAccumulator,
  ): void {
    const { body, title, k1 } = this;
    const { scores, touched, bits } = accumulator;
    let count = accumulator.count;
    for (let block = 0; block < blocks; block++) {
      const to = ranges[2 * block + 1] as number;
      for (let at = ranges[2 * block] as number; at < to; at += 2) {
        const slot = pool[at] as number;
        const packed = pool[at + 1] as number;
        const titleTf = packed >>> 16;
        const tf =
          (packed & 0xffff) * (body[slot] as number) +
          (titleTf === 0 ? 0 : titleTf * (title[slot] as number));
        // A removed slot's norms are 0 (FieldNorms), and so is its tf.
        if (tf === 0) continue;
        const before = scores[slot] as number;
        if (before === 0) touched[count++] = slot;
        scores[slot] = before + (factor * tf) / (k1 + tf);
        bits[slot] = (bits[slot] as number) | bit;
      }
    }
    accumulator.count = count;
  }

  /** The same for expansion terms, which re-weight only chunks already found: the others are passed over. */
  private addToTouched(
    { pool, ranges, count: blocks }: PostingBlocks,
    factor: number,
    accumulator: ScoreAccumulator,
  ): void {
    const { body, title, k1 } = this;
    const { scores } = accumulator;
    for (let block = 0; block < blocks; block++) {
      const to = ranges[2 * block + 1] as number;
      for (let at = ranges[2 * block] as number; at < to; at += 2) {
        const slot = pool[at] as number;
        const before = scores[slot] as number;
        if (before === 0) continue;
        const packed = pool[at + 1] as number;
        const titleTf = packed >>> 16;
        const tf =
          (packed & 0xffff) * (body[slot] as number) +
          (titleTf === 0 ? 0 : titleTf * (title[slot] as number));
        if (tf !== 0) scores[slot] = before + (factor * tf) / (k1 + tf);
      }
    }
  }

  /**
   * Adds the terms' contributions to the given (touched) slots only, counting their frequencies in each
   * slot's term sequence: one pass over the slots' terms instead of the terms' whole postings.
   */
  accumulateFor(
    slots: readonly number[],
    query: readonly WeightedTerm[],
    accumulator: ScoreAccumulator,
  ): void {
    const termIds = query.map(({ termId }) => termId);
    const positionOf = accumulator.termMarks.mark(termIds, this.index.termCount);
    try {
      const factors = query.map((term) => this.termFactor(term));
      const titleTf = new Uint32Array(query.length);
      const bodyTf = new Uint32Array(query.length);
      for (const slot of slots) {
        titleTf.fill(0);
        bodyTf.fill(0);
        const { terms, titleLength } = this.index.slotTerms(slot);
        for (let at = 0; at < terms.length; at++) {
          const position = positionOf[terms[at] as number] as number;
          if (position < 0) continue;
          if (at < titleLength) titleTf[position] = (titleTf[position] as number) + 1;
          else bodyTf[position] = (bodyTf[position] as number) + 1;
        }
        for (let position = 0; position < query.length; position++) {
          const factor = factors[position] as number;
          const contribution = this.score(
            slot,
            titleTf[position] as number,
            bodyTf[position] as number,
            factor,
          );
          if (contribution > 0) accumulator.addToTouched(slot, contribution);
        }
      }
    } finally {
      accumulator.termMarks.unmark(termIds);
    }
  }
}
