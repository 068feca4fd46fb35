import { ensureLength } from './growable.js';
import type { InvertedIndex } from './inverted-index.js';
import type { PostingBlocks } from './postings.js';
import type { RankingSettings } from './settings.js';

/**
 * Per-slot BM25F length normalisation, 1 / (1 - b + b·length/average) for the body and the same
 * times the title weight for the title, kept between queries and recomputed only after the index
 * changed: the scoring loop then multiplies where it would divide twice per posting. Removed slots
 * get 0, so their postings (kept until compaction) score nothing.
 *
 * Each posting's saturated frequency, tf / (k1 + tf) with tf the normalised, weighted sum of its
 * field frequencies, is kept too (see `saturation`): a term's contribution to a slot is then its
 * factor times one stored number, read where the posting is read.
 */
export class FieldNorms {
  // 32 bits are plenty for a length ratio and halve what the scoring loop pulls through the cache.
  body = new Float32Array(256);
  title = new Float32Array(256);
  /**
   * Saturated frequencies, 32 bits each, indexed by a posting's offset in the postings pool halved:
   * a posting takes two words of the pool, so no two share an index. Valid for the terms whose
   * `stamp` is the current `generation`.
   */
  private saturated = new Float32Array(256);
  private stamp = new Uint32Array(256);
  /** Counts refreshes and moves of the postings: every term's saturated frequencies are stale after one. */
  private generation = 1;
  private postingsLayout = 0;
  private index: InvertedIndex | undefined;
  private version = -1;

  constructor(private readonly ranking: RankingSettings) {}

  refresh(index: InvertedIndex): void {
    if (index === this.index && index.version === this.version) return;
    const { b, titleB, titleWeight } = this.ranking;
    const { live, titleLength, bodyLength } = index.slotArrays();
    const averageBody = index.averageBodyLength || 1;
    const averageTitle = index.averageTitleLength || 1;
    this.body = ensureLength(this.body, index.slotCount);
    this.title = ensureLength(this.title, index.slotCount);
    for (let slot = 0; slot < index.slotCount; slot++) {
      // A removed slot's norms are 0: every term frequency there weighs nothing, so scoring needs no liveness check.
      const isLive = live[slot] === 1;
      this.body[slot] = isLive ? 1 / (1 - b + (b * (bodyLength[slot] as number)) / averageBody) : 0;
      this.title[slot] = isLive
        ? titleWeight / (1 - titleB + (titleB * (titleLength[slot] as number)) / averageTitle)
        : 0;
    }
    this.index = index;
    this.version = index.version;
    this.generation++;
  }

  /**
   * tf / (k1 + tf) of a slot's title and body frequencies, rounded to 32 bits as it is stored: 0
   * for a removed slot. Every scoring path uses it, so they agree to the last bit.
   */
  saturate(slot: number, titleTf: number, bodyTf: number): number {
    const tf =
      bodyTf * (this.body[slot] as number) + (titleTf === 0 ? 0 : titleTf * (this.title[slot] as number));
    return Math.fround(tf / (this.ranking.k1 + tf));
  }

  /**
   * The saturated frequencies of `postings` (the term's blocks, from `index.postingBlocks(term)`),
   * at `offset >> 1` for the posting at `offset` of the pool. Computed the first time a query reads
   * the term after the index changed, so their cost is one more pass over the postings of the terms
   * queried, not over the whole index; refresh() must come first.
   */
  saturation(term: number, { pool, ranges, count, layout }: PostingBlocks): Float32Array {
    if (layout !== this.postingsLayout) {
      this.postingsLayout = layout;
      this.generation++;
    }
    if (term < this.stamp.length && this.stamp[term] === this.generation) return this.saturated;
    this.stamp = ensureLength(this.stamp, term + 1);
    this.saturated = ensureLength(this.saturated, (pool.length >> 1) + 1);
    const { saturated, body, title } = this;
    const { k1 } = this.ranking;
    for (let block = 0; block < count; block++) {
      const to = ranges[2 * block + 1] as number;
      for (let at = ranges[2 * block] as number; at < to; at += 2) {
        const slot = pool[at] as number;
        const packed = pool[at + 1] as number;
        const titleTf = packed >>> 16;
        const tf =
          (packed & 0xffff) * (body[slot] as number) +
          (titleTf === 0 ? 0 : titleTf * (title[slot] as number));
        saturated[at >> 1] = tf / (k1 + tf);
      }
    }
    this.stamp[term] = this.generation;
    return saturated;
  }
}
