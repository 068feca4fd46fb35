import { access, stat } from 'node:fs/promises';
import type { IngestedSource } from '../../shared/agent.js';
import type { ManifestEntry } from '../store/manifest.js';
import type { NamespaceStore } from '../store/namespace-store.js';
import type { ParsePool } from './pool.js';
import type { ParseJob } from './protocol.js';
import { isInside, type PlannedSource, type SourcePlan } from './sources.js';

/** Progress of an ingest, one event per step of each source. `source` is the source's label. */
export type IngestEvent =
  | { type: 'queued'; source: string }
  | { type: 'parsing'; source: string; page: number; pages: number }
  | {
      type: 'indexed';
      source: string;
      documentId: string;
      title: string;
      pages?: number;
      chunks: number;
      warnings: string[];
    }
  | { type: 'unchanged'; source: string; documentId: string }
  | { type: 'removed'; source: string; documentId: string }
  | { type: 'failed'; source: string; error: string };

export interface IngestContext {
  store: NamespaceStore;
  pool: ParsePool;
  load: ParseJob['load'];
  onProgress: (event: IngestEvent) => void;
}

/**
 * Runs a plan against a namespace: every source is parsed in the worker pool and stored as it
 * arrives, commits happen in the background while the queue drains, and the last one before this
 * resolves. Files that vanished from an expanded folder are removed. Per-source problems become
 * `failed` results, never exceptions. The store must already be open for writing.
 */
export async function ingestPlan(context: IngestContext, plan: SourcePlan): Promise<IngestedSource[]> {
  for (const source of [...plan.refused, ...plan.sources])
    context.onProgress({ type: 'queued', source: source.label });
  const refused = plan.refused.map((source): IngestedSource => {
    context.onProgress({ type: 'failed', source: source.label, error: source.error });
    return { source: source.label, status: 'failed', error: source.error };
  });
  const results: IngestedSource[] = [];
  // Twice the workers: the next source's checks run while a worker parses.
  await forEachConcurrently(plan.sources, context.pool.size * 2, async (source, index) => {
    results[index] = await context.store.exclusive(source.documentId, () => ingestSource(context, source));
  });
  await removeVanishedFiles(context, plan);
  await context.store.flush();
  return [...refused, ...results];
}

async function ingestSource(context: IngestContext, source: PlannedSource): Promise<IngestedSource> {
  const { store, onProgress } = context;
  const { documentId, label } = source;
  try {
    const previous = store.entry(documentId);
    // A raw text's id is the hash of the text, so a stored one is the same text.
    if (previous && (source.input.kind === 'text' || (await fileLooksUnchanged(source, previous)))) {
      return unchanged(context, source, previous);
    }
    const outcome = await context.pool.run(
      { input: source.input, documentId, previousHash: previous?.contentHash, load: context.load },
      (page, pages) => onProgress({ type: 'parsing', source: label, page, pages }),
    );
    if (outcome.status === 'unchanged' && previous) {
      if (outcome.mtimeMs !== previous.mtimeMs) await store.touch(documentId, { mtimeMs: outcome.mtimeMs });
      return unchanged(context, source, previous);
    }
    if (outcome.status === 'unchanged')
      throw new Error('the parser reported an unknown version as unchanged');
    if (outcome.chunks.length === 0) {
      const why = outcome.warnings.length > 0 ? `: ${outcome.warnings.join('; ')}` : '';
      throw new Error(`no text could be extracted${why}`);
    }
    const { input } = source;
    await store.put({
      entry: {
        documentId,
        source: label,
        kind: input.kind,
        ...(input.kind === 'file' ? { path: input.path, mtimeMs: outcome.mtimeMs } : {}),
        ...(input.kind === 'url' ? { url: input.url } : {}),
        title: outcome.title,
        format: outcome.format,
        contentHash: outcome.contentHash,
        size: outcome.size,
        ...(outcome.pageNumbers ? { pageNumbers: outcome.pageNumbers } : {}),
        chunks: outcome.chunks.length,
        ingestedAt: new Date().toISOString(),
        warnings: outcome.warnings,
      },
      text: outcome.text,
      chunks: outcome.chunks,
    });
    store.requestCommit();
    const pages = outcome.pageNumbers?.length;
    const chunks = outcome.chunks.length;
    onProgress({
      type: 'indexed',
      source: label,
      documentId,
      title: outcome.title,
      pages,
      chunks,
      warnings: outcome.warnings,
    });
    return {
      source: label,
      status: 'indexed',
      documentId,
      title: outcome.title,
      ...(pages ? { pages } : {}),
      chunks,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    onProgress({ type: 'failed', source: label, error: message });
    return { source: label, status: 'failed', documentId, error: message };
  }
}

/** Same size and modification time as the stored version: not worth reading again. */
async function fileLooksUnchanged(source: PlannedSource, previous: ManifestEntry): Promise<boolean> {
  if (source.input.kind !== 'file' || previous.mtimeMs === undefined) return false;
  const stats = await stat(source.input.path);
  return stats.size === previous.size && stats.mtimeMs === previous.mtimeMs;
}

function unchanged(context: IngestContext, source: PlannedSource, previous: ManifestEntry): IngestedSource {
  context.onProgress({ type: 'unchanged', source: source.label, documentId: source.documentId });
  const pages = previous.pageNumbers?.length;
  return {
    source: source.label,
    status: 'unchanged',
    documentId: source.documentId,
    title: previous.title,
    ...(pages ? { pages } : {}),
    chunks: previous.chunks,
  };
}

async function removeVanishedFiles(context: IngestContext, plan: SourcePlan): Promise<void> {
  if (plan.folders.length === 0) return;
  const planned = new Set(plan.sources.map((source) => source.documentId));
  for (const entry of context.store.documents()) {
    const { path } = entry;
    if (path === undefined || planned.has(entry.documentId)) continue;
    if (!plan.folders.some((folder) => isInside(folder, path)) || (await exists(path))) continue;
    const removed = await context.store.exclusive(entry.documentId, () =>
      context.store.remove(entry.documentId),
    );
    if (removed) {
      context.onProgress({ type: 'removed', source: entry.source, documentId: entry.documentId });
    }
  }
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const runner = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
}
