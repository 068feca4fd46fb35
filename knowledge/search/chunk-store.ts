import { count, create, getByID, insert, remove, search } from '@orama/orama';
import type { Chunk } from '../types.js';

/**
 * The chunks themselves, kept by Orama: it stores the documents and filters them by documentId
 * (an `enum` field: exact match, no tokenizing). Its full-text index is not used: ranking needs
 * term frequencies that Orama's tokenizer does not keep (see inverted-index.ts). Snapshots hold
 * the chunks as columns (chunk-columns.ts) rather than Orama's `save()` JSON, which is slow to write.
 */

const schema = { documentId: 'enum' } as const;

function createDatabase() {
  return create({ schema });
}

type ChunkDatabase = ReturnType<typeof createDatabase>;

/** Orama returns promises only when a plugin or component is asynchronous; this store has none. */
function synchronous<T>(value: T | Promise<T>): T {
  if (value instanceof Promise)
    throw new Error('Orama answered asynchronously; the chunk store expects no async plugins');
  return value;
}

export class ChunkStore {
  private constructor(private readonly db: ChunkDatabase) {}

  static empty(): ChunkStore {
    return new ChunkStore(createDatabase());
  }

  /** A store holding these chunk objects themselves: for chunks no caller holds (restored, moved). */
  static adopting(chunks: Iterable<Chunk>): ChunkStore {
    const store = ChunkStore.empty();
    for (const chunk of chunks) synchronous(insert(store.db, chunk));
    return store;
  }

  get size(): number {
    return count(this.db);
  }

  add(chunk: Chunk): void {
    synchronous(insert(this.db, storedChunk(chunk)));
  }

  /** A copy of the stored chunk, so callers cannot change what the index holds. */
  get(chunkId: string): Chunk | undefined {
    const stored = getByID(this.db, chunkId) as Chunk | undefined;
    return stored === undefined ? undefined : storedChunk(stored);
  }

  chunkIdsOf(documentId: string): string[] {
    const results = synchronous(
      search(this.db, { where: { documentId: { eq: documentId } }, limit: this.size }),
    );
    return results.hits.map((hit) => hit.id);
  }

  remove(chunkId: string): void {
    synchronous(remove(this.db, chunkId));
  }

  /** A fresh store with the same chunks: Orama keeps the ids of removed documents, this drops them. */
  compacted(): ChunkStore {
    const all = synchronous(search(this.db, { limit: this.size }));
    return ChunkStore.adopting(all.hits.map((hit) => hit.document as unknown as Chunk));
  }
}

/** Exactly the Chunk fields, with absent optional ones left out (Orama stores what it is given). */
function storedChunk(chunk: Chunk): Chunk {
  const stored: Chunk = {
    id: chunk.id,
    documentId: chunk.documentId,
    ordinal: chunk.ordinal,
    text: chunk.text,
    title: chunk.title,
    headingPath: [...chunk.headingPath],
    start: chunk.start,
    end: chunk.end,
  };
  if (chunk.page !== undefined) stored.page = chunk.page;
  if (chunk.path !== undefined) stored.path = chunk.path;
  if (chunk.url !== undefined) stored.url = chunk.url;
  return stored;
}
