import type { IngestResponse, IngestStep } from '../../../shared/agent.js';
import { baseName } from './format.js';

export type SourceState = 'queued' | 'parsing' | 'indexed' | 'unchanged' | 'failed' | 'removed';

/** What the window shows for one source of an ingest. */
export interface SourceProgress {
  /** The source's label as the server names it. */
  source: string;
  name: string;
  state: SourceState;
  page?: number;
  pages?: number;
  title?: string;
  chunks?: number;
  error?: string;
}

function stepOf(event: IngestStep): Partial<SourceProgress> & { state: SourceState } {
  switch (event.type) {
    case 'queued':
      return { state: 'queued' };
    case 'parsing':
      return { state: 'parsing', page: event.page, pages: event.pages };
    case 'indexed':
      return {
        state: 'indexed',
        title: event.title,
        chunks: event.chunks,
        ...(event.pages ? { pages: event.pages } : {}),
      };
    case 'unchanged':
      return { state: 'unchanged' };
    case 'removed':
      return { state: 'removed' };
    case 'failed':
      return { state: 'failed', error: event.error };
  }
}

/** The rows after one progress event: the source's row updated, or added at the end. */
export function applyProgress(rows: readonly SourceProgress[], event: IngestStep): SourceProgress[] {
  const step = stepOf(event);
  const index = rows.findIndex((row) => row.source === event.source);
  if (index === -1) return [...rows, { source: event.source, name: baseName(event.source), ...step }];
  return rows.map((row, i) => (i === index ? { ...row, ...step } : row));
}

/** The rows once the answer is in: every source with its final status, refused ones included. */
export function applyResults(rows: readonly SourceProgress[], response: IngestResponse): SourceProgress[] {
  return response.results.reduce<SourceProgress[]>(
    (current, result) =>
      applyProgress(
        current,
        result.status === 'failed'
          ? { type: 'failed', source: result.source, error: result.error ?? 'failed' }
          : result.status === 'unchanged'
            ? { type: 'unchanged', source: result.source, documentId: result.documentId ?? '' }
            : {
                type: 'indexed',
                source: result.source,
                documentId: result.documentId ?? '',
                title: result.title ?? baseName(result.source),
                chunks: result.chunks ?? 0,
                warnings: [],
                ...(result.pages ? { pages: result.pages } : {}),
              },
      ),
    [...rows],
  );
}

/** How far along a source is, from 0 to 1, for its progress bar. */
export function progressFraction(row: SourceProgress): number {
  if (row.state === 'queued') return 0;
  if (row.state === 'parsing') return row.pages ? (0.9 * (row.page ?? 0)) / row.pages : 0.5;
  return 1;
}

/** The status in plain words. */
export function statusText(row: SourceProgress): string {
  switch (row.state) {
    case 'queued':
      return 'Queued';
    case 'parsing':
      return row.pages ? `Parsing page ${row.page ?? 0} of ${row.pages}` : 'Parsing';
    case 'indexed':
      return `Indexed · ${row.chunks ?? 0} ${row.chunks === 1 ? 'passage' : 'passages'}`;
    case 'unchanged':
      return 'Already indexed, unchanged';
    case 'removed':
      return 'Removed: the file is gone';
    case 'failed':
      return `Failed: ${row.error ?? 'unknown reason'}`;
  }
}

export const isFinished = (row: SourceProgress): boolean => row.state !== 'queued' && row.state !== 'parsing';
