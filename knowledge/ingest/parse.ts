import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { chunkDocument, documentText } from '../chunker.js';
import { loadSource } from '../loaders/index.js';
import type { ContentStamp, ParseJob, ParseOutcome } from './protocol.js';

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/**
 * Turns one source into its stored form: load, normalise, chunk. Runs in a parser worker. A file
 * whose bytes still hash to the stored version is not parsed at all; a URL or text has to be
 * loaded before its normalised text can be compared.
 */
export async function parseSource(
  job: ParseJob,
  onPage: (page: number, total: number) => void,
): Promise<ParseOutcome> {
  let fileStamp: ContentStamp | undefined;
  if (job.input.kind === 'file') {
    const stats = await stat(job.input.path);
    fileStamp = { ...(await hashFile(job.input.path)), mtimeMs: stats.mtimeMs };
    if (fileStamp.contentHash === job.previousHash) return { status: 'unchanged', ...fileStamp };
  }
  const document = await loadSource(job.input, { ...job.load, onPage });
  const text = documentText(document);
  const stamp = fileStamp ?? { contentHash: sha256(text), size: Buffer.byteLength(text) };
  if (stamp.contentHash === job.previousHash) return { status: 'unchanged', ...stamp };
  const paged = document.pages.length > 0 && document.pages.every((page) => page.page !== undefined);
  return {
    status: 'parsed',
    ...stamp,
    title: document.title,
    format: document.format,
    ...(paged
      ? { pageNumbers: document.pages.flatMap((page) => (page.page === undefined ? [] : [page.page])) }
      : {}),
    text,
    chunks: chunkDocument(document, job.documentId),
    warnings: document.warnings,
  };
}

/** Streamed, so a large file is never held in memory twice (the loader reads it too). */
async function hashFile(path: string): Promise<{ contentHash: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const piece of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(piece);
    size += piece.byteLength;
  }
  return { contentHash: hash.digest('hex'), size };
}
