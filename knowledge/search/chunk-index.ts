import { z } from 'zod';
import type { Chunk, ChunkIndex, RankedChunk } from '../types.js';
import { ScoreAccumulator } from './accumulator.js';
import { inverseDocumentFrequency, type WeightedTerm } from './bm25f.js';
import { decodeChunkColumns, encodeChunkColumns, type ChunkColumns } from './chunk-columns.js';
import { ChunkStore } from './chunk-store.js';
import { FieldNorms } from './field-norms.js';
import { ensureLength } from './growable.js';
import { InvertedIndex } from './inverted-index.js';
import { ClosenessMemo } from './proximity.js';
import { rankSlots, type RankingScratch } from './ranking.js';
import {
  DEFAULT_SETTINGS,
  resolveSettings,
  type IndexSettings,
  type IndexSettingsInput,
  type RankingSettings,
  type TokenizerSettings,
} from './settings.js';
import { DEFAULT_SNIPPET_LENGTH, makeSnippet, snippetAround, startHits } from './snippet.js';
import { decodeSnapshot, encodeSnapshot, SnapshotError, type DecodedSnapshot } from './snapshot.js';
import { TermOffsets, type TermOffsetSections } from './term-offsets.js';
import { createTokenizer, type Tokenizer } from './tokenizer.js';

export interface ChunkSearchOptions {
  /** Chunks to return, 1-1000; default 10. */
  limit?: number;
  /**
   * At most one chunk per document (the best); default true. Each page of a document with pages
   * (a PDF) counts as a document of its own: it is cited apart, as an HTML page is, and a manual
   * in one PDF would otherwise give a single result however many are asked for.
   */
  onePerDocument?: boolean;
  /** Give each result a snippet around the query's terms (see makeSnippet); default false. */
  snippets?: boolean;
}

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 1000;
const MAX_QUERY_TERMS = 64;
const NO_TERMS: readonly number[] = [];
/**
 * A page's key for one result per page is its document's number times this, plus the page: exact
 * in a double for document numbers below 2^32. Pages past it share the last key of their document.
 */
const PAGES_PER_DOCUMENT = 2 ** 21;

