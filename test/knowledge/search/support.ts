import type { Chunk } from '../../../knowledge/types.js';

/** A chunk with only what a ranking test cares about; the rest as the chunker would set it. */
export function chunk(documentId: string, text: string, fields: Partial<Chunk> = {}): Chunk {
  const ordinal = fields.ordinal ?? 0;
  return {
    id: `${documentId}#${ordinal}`,
    documentId,
    ordinal,
    text,
    title: '',
    headingPath: [],
    start: 0,
    end: text.length,
    ...fields,
  };
}

/** Chunks of one document, numbered in order. */
export function documentChunks(documentId: string, texts: string[], fields: Partial<Chunk> = {}): Chunk[] {
  return texts.map((text, ordinal) => chunk(documentId, text, { ...fields, ordinal }));
}

/** Filler that shares no term with the tests' queries, so documents have realistic company. */
export function fillerChunks(count: number): Chunk[] {
  const words = [
    'harbour',
    'ledger',
    'anchor',
    'beacon',
    'current',
    'estuary',
    'ferry',
    'gale',
    'jetty',
    'keel',
  ];
  return Array.from({ length: count }, (_, i) =>
    chunk(
      `filler-${i}`,
      Array.from({ length: 12 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' '),
    ),
  );
}
