/**
 * PDF text with pdf.js, one page at a time: each page's text runs are put in reading order
 * (pdf-layout.ts) and its section titles marked as `#` headings (pdf-headings.ts: from the outline,
 * else by font size), running headers and footers are dropped once all pages are read, the page's
 * resources are released before the next page is read, and pages without any text are reported by
 * range, since a scanned PDF yields no text without OCR.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DocumentPage, LoadOptions } from '../types.js';
import { SourceError } from './errors.js';
import { cleanTitle } from './normalize.js';
import { markFontHeadings, outlineHeadings, withOutlinePages } from './pdf-headings.js';
import {
  withoutNavigation,
  pageParagraphs,
  pageText,
  withoutRunningLines,
  type PdfParagraph,
  type PositionedText,
  type TableContext,
  type TermContext,
} from './pdf-layout.js';

export const NO_TEXT_MESSAGE = 'no extractable text: scanned or image-only PDF?';

export interface PdfText {
  pages: DocumentPage[];
  /** The document information Title, when it says something. */
  title?: string;
  warnings: string[];
}

/**
 * A local file is read by ranges as pages need it; a download is already in memory (as a plain
 * Uint8Array that owns its buffer: pdf.js refuses Buffers and transfers the bytes).
 */
export type PdfInput = { file: string } | { data: Uint8Array };

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

export async function readPdf(input: PdfInput, options: LoadOptions = {}): Promise<PdfText> {
  // Loaded on first use: pdf.js's legacy build installs core-js polyfills that replace the global
  // JSON.parse/stringify with far slower versions, which only the parser workers should pay for.
  const { getDocument, VerbosityLevel } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({
    ...('file' in input
      ? { url: pathToFileURL(input.file), disableStream: true, disableAutoFetch: true }
      : { data: input.data }),
    // Character maps and standard fonts map glyphs of CJK and non-embedded fonts to Unicode.
    cMapUrl: join(pdfjsRoot, 'cmaps') + '/',
    cMapPacked: true,
    standardFontDataUrl: join(pdfjsRoot, 'standard_fonts') + '/',
    isEvalSupported: false,
    verbosity: VerbosityLevel.ERRORS,
  });
  try {
    const pdf = await task.promise.catch((error: unknown) => {
      throw openError(error);
    });
    const outline = await outlineHeadings(pdf);
    const paragraphs: PdfParagraph[][] = [];
    // A table's header, for its rows continued on the next page.
    const tables: TableContext = { paragraphs: 0 };
    for (let n = 1; n <= pdf.numPages; n++) {
      options.signal?.throwIfAborted();
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const runs: PositionedText[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
        runs.push({
          text: item.str,
          x,
          y,
          width: item.width,
          size: item.height || Math.hypot(c, d) || Math.hypot(a, b),
        });
      }
      paragraphs.push(pageParagraphs(runs, tables));
      page.cleanup();
      options.onPage?.(n, pdf.numPages);
    }
    if (outline.size === 0) markFontHeadings(paragraphs);
    const marked = outline.size > 0 ? withOutlinePages(paragraphs, outline) : paragraphs;
    if (marked.every((page) => page.length === 0)) throw new SourceError(NO_TEXT_MESSAGE);
    // Pages without text are told before contents and index entries leave a page without any.
    const warnings = emptyPageWarnings(marked.map((page, i) => ({ page: i + 1, empty: page.length === 0 })));
    // A definition's description may go on at the top of the next page.
    const terms: TermContext = { open: [] };
    const pages: DocumentPage[] = marked.map((page, i) => ({
      page: i + 1,
      text: pageText(withoutNavigation(page), terms),
    }));
    const texts = withoutRunningLines(pages.map((p) => p.text));
    pages.forEach((p, i) => (p.text = texts[i] ?? p.text));
    const { info } = await pdf.getMetadata();
    const title = cleanTitle(String((info as { Title?: unknown } | undefined)?.Title ?? '')) || undefined;
    return { pages, title, warnings };
  } finally {
    await task.destroy();
  }
}

function openError(error: unknown): Error {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') return new SourceError('the PDF is password-protected');
  if (name === 'InvalidPDFException') return new SourceError('not a valid PDF file');
  return new SourceError(
    `the PDF could not be read: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/** "page 3: …" or "pages 4-6: …" for each run of pages without text. */
function emptyPageWarnings(pages: { page: number; empty: boolean }[]): string[] {
  const warnings: string[] = [];
  let runStart: number | undefined;
  pages.forEach((page, i) => {
    const { empty } = page;
    if (empty && runStart === undefined) runStart = page.page;
    const runEnds = runStart !== undefined && (!empty || i === pages.length - 1);
    if (runEnds) {
      const last = empty ? page.page : pages[i - 1]?.page;
      const range = runStart === last ? `page ${runStart}` : `pages ${runStart}-${last}`;
      warnings.push(`${range}: ${NO_TEXT_MESSAGE}`);
      runStart = undefined;
    }
  });
  return warnings;
}
