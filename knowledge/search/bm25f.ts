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
  constructor(
    private readonly index: InvertedIndex,
    private readonly ranking: RankingSettings,
    private readonly norms: FieldNorms,
  ) {
    norms.refresh(index);
  }

  /** What every occurrence-weighted contribution of a term is multiplied by. */
  termFactor(term: WeightedTerm): number {
    const documentFrequency = this.index.documentFrequency(term.termId);
    if (documentFrequency === 0) return 0;
    return (
      term.weight * inverseDocumentFrequency(this.index.liveCount, documentFrequency) * (this.ranking.k1 + 1)
    );
  }

  /** A term's contribution to one slot, from its title and body frequencies there. */
  score(slot: number, titleTf: number, bodyTf: number, factor: number): number {
    return factor * this.norms.saturate(slot, titleTf, bodyTf);
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
      const saturated = this.norms.saturation(term.termId, postings);
      if (touchedOnly) this.addToTouched(postings, saturated, factor, accumulator);
      else
        this.addToAll(
          postings,
          saturated,
          factor,
          position < HELD_TERM_BITS ? 1 << position : 0,
          accumulator,
        );
    }
  }

  /**
   * The hot loop of every query, one term's postings: accumulator.add() written out in place with
   * each posting's stored saturated frequency, and `bit` set for each slot scored.
   */
  private addToAll(
    { pool, ranges, count: blocks }: PostingBlocks,
    saturated: Float32Array,
    factor: number,
    bit: number,
    accumulator: ScoreAccumulator,
  ): void {
    const { scores, touched, bits } = accumulator;
    let count = accumulator.count;
    for (let block = 0; block < blocks; block++) {
      const to = ranges[2 * block + 1] as number;
      for (let at = ranges[2 * block] as number; at < to; at += 2) {
        const frequency = saturated[at >> 1] as number;
        // A removed slot's norms are 0 (FieldNorms), and so is its saturated frequency.
        if (frequency === 0) continue;
        const slot = pool[at] as number;
        const before = scores[slot] as number;
        // The slot joins the touched list when this is its first score, without a branch (the list
        // has room for one more than the slots): the next slot overwrites it otherwise.
        touched[count] = slot;
        count += +(before === 0);
        scores[slot] = before + factor * frequency;
        bits[slot] = (bits[slot] as number) | bit;
      }
    }
    accumulator.count = count;
  }

  /** The same for expansion terms, which re-weight only chunks already found: the others are passed over. */
  private addToTouched(
    { pool, ranges, count: blocks }: PostingBlocks,
    saturated: Float32Array,
    factor: number,
    accumulator: ScoreAccumulator,
  ): void {
    const { scores } = accumulator;
    for (let block = 0; block < blocks; block++) {
      const to = ranges[2 * block + 1] as number;
      for (let at = ranges[2 * block] as number; at < to; at += 2) {
        const slot = pool[at] as number;
        const before = scores[slot] as number;
        // An untouched slot gains nothing (its contribution is multiplied by 0, 0 + 0 stays 0); a
        // touched one is live (a frequency of 0 adds nothing). Without a branch: whether a slot is
        // touched follows no pattern the processor can predict (about a quarter of an expansion
        // term's postings are not), and the branch cost a tenth of a Cranfield search.
        scores[slot] = before + factor * (saturated[at >> 1] as number) * +(before !== 0);
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