const ChunkInput = z.object({
  id: z.string().min(1),
  documentId: z.string().min(1),
  ordinal: z.number().int().nonnegative(),
  text: z.string(),
  title: z.string(),
  headingPath: z.array(z.string()),
  page: z.number().int().positive().optional(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  path: z.string().optional(),
  url: z.string().optional(),
});
const ChunkBatch = z.array(ChunkInput);

/** What a snapshot holds besides the settings: the index numbers and the chunks. */
interface IndexState {
  index: InvertedIndex;
  store: ChunkStore;
  slotChunkIds: string[];
  slotDocument: Uint32Array;
  /** Slot → page number, 0 for none. */
  slotPage: Uint32Array;
  documentIds: string[];
  offsets: TermOffsets;
}

/**
 * One namespace's index: Orama stores and filters the chunks, the inverted index ranks them.
 */
export class SearchIndex implements ChunkIndex {
  private readonly tokenizer: Tokenizer;
  private readonly scratch: RankingScratch;
  private index: InvertedIndex;
  private store: ChunkStore;
  private offsets: TermOffsets;
  /** Whether snippets may be made from the index: it tokenizes as makeSnippet does. */
  private readonly snippetsFromIndex: boolean;
  /** Slot → chunk id; empty for removed chunks. */
  private slotChunkIds: string[];
  private readonly chunkSlots = new Map<string, number>();
  /** Slot → document number, for one chunk per document. */
  private slotDocument: Uint32Array;
  /** Slot → page number (0 = none), for one chunk per page of a PDF. */
  private slotPage: Uint32Array;
  private readonly documentNumbers = new Map<string, number>();
  private nextDocumentNumber = 0;

  constructor(
    readonly settings: IndexSettings,
    state?: IndexState,
  ) {
    this.tokenizer = createTokenizer(settings.tokenizer);
    this.scratch = {
      accumulator: new ScoreAccumulator(),
      termRelevance: new ScoreAccumulator(),
      norms: new FieldNorms(settings.ranking),
      closeness: new ClosenessMemo(),
    };
    this.index = state?.index ?? new InvertedIndex();
    this.store = state?.store ?? ChunkStore.empty();
    this.offsets = state?.offsets ?? new TermOffsets();
    const snippetTokenizer = DEFAULT_SETTINGS.tokenizer;
    this.snippetsFromIndex = (Object.keys(snippetTokenizer) as (keyof TokenizerSettings)[]).every(
      (key) => settings.tokenizer[key] === snippetTokenizer[key],
    );
    this.slotChunkIds = state?.slotChunkIds ?? [];
    this.slotDocument = state?.slotDocument ?? new Uint32Array(256);
    this.slotPage = state?.slotPage ?? new Uint32Array(256);
    this.slotChunkIds.forEach((chunkId, slot) => {
      if (chunkId !== '') this.chunkSlots.set(chunkId, slot);
    });
    for (const documentId of state?.documentIds ?? [])
      this.documentNumbers.set(documentId, this.nextDocumentNumber++);
  }

  get size(): number {
    return this.index.liveCount;
  }

  add(chunks: Chunk[]): void {
    const parsed = ChunkBatch.safeParse(chunks);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = (issue?.path ?? []).map((key) =>
        typeof key === 'number' ? `[${key}]` : `.${String(key)}`,
      );
      throw new TypeError(`chunks${field.join('')}: ${issue?.message ?? 'not a valid chunk'}`);
    }
    // Check every id before indexing anything, so a refused batch leaves the index as it was.
    const batchIds = new Set<string>();
    for (const chunk of parsed.data) {
      if (this.chunkSlots.has(chunk.id) || batchIds.has(chunk.id)) {
        throw new RangeError(`chunk "${chunk.id}" is already in the index; remove its document first`);
      }
      batchIds.add(chunk.id);
    }
    for (const chunk of parsed.data) this.addOne(chunk);
  }

  removeDocument(documentId: string): void {
    if (typeof documentId !== 'string') throw new TypeError('removeDocument: documentId must be a string');
    for (const chunkId of this.store.chunkIdsOf(documentId)) {
      const slot = this.chunkSlots.get(chunkId);
      if (slot !== undefined) {
        this.index.removeSlot(slot);
        this.slotChunkIds[slot] = '';
        this.chunkSlots.delete(chunkId);
      }
      this.store.remove(chunkId);
    }
    this.documentNumbers.delete(documentId);
    // Removed slots cost memory and scan time until compacted; a quarter of them is enough.
    if ((this.index.slotCount - this.index.liveCount) * 4 > this.index.slotCount) this.compact();
  }

  search(query: string, options: ChunkSearchOptions = {}): RankedChunk[] {
    if (typeof query !== 'string') throw new TypeError('search: the query must be a string');
    const limit = options.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw new RangeError(
        `search: limit must be a whole number from 1 to ${MAX_LIMIT}, not ${String(limit)}`,
      );
    }
    const { weighted, known } = this.queryTerms(query);
    if (weighted.length === 0) return [];
    const onePerDocument = options.onePerDocument ?? true;
    const ranked = rankSlots(this.index, this.settings.ranking, this.scratch, {
      query: weighted,
      limit,
      documentOf: onePerDocument
        ? (slot) =>
            (this.slotDocument[slot] as number) * PAGES_PER_DOCUMENT +
            Math.min(this.slotPage[slot] as number, PAGES_PER_DOCUMENT - 1)
        : undefined,
    });
    return ranked.map(({ slot, score }) => {
      const chunk = this.store.get(this.slotChunkIds[slot] as string) as Chunk;
      return options.snippets
        ? { chunk, score, snippet: this.snippet(slot, chunk.text, query, known) }
        : { chunk, score };
    });
  }

  /**
   * makeSnippet's snippet, from the slot's forward terms and their offsets in the text instead of
   * tokenizing the text again: the same words, found by term id.
   */
  private snippet(slot: number, text: string, query: string, termIds: readonly number[]): string {
    const first = this.offsets.first(slot);
    if (text.length <= DEFAULT_SNIPPET_LENGTH || first < 0 || !this.snippetsFromIndex)
      return makeSnippet(text, query);
    const hits = startHits(termIds.length);
    const termMarks = this.scratch.accumulator.termMarks;
    const keyOf = termMarks.mark(termIds, this.index.termCount);
    try {
      const { forward, start, titleLength, bodyLength } = this.index.slotArrays();
      const count = this.offsets.termCount(slot);
      // The text's terms are the last of the slot's sequence.
      const base =
        (start[slot] as number) + (titleLength[slot] as number) + (bodyLength[slot] as number) - count;
      const offsets = this.offsets.array();
      for (let i = 0; i < count; i++) {
        const key = keyOf[forward[base + i] as number] as number;
        if (key >= 0)
          hits.push(key, offsets[2 * (first + i)] as number, offsets[2 * (first + i) + 1] as number);
      }
    } finally {
      termMarks.unmark(termIds);
    }
    return snippetAround(text, hits);
  }

  snapshot(): Uint8Array {
    if (this.index.slotCount > this.index.liveCount) this.compact();
    const sections = this.index.sections();
    // Compacted: every slot is live and holds the chunk of the same position.
    const chunks = this.slotChunkIds
      .slice(0, this.index.slotCount)
      .map((chunkId) => this.store.get(chunkId) as Chunk);
    const columns = encodeChunkColumns(chunks);
    return encodeSnapshot(this.settings, {
      terms: { json: sections.terms },
      termDf: sections.termDf,
      postingPool: sections.postings.pool,
      postingHead: sections.postings.head,
      postingTail: sections.postings.tail,
      postingTailFill: sections.postings.tailFill,
      postingEntries: sections.postings.entries,
      forward: sections.forward,
      slotStart: sections.slotStart,
      slotTitleLength: sections.slotTitleLength,
      slotBodyLength: sections.slotBodyLength,
      slotLive: sections.slotLive,
      chunkIds: { json: columns.ids },
      documentIds: { json: columns.documentIds },
      chunkDocument: columns.document,
      chunkText: columns.text,
      chunkTextEnd: columns.textEnd,
      chunkTextLength: columns.textLength,
      chunkOrdinal: columns.ordinal,
      chunkStart: columns.start,
      chunkEnd: columns.end,
      chunkPage: columns.page,
      strings: { json: columns.strings },
      chunkTitle: columns.title,
      chunkHeadingPath: columns.headingPath,
      chunkPath: columns.path,
      chunkUrl: columns.url,
      ...termOffsetSections(this.offsets.sections(this.index.slotCount)),
    });
  }

  /**
   * The index a snapshot holds, with the tokenizer and fields it was built with; it ranks with the
   * snapshot's ranking settings, or with `ranking` when given (ranking is chosen per query, so any
   * ranking settings fit the terms the index holds).
   */
  static restore(bytes: Uint8Array, ranking?: RankingSettings): SearchIndex {
    const snapshot = decodeSnapshot(bytes);
    const terms = snapshot.json('terms');
    const ids = snapshot.json('chunkIds');
    const documentIds = snapshot.json('documentIds');
    const strings = snapshot.json('strings');
    if (
      !isStringArray(terms) ||
      !isStringArray(ids) ||
      !isStringArray(documentIds) ||
      !isStringArray(strings)
    ) {
      throw new SnapshotError(
        'index snapshot lists (terms, chunk ids, document ids, strings) are not lists of strings',
      );
    }
    const index = new InvertedIndex({
      terms,
      termDf: snapshot.u32('termDf'),
      postings: {
        pool: snapshot.u32('postingPool'),
        head: snapshot.u32('postingHead'),
        tail: snapshot.u32('postingTail'),
        tailFill: snapshot.u32('postingTailFill'),
        entries: snapshot.u32('postingEntries'),
      },
      forward: snapshot.u32('forward'),
      slotStart: snapshot.u32('slotStart'),
      slotTitleLength: snapshot.u32('slotTitleLength'),
      slotBodyLength: snapshot.u32('slotBodyLength'),
      slotLive: snapshot.u8('slotLive'),
    });
    const columns: ChunkColumns = {
      ids,
      documentIds,
      document: snapshot.u32('chunkDocument'),
      text: snapshot.u8('chunkText'),
      textEnd: snapshot.u32('chunkTextEnd'),
      textLength: snapshot.u32('chunkTextLength'),
      ordinal: snapshot.u32('chunkOrdinal'),
      start: snapshot.u32('chunkStart'),
      end: snapshot.u32('chunkEnd'),
      page: snapshot.u32('chunkPage'),
      strings,
      title: snapshot.u32('chunkTitle'),
      headingPath: snapshot.u32('chunkHeadingPath'),
      path: snapshot.u32('chunkPath'),
      url: snapshot.u32('chunkUrl'),
    };
    const perChunk = [
      columns.document,
      columns.textEnd,
      columns.textLength,
      columns.ordinal,
      columns.start,
      columns.end,
      columns.page,
      columns.title,
      columns.headingPath,
      columns.path,
      columns.url,
    ];
    if (
      ids.length !== index.slotCount ||
      index.liveCount !== index.slotCount ||
      perChunk.some((column) => column.length !== ids.length)
    ) {
      throw new SnapshotError('index snapshot sections disagree on the number of chunks');
    }
    const chunks = decodeChunkColumns(columns);
    const store = ChunkStore.adopting(chunks);
    return new SearchIndex(ranking ? { ...snapshot.settings, ranking } : snapshot.settings, {
      index,
      store,
      slotChunkIds: ids,
      slotDocument: columns.document,
      slotPage: columns.page,
      documentIds,
      offsets: restoredTermOffsets(snapshot, chunks, snapshot.settings, ids.length),
    });
  }

  private addOne(chunk: Chunk): void {
    // A document's first heading is usually its title: counted once, as in the text it came from.
    const titleText = [...new Set([chunk.title, ...chunk.headingPath])].join('\n');
    const titleTerms = this.tokenizer.terms(titleText);
    const { terms: bodyTerms, starts, ends } = termsWithOffsets(this.tokenizer, chunk.text);
    this.store.add(chunk);
    const slot =
      this.settings.fields === 'single'
        ? this.index.addSlot([], titleTerms.concat(bodyTerms))
        : this.index.addSlot(titleTerms, bodyTerms);
    this.slotChunkIds[slot] = chunk.id;
    this.chunkSlots.set(chunk.id, slot);
    this.offsets.set(slot, chunk.text.length, starts, ends);
    this.slotDocument = ensureLength(this.slotDocument, slot + 1);
    this.slotDocument[slot] = this.documentNumber(chunk.documentId);
    this.slotPage = ensureLength(this.slotPage, slot + 1);
    this.slotPage[slot] = chunk.page ?? 0;
  }

  private documentNumber(documentId: string): number {
    let number = this.documentNumbers.get(documentId);
    if (number === undefined) {
      number = this.nextDocumentNumber++;
      this.documentNumbers.set(documentId, number);
    }
    return number;
  }

  /**
   * Distinct known query terms, each weighted by how often the query repeats it; of a very long
   * query (a pasted paragraph) only the MAX_QUERY_TERMS that weigh most, so its cost stays bounded.
   * `known` lists all of them in the query's order: the terms a snippet looks for (a term in no
   * live chunk is in no chunk's text).
   */
  private queryTerms(query: string): { weighted: WeightedTerm[]; known: number[] } {
    // Each known term's place in `terms`, marked by term id: no Map, and the terms come out ready.
    const { termMarks } = this.scratch.accumulator;
    const placeOf = termMarks.mark(NO_TERMS, this.index.termCount);
    const terms: WeightedTerm[] = [];
    const known: number[] = [];
    try {
      for (const term of this.tokenizer.terms(query)) {
        const termId = this.index.termId(term);
        if (termId === undefined || this.index.documentFrequency(termId) === 0) continue;
        const place = placeOf[termId] as number;
        if (place >= 0) (terms[place] as WeightedTerm).weight++;
        else {
          placeOf[termId] = known.length;
          known.push(termId);
          terms.push({ termId, weight: 1 });
        }
      }
    } finally {
      termMarks.unmark(known);
    }
    if (terms.length <= MAX_QUERY_TERMS) return { weighted: terms, known };
    const { liveCount } = this.index;
    const importance = (term: WeightedTerm) =>
      term.weight * inverseDocumentFrequency(liveCount, this.index.documentFrequency(term.termId));
    const weighted = terms
      .sort((x, y) => importance(y) - importance(x) || x.termId - y.termId)
      .slice(0, MAX_QUERY_TERMS);
    return { weighted, known };
  }

  /** Renumbers live slots densely, drops unused terms and removed chunks' leftovers. */
  private compact(): void {
    const { index, slotMap } = this.index.compacted();
    const slotChunkIds: string[] = new Array<string>(index.slotCount);
    const slotDocument = new Uint32Array(Math.max(256, index.slotCount));
    const slotPage = new Uint32Array(Math.max(256, index.slotCount));
    this.chunkSlots.clear();
    slotMap.forEach((mapped, slot) => {
      if (mapped < 0) return;
      const chunkId = this.slotChunkIds[slot] as string;
      slotChunkIds[mapped] = chunkId;
      slotDocument[mapped] = this.slotDocument[slot] as number;
      slotPage[mapped] = this.slotPage[slot] as number;
      this.chunkSlots.set(chunkId, mapped);
    });
    this.offsets = this.offsets.compacted(slotMap, index.slotCount);
    this.index = index;
    this.slotChunkIds = slotChunkIds;
    this.slotDocument = slotDocument;
    this.slotPage = slotPage;
    this.store = this.store.compacted();
  }
}

