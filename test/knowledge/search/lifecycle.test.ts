import { describe, expect, it } from 'vitest';
import { createChunkIndex } from '../../../knowledge/search/index.js';
import type { Chunk } from '../../../knowledge/types.js';
import { chunk, documentChunks, fillerChunks } from './support.js';

const documentsFound = (results: { chunk: Chunk }[]) => results.map(({ chunk }) => chunk.documentId);

describe('adding and removing chunks', () => {
  it('counts the chunks it holds', () => {
    const index = createChunkIndex();
    expect(index.size).toBe(0);
    index.add(documentChunks('manual', ['wing loads', 'tail loads']));
    index.add([chunk('notes', 'wing notes')]);
    expect(index.size).toBe(3);
  });

  it('removeDocument removes every chunk of the document and nothing else', () => {
    const index = createChunkIndex();
    index.add(documentChunks('manual', ['wing loads', 'wing flutter', 'wing tips']));
    index.add([chunk('notes', 'wing notes')]);
    index.removeDocument('manual');
    expect(index.size).toBe(1);
    expect(documentsFound(index.search('wing', { onePerDocument: false }))).toEqual(['notes']);
    expect(index.search('flutter')).toEqual([]);
  });

  it('takes a document again after it was removed', () => {
    const index = createChunkIndex();
    index.add(documentChunks('manual', ['wing loads']));
    index.removeDocument('manual');
    index.add(documentChunks('manual', ['tail loads']));
    expect(documentsFound(index.search('tail'))).toEqual(['manual']);
    expect(index.search('wing')).toEqual([]);
  });

  it('keeps the pages of the chunks it moves when it compacts', () => {
    const index = createChunkIndex();
    index.add(documentChunks('old', ['wing notes', 'wing notes', 'wing notes', 'wing notes']));
    index.add(
      documentChunks('manual', ['wing loads', 'wing flutter', 'wing tips']).map((chunk, i) => ({
        ...chunk,
        page: [3, 3, 9][i],
      })),
    );
    // Four of seven slots removed: compacted, the manual's chunks moved down.
    index.removeDocument('old');
    expect(
      index
        .search('wing')
        .map(({ chunk }) => chunk.page)
        .sort(),
    ).toEqual([3, 9]);
  });

  it('treats removing an unknown document as nothing to do', () => {
    const index = createChunkIndex();
    index.add([chunk('notes', 'wing notes')]);
    index.removeDocument('never-added');
    expect(index.size).toBe(1);
  });

  it('ranks the same after many removals compact the index', () => {
    const index = createChunkIndex();
    const kept = [chunk('kept-a', 'wing flutter at transonic speed'), chunk('kept-b', 'wing loads in gusts')];
    const removed = fillerChunks(40).map((filler) => ({ ...filler, text: `${filler.text} wing` }));
    index.add([...removed.slice(0, 20), ...kept, ...removed.slice(20)]);
    for (const { documentId } of removed) index.removeDocument(documentId);

    const fresh = createChunkIndex();
    fresh.add(kept);
    expect(index.size).toBe(2);
    expect(index.search('wing flutter')).toEqual(fresh.search('wing flutter'));
  });

  it('scores as a fresh index does when chunks come and go between searches', () => {
    const first = [chunk('short', 'wing flutter'), chunk('long', `wing ${fillerChunks(1)[0]?.text} flutter`)];
    const later = fillerChunks(12).map((filler) => ({
      ...filler,
      text: `${filler.text} ${filler.text} wing`,
    }));
    const index = createChunkIndex();
    index.add(first);
    // Searched before each change, so whatever it keeps per term was computed for the earlier index.
    index.search('wing flutter');
    index.add(later);
    index.search('wing flutter');
    index.removeDocument(later[0]?.documentId as string);

    const fresh = createChunkIndex();
    fresh.add([...first, ...later.slice(1)]);
    expect(index.search('wing flutter', { limit: 20 })).toEqual(fresh.search('wing flutter', { limit: 20 }));
  });

  it('refuses a chunk whose id is already indexed, and keeps the rest of that batch out', () => {
    const index = createChunkIndex();
    index.add([chunk('manual', 'wing loads')]);
    expect(() => index.add([chunk('other', 'tail loads'), chunk('manual', 'wing again')])).toThrow(
      'chunk "manual#0" is already in the index; remove its document first',
    );
    expect(index.size).toBe(1);
    expect(index.search('tail')).toEqual([]);
  });

  it('refuses a malformed chunk, naming the field', () => {
    const index = createChunkIndex();
    const broken = { ...chunk('manual', 'wing'), text: 42 } as unknown as Chunk;
    expect(() => index.add([chunk('ok', 'tail'), broken])).toThrow(/chunks\[1\]\.text/);
    expect(index.size).toBe(0);
  });

  it('refuses a query or document id that is not a string', () => {
    const index = createChunkIndex();
    expect(() => index.search(7 as unknown as string)).toThrow('search: the query must be a string');
    expect(() => index.removeDocument(undefined as unknown as string)).toThrow(/documentId must be a string/);
  });

  it('refuses settings out of range, naming the setting', () => {
    expect(() => createChunkIndex({ ranking: { k1: -1 } })).toThrow(/ranking\.k1/);
    expect(() => createChunkIndex({ ranking: { feedback: { originalQueryWeight: 2 } } })).toThrow(
      /ranking\.feedback\.originalQueryWeight/,
    );
  });
});
