import type { IngestEvent } from '../../knowledge/index.js';
import type { KnowledgeBackend } from '../../knowledge/server/index.js';

/**
 * Counts the sources being ingested right now, from the engine's progress events, for the tray's
 * "indexing n files". Every ingest goes through `track`, whether the window asked for progress
 * or a watched folder changed.
 */
export class IngestCounter {
  private readonly active = new Map<string, number>();
  private reported = 0;

  constructor(private readonly onChange: (indexing: number) => void) {}

  get indexing(): number {
    return this.active.size;
  }

  /** A progress listener that counts, then passes each event on. */
  track(forward?: (event: IngestEvent) => void): {
    onProgress: (event: IngestEvent) => void;
    done: () => void;
  } {
    const mine = new Set<string>();
    return {
      onProgress: (event) => {
        const key = event.source;
        if (event.type === 'queued' || event.type === 'parsing') {
          if (!mine.has(key)) this.active.set(key, (this.active.get(key) ?? 0) + 1);
          mine.add(key);
        } else if (mine.delete(key)) this.release(key);
        this.changed();
        forward?.(event);
      },
      // An ingest that threw may leave sources it never finished: they stop counting here.
      done: () => {
        for (const key of mine) this.release(key);
        mine.clear();
        this.changed();
      },
    };
  }

  /** The backend with every ingest counted. */
  countIngests(backend: KnowledgeBackend): KnowledgeBackend {
    return {
      ingest: async (namespace, sources, options = {}) => {
        const tracked = this.track(options.onProgress);
        try {
          return await backend.ingest(namespace, sources, { onProgress: tracked.onProgress });
        } finally {
          tracked.done();
        }
      },
      search: (namespace, query, options) => backend.search(namespace, query, options),
      namespaces: () => backend.namespaces(),
      documents: (namespace) => backend.documents(namespace),
      documentText: (namespace, documentId) => backend.documentText(namespace, documentId),
      removeDocument: (namespace, documentId) => backend.removeDocument(namespace, documentId),
      deleteNamespace: (namespace) => backend.deleteNamespace(namespace),
    };
  }

  private release(key: string): void {
    const count = (this.active.get(key) ?? 1) - 1;
    if (count > 0) this.active.set(key, count);
    else this.active.delete(key);
  }

  private changed(): void {
    if (this.indexing === this.reported) return;
    this.reported = this.indexing;
    this.onChange(this.indexing);
  }
}
