import { ensureLength } from './growable.js';
import type { InvertedIndex } from './inverted-index.js';
import type { RankingSettings } from './settings.js';

/**
 * Per-slot BM25F length normalisation, 1 / (1 - b + b·length/average) for the body and the same
 * times the title weight for the title, kept between queries and recomputed only after the index
 * changed: the scoring loop then multiplies where it would divide twice per posting. Removed slots
 * get 0, so their postings (kept until compaction) score nothing.
 */
export class FieldNorms {
  // 32 bits are plenty for a length ratio and halve what the scoring loop pulls through the cache.
  body = new Float32Array(256);
  title = new Float32Array(256);
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
  }
}
