/**
 * The knowledge engine's internal contracts, shared by its three stages:
 * loaders (a source → a LoadedDocument), the chunker (LoadedDocument → Chunk[]), and the index
 * (Chunk[] → ranked passages). Wire shapes for the HTTP API live in shared/agent.ts.
 */

export type SourceFormat = 'pdf' | 'markdown' | 'html' | 'text';

export type SourceOrigin = { kind: 'file'; path: string } | { kind: 'url'; url: string } | { kind: 'text' };

/** One unit of text in reading order: a PDF page, or the whole body of any other format. */
export interface DocumentPage {
  /** 1-based page number for PDFs; absent for formats without pages. */
  page?: number;
  /** Normalised text. Markdown keeps `#` headings so the chunker can follow the structure. */
  text: string;
}

export interface LoadedDocument {
  title: string;
  origin: SourceOrigin;
  format: SourceFormat;
  pages: DocumentPage[];
  /** Problems that did not stop loading, e.g. "pages 4-6: no extractable text: scanned or image-only PDF?". */
  warnings: string[];
}

/** Pages are joined with this separator in the stored document file; chunk offsets index into that text. */
export const PAGE_SEPARATOR = '\f';

export interface Chunk {
  /** `<documentId>#<ordinal>` */
  id: string;
  documentId: string;
  ordinal: number;
  text: string;
  title: string;
  /** Headings from the outermost to the one the chunk sits under. */
  headingPath: string[];
  page?: number;
  /** Character offsets [start, end) into the stored document text (pages joined by PAGE_SEPARATOR). */
  start: number;
  end: number;
  path?: string;
  url?: string;
}

export interface RankedChunk {
  chunk: Chunk;
  score: number;
  /** The part of the chunk's text around the query's terms, when snippets were asked for. */
  snippet?: string;
}

/** What a loader is asked to read. `detectSource` in loaders/ turns a CLI or API string into one. */
export type SourceInput =
  | { kind: 'file'; path: string }
  | { kind: 'url'; url: string }
  | { kind: 'text'; text: string; title?: string };

export interface LoadOptions {
  /** Allow URLs whose host resolves to loopback, private, link-local or metadata addresses. */
  allowPrivateNetwork?: boolean;
  /** Largest download accepted for a URL, in bytes. */
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /** Called as PDF pages are parsed: page n of total. */
  onPage?: (page: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * The index of one namespace, implemented in search/. Chunks go in, ranked chunks come out,
 * and the whole index round-trips through a snapshot that restores its tokenizer and settings.
 */
export interface ChunkIndex {
  readonly size: number;
  add(chunks: Chunk[]): void;
  removeDocument(documentId: string): void;
  search(
    query: string,
    options?: { limit?: number; onePerDocument?: boolean; snippets?: boolean },
  ): RankedChunk[];
  snapshot(): Uint8Array;
}
