import { describe, expect, it } from 'vitest';
import { chunkDocument, documentText } from '../../knowledge/chunker.js';
import type { Chunk, LoadedDocument } from '../../knowledge/types.js';

function markdown(text: string): LoadedDocument {
  return {
    title: 'Guide',
    origin: { kind: 'file', path: '/docs/guide.md' },
    format: 'markdown',
    pages: [{ text }],
    warnings: [],
  };
}

/** Deterministic prose: sentences of varied length, paragraphs of a few sentences. */
function prose(paragraphs: number, seed = 1): string {
  const words = [
    'pump',
    'valve',
    'pressure',
    'gasket',
    'housing',
    'flow',
    'rate',
    'inspection',
    'seal',
    'motor',
    'the',
    'of',
    'and',
    'is',
  ];
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  return Array.from({ length: paragraphs }, () =>
    Array.from({ length: 2 + (next() % 4) }, () => {
      const sentence = Array.from({ length: 6 + (next() % 18) }, () => words[next() % words.length]).join(
        ' ',
      );
      return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
    }).join(' '),
  ).join('\n\n');
}

function expectExactOffsets(doc: LoadedDocument, chunks: Chunk[]): void {
  const text = documentText(doc);
  for (const chunk of chunks) expect(text.slice(chunk.start, chunk.end)).toBe(chunk.text);
}

describe('documentText', () => {
  it('joins pages with the page separator', () => {
    const doc: LoadedDocument = {
      ...markdown(''),
      pages: [
        { page: 1, text: 'one' },
        { page: 2, text: 'two' },
      ],
    };
    expect(documentText(doc)).toBe('one\ftwo');
  });
});

