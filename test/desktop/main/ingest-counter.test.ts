import { describe, expect, it } from 'vitest';
import { IngestCounter } from '../../../desktop/main/ingest-counter.js';

describe('counting the files being indexed', () => {
  it('counts a source from queued until it is indexed, failed or unchanged', () => {
    const seen: number[] = [];
    const counter = new IngestCounter((indexing) => seen.push(indexing));
    const { onProgress } = counter.track();
    onProgress({ type: 'queued', source: 'a.pdf' });
    onProgress({ type: 'queued', source: 'b.md' });
    onProgress({ type: 'parsing', source: 'a.pdf', page: 1, pages: 5 });
    onProgress({ type: 'indexed', source: 'a.pdf', documentId: 'd', title: 'A', chunks: 3, warnings: [] });
    onProgress({ type: 'failed', source: 'b.md', error: 'unreadable' });
    expect(seen).toEqual([1, 2, 1, 0]);
  });

  it('stops counting the sources of an ingest that ended without finishing them', () => {
    const counter = new IngestCounter(() => undefined);
    const tracked = counter.track();
    tracked.onProgress({ type: 'queued', source: 'a.pdf' });
    tracked.done();
    expect(counter.indexing).toBe(0);
  });

  it('passes every event on to the listener that asked for progress', () => {
    const counter = new IngestCounter(() => undefined);
    const forwarded: string[] = [];
    counter.track((event) => forwarded.push(event.type)).onProgress({ type: 'queued', source: 'a.pdf' });
    expect(forwarded).toEqual(['queued']);
  });
});
