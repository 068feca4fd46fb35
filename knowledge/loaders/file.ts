/** Local files: the extension decides the format; PDFs are read by ranges, the rest as UTF-8 text. */
import { readFile, stat } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import type { LoadedDocument, LoadOptions } from '../types.js';
import { SourceError } from './errors.js';
import { FORMAT_BY_EXTENSION, isSupportedExtension, readContent, unsupportedExtension } from './formats.js';

/** Text formats are read whole into memory; beyond this a file is refused rather than risked. */
export const MAX_TEXT_FILE_BYTES = 64 * 1024 * 1024;

export async function loadFile(path: string, options: LoadOptions = {}): Promise<LoadedDocument> {
  const absolute = resolve(path);
  const extension = extname(absolute).toLowerCase();
  if (!isSupportedExtension(extension)) throw unsupportedExtension(extension);
  const info = await stat(absolute).catch((error: unknown) => {
    throw fileError(error);
  });
  if (info.isDirectory()) throw new SourceError('is a folder, not a file');
  if (!info.isFile()) throw new SourceError('not a regular file');
  const origin = { kind: 'file' as const, path: absolute };
  const name = basename(absolute);
  const format = FORMAT_BY_EXTENSION[extension];
  if (format === 'pdf') return readContent({ format, pdf: { file: absolute } }, origin, name, options);
  if (info.size > MAX_TEXT_FILE_BYTES) {
    throw new SourceError(
      `file too large: a text file may have at most ${MAX_TEXT_FILE_BYTES / 1024 / 1024} MiB`,
    );
  }
  const text = await readFile(absolute, 'utf8').catch((error: unknown) => {
    throw fileError(error);
  });
  const content = format === 'markdown' ? { format, text, mdx: extension === '.mdx' } : { format, text };
  return readContent(content, origin, name, options);
}

function fileError(error: unknown): SourceError {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new SourceError('file not found');
  if (code === 'EACCES' || code === 'EPERM') return new SourceError('permission denied');
  return new SourceError(`the file could not be read (${typeof code === 'string' ? code : 'unknown error'})`);
}
