import type { Chunk } from '../types.js';

/**
 * Chunks as columns for a snapshot: all texts as one UTF-8 byte run with end offsets, numbers as
 * Uint32 columns, and repeated strings (titles, paths, URLs, heading paths) once in a string table.
 * Orama's `save()` needs JSON.stringify of every document, which measured 6 s for 30k chunks
 * (about 10 MB/s: one huge string in a large heap keeps the garbage collector busy).
 */
export interface ChunkColumns {
  ids: string[];
  documentIds: string[];
  /** Per chunk, a position in `documentIds`. */
  document: Uint32Array;
  text: Uint8Array;
  /** Per chunk, where its text ends in `text` (bytes); it starts where the previous one ends. */
  textEnd: Uint32Array;
  /** Per chunk, its text's length in UTF-16 units, to cut a batch decoded at once. */
  textLength: Uint32Array;
  ordinal: Uint32Array;
  start: Uint32Array;
  end: Uint32Array;
  /** 0 = no page. */
  page: Uint32Array;
  strings: string[];
  /** References into `strings`, plus one; 0 = absent. */
  title: Uint32Array;
  headingPath: Uint32Array;
  path: Uint32Array;
  url: Uint32Array;
}

export function encodeChunkColumns(chunks: readonly Chunk[]): ChunkColumns {
  const count = chunks.length;
  const strings: string[] = [];
  const stringRefs = new Map<string, number>();
  const ref = (value: string | undefined): number => {
    if (value === undefined) return 0;
    let position = stringRefs.get(value);
    if (position === undefined) {
      position = strings.push(value);
      stringRefs.set(value, position);
    }
    return position;
  };
  const documentIds: string[] = [];
  const documentRefs = new Map<string, number>();
  const columns: ChunkColumns = {
    ids: new Array<string>(count),
    documentIds,
    document: new Uint32Array(count),
    text: new Uint8Array(0),
    textEnd: new Uint32Array(count),
    textLength: new Uint32Array(count),
    ordinal: new Uint32Array(count),
    start: new Uint32Array(count),
    end: new Uint32Array(count),
    page: new Uint32Array(count),
    strings,
    title: new Uint32Array(count),
    headingPath: new Uint32Array(count),
    path: new Uint32Array(count),
    url: new Uint32Array(count),
  };
  const text = new Uint8Array(chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk.text), 0));
  const encoder = new TextEncoder();
  let written = 0;
  chunks.forEach((chunk, i) => {
    columns.ids[i] = chunk.id;
    let document = documentRefs.get(chunk.documentId);
    if (document === undefined) {
      document = documentIds.push(chunk.documentId) - 1;
      documentRefs.set(chunk.documentId, document);
    }
    columns.document[i] = document;
    written += encoder.encodeInto(chunk.text, text.subarray(written)).written;
    columns.textEnd[i] = written;
    columns.textLength[i] = chunk.text.length;
    columns.ordinal[i] = chunk.ordinal;
    columns.start[i] = chunk.start;
    columns.end[i] = chunk.end;
    columns.page[i] = chunk.page ?? 0;
    columns.title[i] = ref(chunk.title);
    columns.headingPath[i] = chunk.headingPath.length > 0 ? ref(JSON.stringify(chunk.headingPath)) : 0;
    columns.path[i] = ref(chunk.path);
    columns.url[i] = ref(chunk.url);
  });
  columns.text = text;
  return columns;
}

/**
 * Texts are decoded a batch of chunks at a time and cut by their UTF-16 lengths: a decoder call
 * per chunk costs more than the decoding, and a batch keeps one text that needs two bytes per
 * character (anything beyond Latin-1) from doubling the memory of all the others.
 */
const TEXT_BATCH = 64;

export function decodeChunkColumns(columns: ChunkColumns): Chunk[] {
  const decoder = new TextDecoder();
  const headingPaths = new Map<number, string[]>();
  const string = (position: number): string | undefined =>
    position === 0 ? undefined : columns.strings[position - 1];
  const chunks: Chunk[] = [];
  let batch = '';
  let batchOffset = 0;
  for (let i = 0; i < columns.ids.length; i++) {
    if (i % TEXT_BATCH === 0) {
      const last = Math.min(columns.ids.length, i + TEXT_BATCH) - 1;
      const from = i === 0 ? 0 : (columns.textEnd[i - 1] as number);
      batch = decoder.decode(columns.text.subarray(from, columns.textEnd[last] as number));
      batchOffset = 0;
    }
    const textLength = columns.textLength[i] as number;
    const text = batch.slice(batchOffset, batchOffset + textLength);
    batchOffset += textLength;
    const headingRef = columns.headingPath[i] as number;
    let headingPath = headingPaths.get(headingRef);
    if (headingPath === undefined) {
      headingPath = headingRef === 0 ? [] : (JSON.parse(string(headingRef) ?? '[]') as string[]);
      headingPaths.set(headingRef, headingPath);
    }
    const chunk: Chunk = {
      id: columns.ids[i] as string,
      documentId: columns.documentIds[columns.document[i] as number] as string,
      ordinal: columns.ordinal[i] as number,
      text,
      title: string(columns.title[i] as number) ?? '',
      headingPath,
      start: columns.start[i] as number,
      end: columns.end[i] as number,
    };
    const page = columns.page[i] as number;
    if (page > 0) chunk.page = page;
    const path = string(columns.path[i] as number);
    if (path !== undefined) chunk.path = path;
    const url = string(columns.url[i] as number);
    if (url !== undefined) chunk.url = url;
    chunks.push(chunk);
  }
  return chunks;
}
