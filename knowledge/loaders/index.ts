/**
 * Loaders: a source (a local file, an http(s) URL, or raw text) becomes a LoadedDocument of
 * normalised text pages. Everything a user can get wrong is a SourceError with a readable message.
 */
import type { LoadedDocument, LoadOptions, SourceInput } from '../types.js';
import { SourceError } from './errors.js';
import { loadFile } from './file.js';
import { cleanTitle, normalizeText } from './normalize.js';
import { loadUrl } from './url.js';

export { detectSource } from './detect.js';
export { URL_DEFAULTS } from './download.js';
export { SourceError } from './errors.js';
export { MAX_TEXT_FILE_BYTES } from './file.js';
export { SUPPORTED_EXTENSIONS, type SupportedExtension } from './formats.js';
export { NO_TEXT_MESSAGE } from './pdf.js';

export async function loadSource(input: SourceInput, options: LoadOptions = {}): Promise<LoadedDocument> {
  switch (input.kind) {
    case 'file':
      return loadFile(input.path, options);
    case 'url':
      return loadUrl(input.url, options);
    case 'text':
      return loadText(input.text, input.title);
  }
}

/** Raw text: titled as given, else by its first line. */
function loadText(raw: string, title: string | undefined): LoadedDocument {
  const text = normalizeText(raw);
  if (text === '') throw new SourceError('the text is empty');
  const firstLine = text.split('\n', 1)[0] ?? text;
  return {
    title: cleanTitle(title ?? '') || cleanTitle(firstLine, 80),
    origin: { kind: 'text' },
    format: 'text',
    pages: [{ text }],
    warnings: [],
  };
}
