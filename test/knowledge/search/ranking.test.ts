import { describe, expect, it } from 'vitest';
import { createChunkIndex, PLAIN_BM25_SETTINGS } from '../../../knowledge/search/index.js';
import type { ChunkIndex } from '../../../knowledge/types.js';
import { chunk, documentChunks, fillerChunks } from './support.js';

function indexOf(...chunks: ReturnType<typeof chunk>[]): ChunkIndex {
  const index = createChunkIndex();
  index.add([...chunks, ...fillerChunks(20)]);
  return index;
}

const ranked = (index: ChunkIndex, query: string) => index.search(query).map(({ chunk }) => chunk.documentId);

describe('ranking', () => {
  it('ranks a chunk that repeats the query term above one that has it once', () => {
    const index = indexOf(
      chunk('once', 'wing harbour ledger anchor'),
      chunk('thrice', 'wing wing wing anchor'),
    );
    expect(ranked(index, 'wing')).toEqual(['thrice', 'once']);
  });

  it('ranks a rare query term above a common one', () => {
    const common = Array.from({ length: 10 }, (_, i) =>
      chunk(`common-${i}`, `wing ledger anchor beacon ${i}`),
    );
    const index = indexOf(...common, chunk('rare', 'flutter ledger anchor beacon'));
    expect(ranked(index, 'wing flutter')[0]).toBe('rare');
  });

  it('ranks the shorter chunk first when both have the term equally often', () => {
    const index = indexOf(
      chunk('long', 'wing harbour ledger anchor beacon current estuary ferry'),
      chunk('short', 'wing harbour'),
    );
    expect(ranked(index, 'wing')).toEqual(['short', 'long']);
  });

  it('ranks by the same basics with plain BM25 settings', () => {
    const index = createChunkIndex(PLAIN_BM25_SETTINGS);
    index.add([
      chunk('once', 'wing harbour ledger anchor'),
      chunk('thrice', 'wing wing wing anchor'),
      ...fillerChunks(5),
    ]);
    expect(ranked(index, 'wing')).toEqual(['thrice', 'once']);
  });

  it('weights a title match above the same word in the body', () => {
    const index = indexOf(
      chunk('body', 'flutter of a panel in supersonic flow', { title: 'Panel studies' }),
      chunk('title', 'vibration of a panel in supersonic flow', { title: 'Flutter' }),
    );
    expect(ranked(index, 'flutter')[0]).toBe('title');
  });

  it('counts a title once when the first heading repeats it', () => {
    const index = indexOf(
      chunk('heading', 'vibration of a panel', { title: 'Flutter', headingPath: ['Flutter'] }),
      chunk('plain', 'vibration of a panel', { title: 'Flutter' }),
    );
    const [first, second] = index.search('flutter panel');
    expect(first?.score).toBe(second?.score);
  });

  it('expands the query with feedback terms only after a confident first pass', () => {
    const chunks = [
      chunk('close', 'wing beacon beacon beacon harbour'),
      chunk('short', 'wing keel'),
      chunk('elsewhere', 'flutter jetty gale'),
      ...fillerChunks(20),
    ];
    const scores = (feedback: { minConfidence: number } | null) => {
      const index = createChunkIndex({ ranking: { feedback } });
      index.add(chunks);
      return index.search('wing flutter', { limit: 3 }).map(({ chunk, score }) => [chunk.id, score]);
    };
    // The best chunk holds "wing" but not "flutter": well under 90 % of what both terms could score.
    expect(scores({ minConfidence: 0.9 })).toEqual(scores(null));
    expect(scores({ minConfidence: 0 })).not.toEqual(scores(null));
  });

  it('ranks chunks where the query words stand together above ones where they are far apart', () => {
    const index = indexOf(
      chunk('apart', 'boundary harbour ledger anchor beacon current estuary ferry gale jetty layer'),
      chunk('together', 'harbour ledger anchor beacon current estuary ferry gale boundary layer jetty'),
    );
    expect(ranked(index, 'boundary layer')[0]).toBe('together');
  });

  it('finds a word by another form of it (stemming)', () => {
    const index = indexOf(chunk('aero', 'the aerodynamics of slender wings'));
    expect(ranked(index, 'aerodynamic')).toEqual(['aero']);
  });

  it('ignores stop words in the query', () => {
    const index = indexOf(chunk('stops', 'the of and the of and wing'), chunk('wing', 'wing harbour ledger'));
    expect(ranked(index, 'the wing of the')).toEqual(ranked(index, 'wing'));
  });

  it('finds "Müller" as "Muller" and "Muller" as "Müller"', () => {
    const index = indexOf(
      chunk('umlaut', 'a report by Müller on jets'),
      chunk('plain', 'a report by Muller on gales'),
    );
    expect(ranked(index, 'Muller').sort()).toEqual(['plain', 'umlaut']);
    expect(ranked(index, 'Müller').sort()).toEqual(['plain', 'umlaut']);
  });

  it('finds "東京" inside "東京都に住んでいます"', () => {
    const index = indexOf(chunk('tokyo', '東京都に住んでいます'), chunk('osaka', '大阪府に住んでいます'));
    expect(ranked(index, '東京')).toEqual(['tokyo']);
  });

  it('returns no results, without throwing, for an empty query or one of stop words only', () => {
    const index = indexOf(chunk('wing', 'the wing of the aircraft'));
    expect(index.search('')).toEqual([]);
    expect(index.search('   ')).toEqual([]);
    expect(index.search('the of and what is')).toEqual([]);
  });

  it('keeps the rarest words of a query of hundreds of words', () => {
    const commonWords = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const index = createChunkIndex();
    index.add([
      ...Array.from({ length: 40 }, (_, i) => chunk(`common-${i}`, commonWords)),
      chunk('flutter', 'panel flutter at supersonic speed'),
    ]);
    const found = index.search(`${commonWords} flutter`, { limit: 100 }).map(({ chunk }) => chunk.documentId);
    expect(found).toContain('flutter');
  });

  it('returns no results for words the index has never seen', () => {
    expect(indexOf(chunk('wing', 'wing')).search('zeppelin')).toEqual([]);
  });

  it('returns each document once by default, with its best chunk', () => {
    const index = indexOf(
      ...documentChunks('manual', ['wing harbour ledger anchor', 'wing wing wing anchor', 'wing ledger']),
      chunk('other', 'wing harbour ledger anchor beacon current'),
    );
    const results = index.search('wing');
    expect(results.map(({ chunk }) => chunk.id)).toEqual(['manual#1', 'other#0']);
  });

  it('scores a document by its best chunk, not by how many chunks mention the query', () => {
    const index = indexOf(
      ...documentChunks('long-manual', [
        'wing harbour ledger anchor beacon current',
        'wing estuary ferry gale jetty keel',
        'wing harbour anchor current ferry jetty',
      ]),
      chunk('note', 'wing wing harbour ledger anchor beacon'),
    );
    const results = index.search('wing');
    expect(results.map(({ chunk }) => chunk.documentId)).toEqual(['note', 'long-manual']);
  });

  it('returns several chunks of one document when onePerDocument is false', () => {
    const index = indexOf(...documentChunks('manual', ['wing harbour', 'wing wing anchor', 'wing ledger']));
    const ids = index.search('wing', { onePerDocument: false }).map(({ chunk }) => chunk.id);
    expect(ids.sort()).toEqual(['manual#0', 'manual#1', 'manual#2']);
  });

  it('returns the best chunk of each page of a document with pages, as of documents', () => {
    // A manual in one PDF: two chunks on page 12, one on page 40.
    const pages = [12, 12, 40];
    const manual = documentChunks('manual', ['wing wing harbour', 'wing ledger anchor', 'wing beacon']).map(
      (chunk, i) => ({ ...chunk, page: pages[i] }),
    );
    const index = indexOf(...manual, chunk('note', 'wing current estuary ferry'));
    const found = index
      .search('wing', { limit: 5 })
      .map(({ chunk }) => `${chunk.documentId}:${chunk.page ?? '-'}`);
    expect(found.sort()).toEqual(['manual:12', 'manual:40', 'note:-']);
  });

  it('finds the best chunk of each document even when one document fills the re-ranked depth', () => {
    const manyChunks = Array.from({ length: 150 }, (_, i) => `wing wing harbour ${i}`);
    const index = indexOf(
      ...documentChunks('big', manyChunks),
      chunk('small', 'wing harbour ledger anchor beacon'),
    );
    expect(index.search('wing', { limit: 2 }).map(({ chunk }) => chunk.documentId)).toEqual(['big', 'small']);
  });

  it('returns at most `limit` results, best first, with positive scores', () => {
    const index = indexOf(
      ...Array.from({ length: 30 }, (_, i) => chunk(`d${i}`, `wing ${'harbour '.repeat(i)}`)),
    );
    const results = index.search('wing', { limit: 5 });
    expect(results).toHaveLength(5);
    const scores = results.map(({ score }) => score);
    expect(scores.every((score) => score > 0)).toBe(true);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
  });

  it('refuses a limit that is not a whole number from 1 to 1000', () => {
    const index = indexOf(chunk('wing', 'wing'));
    expect(() => index.search('wing', { limit: 0 })).toThrow(
      /limit must be a whole number from 1 to 1000, not 0/,
    );
    expect(() => index.search('wing', { limit: 2.5 })).toThrow(/limit/);
  });

  it('returns the stored chunk with its source fields', () => {
    const index = indexOf(
      chunk('guide', 'wing loading tables', {
        title: 'Guide',
        headingPath: ['Design', 'Loads'],
        page: 3,
        path: '/docs/guide.pdf',
        start: 10,
        end: 29,
      }),
    );
    expect(index.search('wing')[0]?.chunk).toEqual({
      id: 'guide#0',
      documentId: 'guide',
      ordinal: 0,
      text: 'wing loading tables',
      title: 'Guide',
      headingPath: ['Design', 'Loads'],
      page: 3,
      path: '/docs/guide.pdf',
      start: 10,
      end: 29,
    });
  });
});
