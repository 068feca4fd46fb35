import type { IngestedSource, SearchHit } from '../../shared/agent.js';
import type { KnowledgeDocument, NamespaceSummary } from '../engine.js';
import type { IngestEvent } from '../ingest/queue.js';
import type { SourceInput } from '../types.js';

/** The engine methods the server calls; `KnowledgeEngine` satisfies it. */
export interface KnowledgeBackend {
  ingest(
    namespace: string,
    sources: readonly SourceInput[],
    options?: { onProgress?: (event: IngestEvent) => void },
  ): Promise<IngestedSource[]>;
  search(
    namespace: string,
    query: string,
    options: { limit: number; snippets?: boolean; onePerDocument?: boolean },
  ): Promise<SearchHit[]>;
  namespaces(): Promise<NamespaceSummary[]>;
  documents(namespace: string): Promise<KnowledgeDocument[]>;
  documentText(namespace: string, documentId: string): Promise<string>;
  removeDocument(namespace: string, documentId: string): Promise<boolean>;
  deleteNamespace(namespace: string): Promise<boolean>;
}
