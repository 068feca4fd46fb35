import { describe, expect, it } from 'vitest';
import {
  createChunkIndex,
  DEFAULT_SETTINGS,
  PLAIN_BM25_SETTINGS,
  restoreChunkIndex,
  type SearchIndex,
  SNAPSHOT_FORMAT_VERSION,
  SnapshotError,
} from '../../../knowledge/search/index.js';
import { chunk, documentChunks, fillerChunks } from './support.js';

const queries = ['wing flutter', 'Müller', '東京', 'boundary layer transition', 'loads'];

function sampleChunks() {
  return [
    ...documentChunks(
      'manual',
      ['wing flutter at transonic speed', 'boundary layer transition on the wing'],
      {
        title: 'Flutter manual',
        headingPath: ['Aeroelasticity'],
        path: '/docs/manual.pdf',
        page: 4,
      },
    ),
    chunk('report', 'a report by Müller on wing loads', { url: 'https://example.com/report' }),
    chunk('tokyo', '東京都に住んでいます'),
    ...fillerChunks(10),
  ];
}

describe('snapshots', () => {
  it('restore to an index that gives the same results', () => {
    const index = createChunkIndex();
    index.add(sampleChunks());
    const restored = restoreChunkIndex(index.snapshot());
    expect(restored.size).toBe(index.size);
    for (const query of queries) {
      expect(restored.search(query, { limit: 20, onePerDocument: false })).toEqual(
        index.search(query, { limit: 20, onePerDocument: false }),
      );
    }
  });

  it('restore an index that keeps one result per page of a PDF', () => {
    const index = createChunkIndex();
    index.add([
      ...documentChunks('manual', ['wing loads', 'wing flutter', 'wing tips']).map((chunk, i) => ({
        ...chunk,
        page: [3, 3, 9][i],
      })),
      ...fillerChunks(10),
    ]);
    const restored = restoreChunkIndex(index.snapshot());
    expect(
      restored
        .search('wing')
        .map(({ chunk }) => chunk.page)
        .sort(),
    ).toEqual([3, 9]);
    expect(restored.search('wing')).toEqual(index.search('wing'));
  });

  it('restore the settings the index was built with', () => {
    const index = createChunkIndex(PLAIN_BM25_SETTINGS);
    index.add(sampleChunks());
    const restored = restoreChunkIndex(index.snapshot()) as SearchIndex;
    expect(restored.settings).toEqual(PLAIN_BM25_SETTINGS);
    expect(restored.search('wing loads')).toEqual(index.search('wing loads'));
  });

  it('restore with other ranking settings when given, keeping the tokenizer and fields', () => {
    const index = createChunkIndex(PLAIN_BM25_SETTINGS);
    index.add(sampleChunks());
    const ranking = { ...DEFAULT_SETTINGS.ranking, k1: 2 };
    const restored = restoreChunkIndex(index.snapshot(), ranking) as SearchIndex;
    expect(restored.settings).toEqual({ ...PLAIN_BM25_SETTINGS, ranking });
    const rebuilt = createChunkIndex({ ...PLAIN_BM25_SETTINGS, ranking });
    rebuilt.add(sampleChunks());
    expect(restored.search('wing flutter', { onePerDocument: false })).toEqual(
      rebuilt.search('wing flutter', { onePerDocument: false }),
    );
  });

  it('restore an index that keeps working: adding, removing, snapshotting again', () => {
    const index = createChunkIndex();
    index.add(sampleChunks());
    index.removeDocument('report');
    const restored = restoreChunkIndex(index.snapshot());
    restored.add([chunk('late', 'late note on wing flutter')]);
    restored.removeDocument('manual');
    const again = restoreChunkIndex(restored.snapshot());
    expect(again.size).toBe(index.size - 2 + 1);
    expect(again.search('flutter').map(({ chunk }) => chunk.documentId)).toEqual(['late']);
    expect(again.search('Müller')).toEqual([]);
  });

  it('restore chunk texts exactly, in any script and across many chunks', () => {
    const texts = Array.from(
      { length: 150 },
      (_, i) => `chunk ${i}: Grüße 東京 𝔘nicode 😀 ${'x'.repeat(i)} ภาษาไทย`,
    );
    const index = createChunkIndex();
    index.add(documentChunks('mixed', texts));
    const restored = restoreChunkIndex(index.snapshot());
    const found = restored.search('chunk', { limit: 1000, onePerDocument: false });
    expect(found.map(({ chunk }) => chunk.text).sort()).toEqual([...texts].sort());
  });

  it('round-trip an empty index', () => {
    const restored = restoreChunkIndex(createChunkIndex().snapshot());
    expect(restored.size).toBe(0);
    expect(restored.search('wing')).toEqual([]);
  });

  it('refuse a snapshot of an unknown format version', () => {
    const bytes = createChunkIndex().snapshot();
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(4, SNAPSHOT_FORMAT_VERSION + 1, true);
    expect(() => restoreChunkIndex(bytes)).toThrow(SnapshotError);
    expect(() => restoreChunkIndex(bytes)).toThrow(
      `index snapshot format version ${SNAPSHOT_FORMAT_VERSION + 1} is not supported`,
    );
  });

  it('refuse bytes that are not a snapshot', () => {
    expect(() => restoreChunkIndex(new TextEncoder().encode('{"docs": []}'))).toThrow(
      'not a Parley index snapshot (the PKIX magic number is missing)',
    );
  });

  it('refuse a truncated snapshot', () => {
    const index = createChunkIndex();
    index.add(sampleChunks());
    const bytes = index.snapshot();
    expect(() => restoreChunkIndex(bytes.subarray(0, bytes.length - 100))).toThrow(SnapshotError);
  });

  it('refuse a snapshot whose contents were damaged', () => {
    const index = createChunkIndex();
    index.add(sampleChunks());
    const bytes = index.snapshot();
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] as number) ^ 0xff;
    expect(() => restoreChunkIndex(bytes)).toThrow(
      'index snapshot is damaged: its checksum does not match its contents',
    );
  });

  it('restore from a Node Buffer that shares its memory with other data', () => {
    const index = createChunkIndex();
    index.add(sampleChunks());
    const snapshot = index.snapshot();
    const shared = Buffer.alloc(snapshot.length + 3);
    shared.set(snapshot, 3);
    const restored = restoreChunkIndex(shared.subarray(3));
    expect(restored.search('wing flutter')).toEqual(index.search('wing flutter'));
  });
});