describe('chunkDocument', () => {
  it('gives each chunk the path of headings it sits under', () => {
    const doc = markdown(
      '# Pump guide\n\nIntro text.\n\n## Installation\n\nMount it.\n\n### Wiring\n\nRed to red.\n\n## Maintenance\n\nOil it.',
    );
    const chunks = chunkDocument(doc, 'doc1');
    expect(chunks.map((c) => [c.headingPath, c.text])).toEqual([
      [['Pump guide'], '# Pump guide\n\nIntro text.'],
      [['Pump guide', 'Installation'], '## Installation\n\nMount it.'],
      [['Pump guide', 'Installation', 'Wiring'], '### Wiring\n\nRed to red.'],
      [['Pump guide', 'Maintenance'], '## Maintenance\n\nOil it.'],
    ]);
  });

  it('keeps a heading with nothing under it together with the deeper heading that follows', () => {
    const chunks = chunkDocument(markdown('# Pump guide\n\n## Installation\n\nMount it.'), 'doc1');
    expect(chunks.map((c) => [c.headingPath, c.text])).toEqual([
      [['Pump guide', 'Installation'], '# Pump guide\n\n## Installation\n\nMount it.'],
    ]);
  });

  it('does not take # lines in code fences or in plain text for headings', () => {
    const fenced = chunkDocument(markdown('# Setup\n\n```sh\n# install it\nnpm i\n```'), 'doc1');
    expect(fenced.map((c) => c.headingPath)).toEqual([['Setup']]);
    const plain: LoadedDocument = { ...markdown('# not a heading\n\nText.'), format: 'text' };
    expect(chunkDocument(plain, 'doc2').map((c) => c.headingPath)).toEqual([[]]);
  });

  it('gives chunks of a PDF the number of the page they come from and never crosses a page', () => {
    const doc: LoadedDocument = {
      title: 'Manual',
      origin: { kind: 'file', path: '/docs/manual.pdf' },
      format: 'pdf',
      pages: [
        { page: 1, text: prose(6, 1) },
        { page: 2, text: '' },
        { page: 3, text: prose(6, 3) },
      ],
      warnings: [],
    };
    const chunks = chunkDocument(doc, 'doc1', { maxChars: 300, overlapChars: 50 });
    expect(new Set(chunks.map((c) => c.page))).toEqual(new Set([1, 3]));
    const text = documentText(doc);
    for (const chunk of chunks) expect(text.slice(chunk.start, chunk.end)).not.toContain('\f');
    expectExactOffsets(doc, chunks);
  });

  it('carries a PDF section over its pages and opens a heading ending a page on the next', () => {
    const doc: LoadedDocument = {
      title: 'Manual',
      origin: { kind: 'file', path: '/docs/manual.pdf' },
      format: 'pdf',
      pages: [
        { page: 1, text: '# Valves\n\nValves hold pressure.\n\n## Relief' },
        { page: 2, text: 'The relief valve opens at 8 bar.\n\n## Maintenance\n\nOil it yearly.' },
        { page: 3, text: 'Replace the seal every five years.' },
      ],
      warnings: [],
    };
    const chunks = chunkDocument(doc, 'doc1');
    expect(chunks.map((c) => [c.page, c.headingPath, c.text])).toEqual([
      [1, ['Valves'], '# Valves\n\nValves hold pressure.'],
      [2, ['Valves', 'Relief'], 'The relief valve opens at 8 bar.'],
      [2, ['Valves', 'Maintenance'], '## Maintenance\n\nOil it yearly.'],
      [3, ['Valves', 'Maintenance'], 'Replace the seal every five years.'],
    ]);
    expectExactOffsets(doc, chunks);
  });

  it('has offsets that slice the document text back to each chunk', () => {
    const doc = markdown(`# A\n\n${prose(10, 5)}\n\n## B\n\n${prose(10, 6)}`);
    const chunks = chunkDocument(doc, 'doc1', { maxChars: 400, overlapChars: 80 });
    expect(chunks.length).toBeGreaterThan(5);
    expectExactOffsets(doc, chunks);
  });

  it('keeps chunks within the size limit and at least half of it except at the end of a section', () => {
    const doc: LoadedDocument = { ...markdown(prose(40, 7)), format: 'text' };
    const chunks = chunkDocument(doc, 'doc1', { maxChars: 500, overlapChars: 0 });
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(500);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.text.length).toBeGreaterThanOrEqual(240);
  });

  it('ends chunks at sentence ends or paragraph breaks when the text has them', () => {
    const doc: LoadedDocument = { ...markdown(prose(40, 8)), format: 'text' };
    for (const chunk of chunkDocument(doc, 'doc1', { maxChars: 500, overlapChars: 100 })) {
      expect(chunk.text).toMatch(/\.$/);
    }
  });

  it('repeats up to the overlap of one chunk at the start of the next, from a sentence or word start', () => {
    const doc: LoadedDocument = { ...markdown(prose(40, 9)), format: 'text' };
    const chunks = chunkDocument(doc, 'doc1', { maxChars: 500, overlapChars: 120 });
    const text = documentText(doc);
    for (let i = 1; i < chunks.length; i++) {
      const [previous, chunk] = [chunks[i - 1] as Chunk, chunks[i] as Chunk];
      expect(chunk.start).toBeLessThan(previous.end);
      expect(previous.end - chunk.start).toBeLessThanOrEqual(120);
      expect(text[chunk.start - 1]).toMatch(/\s/);
    }
  });

  it('leaves no text out: every non-space character is in some chunk', () => {
    const doc = markdown(`# A\n\n${prose(15, 10)}\n\n## B\n\n${prose(15, 11)}`);
    const chunks = chunkDocument(doc, 'doc1', { maxChars: 350, overlapChars: 0 });
    const text = documentText(doc);
    const covered = new Uint8Array(text.length);
    for (const chunk of chunks) covered.fill(1, chunk.start, chunk.end);
    const missing = [...text].filter((ch, i) => !covered[i] && /\S/.test(ch));
    expect(missing).toEqual([]);
  });

  it('cuts a text without any space or sentence at the size limit', () => {
    const doc: LoadedDocument = { ...markdown('x'.repeat(1000)), format: 'text' };
    const chunks = chunkDocument(doc, 'doc1', { maxChars: 300, overlapChars: 0 });
    expect(chunks.map((c) => c.text.length)).toEqual([300, 300, 300, 100]);
  });

  it('gives every chunk its id, ordinal, document id, title and source', () => {
    const doc: LoadedDocument = {
      title: 'Remote',
      origin: { kind: 'url', url: 'https://example.com/a' },
      format: 'text',
      pages: [{ text: prose(10, 12) }],
      warnings: [],
    };
    const chunks = chunkDocument(doc, 'd7', { maxChars: 300, overlapChars: 30 });
    chunks.forEach((chunk, i) => {
      expect(chunk).toMatchObject({
        id: `d7#${i}`,
        ordinal: i,
        documentId: 'd7',
        title: 'Remote',
        url: 'https://example.com/a',
      });
      expect(chunk).not.toHaveProperty('path');
      expect(chunk).not.toHaveProperty('page');
    });
    expect(chunkDocument(markdown('Text.'), 'd8')[0]).toMatchObject({ path: '/docs/guide.md' });
  });

  it('refuses sizes that cannot work', () => {
    expect(() => chunkDocument(markdown('x'), 'd', { maxChars: 10 })).toThrow(RangeError);
    expect(() => chunkDocument(markdown('x'), 'd', { maxChars: 500, overlapChars: 300 })).toThrow(RangeError);
  });
});

describe('chunking a table of rows longer than the overlap', () => {
  it('starts the next chunk at the start of a row, so every row is whole in some chunk with its labels', () => {
    const rows = Array.from(
      { length: 12 },
      (_, i) =>
        `Name: type${i} | Storage Size: ${i + 2} bytes | Description: a user-specified precision, exact | ` +
        `Range: up to ${1000 + i} digits before the decimal point; up to ${100 + i} digits after it`,
    );
    const doc: LoadedDocument = {
      ...markdown(`## Numeric Types\n\n${rows.join('\n\n')}`),
      format: 'markdown',
    };
    const chunks = chunkDocument(doc, 'doc1');
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks.slice(1)) expect(chunk.text).toMatch(/^Name: type\d+ \|/);
    for (const row of rows) expect(chunks.some((chunk) => chunk.text.includes(row))).toBe(true);
  });
});
