import { describe, expect, it } from 'vitest';
import {
  applyProgress,
  applyResults,
  progressFraction,
  statusText,
  type SourceProgress,
} from '../../../desktop/renderer/lib/ingest-progress.js';

const source = 'uploads/manuals/rotor.pdf';

describe('ingest progress rows', () => {
  it('adds a row named by the file when a source is queued', () => {
    const rows = applyProgress([], { type: 'queued', source });
    expect(rows).toEqual([{ source, name: 'rotor.pdf', state: 'queued' }]);
    expect(statusText(rows[0]!)).toBe('Queued');
  });

  it('follows a source through its pages to indexed', () => {
    let rows: SourceProgress[] = applyProgress([], { type: 'queued', source });
    rows = applyProgress(rows, { type: 'parsing', source, page: 3, pages: 5 });
    expect(statusText(rows[0]!)).toBe('Parsing page 3 of 5');
    expect(progressFraction(rows[0]!)).toBeCloseTo(0.54);
    rows = applyProgress(rows, {
      type: 'indexed',
      source,
      documentId: 'd1',
      title: 'Rotor',
      chunks: 7,
      pages: 5,
      warnings: [],
    });
    expect(rows).toHaveLength(1);
    expect(statusText(rows[0]!)).toBe('Indexed · 7 passages');
    expect(progressFraction(rows[0]!)).toBe(1);
  });

  it('says why a source failed', () => {
    const rows = applyProgress([], { type: 'failed', source, error: 'no extractable text — scanned PDF?' });
    expect(statusText(rows[0]!)).toBe('Failed: no extractable text — scanned PDF?');
  });

  it('takes the final status of every source from the answer, sources refused before queuing too', () => {
    const queued = applyProgress([], { type: 'queued', source });
    const rows = applyResults(queued, {
      namespace: 'manuals',
      results: [
        { source, status: 'indexed', documentId: 'd1', title: 'Rotor', chunks: 4 },
        { source: '/etc/passwd', status: 'failed', error: 'outside the folders this agent may read' },
      ],
    });
    expect(rows.map(statusText)).toEqual([
      'Indexed · 4 passages',
      'Failed: outside the folders this agent may read',
    ]);
  });
});
