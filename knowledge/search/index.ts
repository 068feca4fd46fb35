/**
 * The knowledge index: one per namespace. Orama holds the chunks; ranking is BM25F with a
 * proximity bonus and RM3 feedback over term frequencies this folder owns.
 */
import type { ChunkIndex } from '../types.js';
import { SearchIndex, createSearchIndex } from './chunk-index.js';
import type { IndexSettingsInput, RankingSettings } from './settings.js';

export function createChunkIndex(settings?: IndexSettingsInput): ChunkIndex {
  return createSearchIndex(settings);
}

/**
 * Restores an index with the tokenizer and settings it was built with, or with `ranking` in place of
 * its ranking settings; refuses an unknown format version.
 */
export function restoreChunkIndex(snapshot: Uint8Array, ranking?: RankingSettings): ChunkIndex {
  return SearchIndex.restore(snapshot, ranking);
}

export { SearchIndex, type ChunkSearchOptions } from './chunk-index.js';
export { makeSnippet } from './snippet.js';
export {
  DEFAULT_SETTINGS,
  PLAIN_BM25_SETTINGS,
  type IndexSettings,
  type IndexSettingsInput,
} from './settings.js';
export { SNAPSHOT_FORMAT_VERSION, SnapshotError } from './snapshot.js';
export { createTokenizer, type Tokenizer } from './tokenizer.js';
