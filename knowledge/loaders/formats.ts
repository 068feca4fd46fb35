/**
 * The formats a source can have and how each becomes a LoadedDocument: PDF page by page,
 * Markdown/MDX, HTML and plain text from decoded text. Titles fall back from what the content
 * says (front matter, `<title>`, PDF metadata, first `#` heading) to the name of the source.
 */
import type { LoadedDocument, LoadOptions, SourceFormat, SourceOrigin } from '../types.js';
import { SourceError } from './errors.js';
import { readMarkdown } from './markdown.js';
import { normalizeText } from './normalize.js';
import { readPdf, type PdfInput } from './pdf.js';

export const SUPPORTED_EXTENSIONS = ['.pdf', '.md', '.mdx', '.txt', '.html', '.htm'] as const;
export type SupportedExtension = (typeof SUPPORTED_EXTENSIONS)[number];

export const FORMAT_BY_EXTENSION: Record<SupportedExtension, SourceFormat> = {
  '.pdf': 'pdf',
  '.md': 'markdown',
  '.mdx': 'markdown',
  '.txt': 'text',
  '.html': 'html',
  '.htm': 'html',
};

export function isSupportedExtension(extension: string): extension is SupportedExtension {
  return (SUPPORTED_EXTENSIONS as readonly string[]).includes(extension);
}

export function unsupportedExtension(extension: string): SourceError {
  const which = extension === '' ? 'file type (no extension)' : `file type "${extension}"`;
  return new SourceError(`unsupported ${which}: supported are ${SUPPORTED_EXTENSIONS.join(', ')}`);
}

export type Content =
  | { format: 'pdf'; pdf: PdfInput }
  | { format: 'markdown'; text: string; mdx: boolean }
  | { format: 'html' | 'text'; text: string };

/** Reads content into a document; `name` (a file name, a URL's last segment) is the last title fallback. */
export async function readContent(
  content: Content,
  origin: SourceOrigin,
  name: string,
  options: LoadOptions = {},
): Promise<LoadedDocument> {
  const document = (title: string | undefined, pages: LoadedDocument['pages'], warnings: string[] = []) => ({
    title: title || name,
    origin,
    format: content.format,
    pages,
    warnings,
  });
  if (content.format === 'pdf') {
    const pdf = await readPdf(content.pdf, options);
    return document(pdf.title, pdf.pages, pdf.warnings);
  }
  // The HTML reader (a DOM and a Markdown converter) is loaded at the first page that needs it.
  const read =
    content.format === 'markdown'
      ? readMarkdown(content.text, { mdx: content.mdx })
      : content.format === 'html'
        ? { ...(await import('./html.js')).readHtml(content.text), warnings: [] }
        : { text: normalizeText(content.text), title: undefined, warnings: [] };
  if (read.text === '') throw new SourceError('no text found');
  return document(read.title, [{ text: read.text }], read.warnings);
}
