import type { IngestedSource, SearchHit } from '../../shared/agent.js';
import type { SourceInput } from '../types.js';

/** The few engine methods the server calls; `KnowledgeEngine` satisfies it. */
export interface KnowledgeBackend {
  ingest(namespace: string, sources: readonly SourceInput[]): Promise<IngestedSource[]>;
  search(namespace: string, query: string, options: { limit: number }): Promise<SearchHit[]>;
}