/** A text's terms with the [start, end) offsets of the word each came from. */
function termsWithOffsets(
  tokenizer: Tokenizer,
  text: string,
): { terms: string[]; starts: number[]; ends: number[] } {
  const terms: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  tokenizer.forEachTerm(text, (term, start, end) => {
    terms.push(term);
    starts.push(start);
    ends.push(end);
  });
  return { terms, starts, ends };
}

function termOffsetSections(sections: TermOffsetSections): Record<string, Uint8Array | Uint32Array> {
  const { offsets } = sections;
  return {
    textTermOffsets: new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength),
    slotTextTermFirst: sections.slotFirst,
    slotTextTerms: sections.slotTerms,
  };
}

/**
 * The term offsets a snapshot holds, or, from a snapshot written before it held them, the offsets
 * found by tokenizing the chunks' texts again (once, on load).
 */
function restoredTermOffsets(
  snapshot: DecodedSnapshot,
  chunks: readonly Chunk[],
  settings: IndexSettings,
  slotCount: number,
): TermOffsets {
  if (snapshot.has('textTermOffsets')) {
    const bytes = snapshot.u8('textTermOffsets');
    const sections = {
      offsets: new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1),
      slotFirst: snapshot.u32('slotTextTermFirst'),
      slotTerms: snapshot.u32('slotTextTerms'),
    };
    if (
      bytes.byteLength % 2 !== 0 ||
      sections.slotFirst.length !== slotCount ||
      sections.slotTerms.length !== slotCount
    )
      throw new SnapshotError('index snapshot term offsets disagree with the number of chunks');
    return new TermOffsets(sections);
  }
  const tokenizer = createTokenizer(settings.tokenizer);
  const offsets = new TermOffsets();
  chunks.forEach((chunk, slot) => {
    const { starts, ends } = termsWithOffsets(tokenizer, chunk.text);
    offsets.set(slot, chunk.text.length, starts, ends);
  });
  return offsets;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

export function createSearchIndex(settings?: IndexSettingsInput): SearchIndex {
  return new SearchIndex(resolveSettings(settings));
}
