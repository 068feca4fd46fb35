/**
 * The knowledge engine's public surface, for the agent server, the desktop app and the CLI.
 */
export {
  KnowledgeEngine,
  type FolderWatch,
  type IngestOptions,
  type KnowledgeDocument,
  type KnowledgeEngineOptions,
  type NamespaceSummary,
  type SearchOptions,
  type WatchOptions,
} from './engine.js';
export type { IngestEvent } from './ingest/queue.js';
export { detectSource, SourceError, SUPPORTED_EXTENSIONS } from './loaders/index.js';
export { KnowledgeError, type KnowledgeErrorKind } from './store/errors.js';
export { parseNamespace } from './store/layout.js';
export type { SourceInput } from './types.js';
