/** URL sources: downloaded under limits, then read as PDF, HTML, Markdown or text by content type. */
import { extname, posix } from 'node:path';
import type { LoadedDocument, LoadOptions } from '../types.js';
import { download, parseHttpUrl, type Download } from './download.js';
import { SourceError } from './errors.js';
import { FORMAT_BY_EXTENSION, isSupportedExtension, readContent, type Content } from './formats.js';

const FORMAT_BY_MEDIA_TYPE: Record<string, Content['format']> = {
  'application/pdf': 'pdf',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/plain': 'text',
};

/** Types servers send when they do not know: the URL's extension decides then. */
const UNKNOWN_MEDIA_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

export async function loadUrl(raw: string, options: LoadOptions = {}): Promise<LoadedDocument> {
  const requested = parseHttpUrl(raw);
  const fetched = await download(raw, options);
  // Credentials in a URL stay out of what is stored and cited.
  requested.username = '';
  requested.password = '';
  const origin = { kind: 'url' as const, url: requested.href };
  return readContent(contentOf(fetched), origin, nameOf(fetched.url), options);
}

function contentOf(fetched: Download): Content {
  const extension = extname(fetched.url.pathname).toLowerCase();
  let format = FORMAT_BY_MEDIA_TYPE[fetched.mimeType];
  // Raw Markdown is commonly served as text/plain.
  if (format === 'text' && (extension === '.md' || extension === '.mdx')) format = 'markdown';
  if (!format && UNKNOWN_MEDIA_TYPES.has(fetched.mimeType) && isSupportedExtension(extension)) {
    format = FORMAT_BY_EXTENSION[extension];
  }
  if (!format) {
    throw new SourceError(
      `unsupported content type "${fetched.mimeType || 'none'}": supported are PDF, HTML, Markdown and plain text`,
    );
  }
  if (format === 'pdf') return { format, pdf: { data: fetched.body } };
  const text = decode(fetched.body, fetched.charset);
  return format === 'markdown' ? { format, text, mdx: extension === '.mdx' } : { format, text };
}

function decode(body: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body); // an unknown charset label
  }
}

/** The URL's last path segment, else its host: the title when the content names none. */
function nameOf(url: URL): string {
  const segment = posix.basename(url.pathname);
  try {
    return decodeURIComponent(segment) || url.host;
  } catch {
    return segment || url.host;
  }
}
