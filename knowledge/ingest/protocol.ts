import type { Chunk, LoadOptions, SourceFormat, SourceInput } from '../types.js';

/** What the main thread asks a parser worker to do with one source. */
export interface ParseJob {
  input: SourceInput;
  documentId: string;
  /** The stored version's content hash: a source that still has it is reported unchanged, unparsed. */
  previousHash?: string;
  load: Pick<LoadOptions, 'allowPrivateNetwork' | 'maxBytes' | 'timeoutMs' | 'maxRedirects'>;
}

/** Identity of the bytes read: enough to recognise the same version next time. */
export interface ContentStamp {
  contentHash: string;
  size: number;
  mtimeMs?: number;
}

export interface ParsedSource extends ContentStamp {
  status: 'parsed';
  title: string;
  format: SourceFormat;
  /** Page numbers in reading order when the format has pages. */
  pageNumbers?: number[];
  /** Normalised text, pages joined by PAGE_SEPARATOR: what the chunk offsets index into. */
  text: string;
  chunks: Chunk[];
  warnings: string[];
}

export type ParseOutcome = (ContentStamp & { status: 'unchanged' }) | ParsedSource;

export interface WorkerRequest {
  jobId: number;
  job: ParseJob;
}

export type WorkerReply =
  | { jobId: number; type: 'page'; page: number; total: number }
  | { jobId: number; type: 'done'; outcome: ParseOutcome }
  | { jobId: number; type: 'failed'; error: string };
