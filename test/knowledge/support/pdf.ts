/**
 * Builds real PDF files for tests with pdf-lib: pages of text lines, side-by-side columns,
 * text placed at exact positions, or drawings and images only (what a scan looks like to a
 * text extractor), with an outline (bookmarks) when asked. Shared by the knowledge tests; nothing
 * here is a fixture checked into the tree.
 */
import { deflateSync, crc32 } from 'node:zlib';
import { writeFile } from 'node:fs/promises';
import {
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  StandardFonts,
  rgb,
  type PDFFont,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';

/** US Letter, in PDF points. */
export const PAGE_WIDTH = 612;
export const PAGE_HEIGHT = 792;
const MARGIN = 72;

/** Lines drawn top-down from (x, y), y being the first baseline. */
export interface PdfTextBlock {
  x: number;
  y: number;
  lines: string[];
  fontSize?: number;
  /** Baseline-to-baseline distance; 1.2 × fontSize unless given. */
  lineHeight?: number;
}

export interface PdfPageSpec {
  /** Text lines in one column from the top-left margin. */
  lines?: string[];
  /**
   * Columns of lines laid side by side below `lines`, separated by a gutter. They are drawn
   * row by row across the columns, as many typesetters write them, so the content-stream order
   * is not the reading order.
   */
  columns?: string[][];
  /** Text at exact positions. */
  blocks?: PdfTextBlock[];
  /** Rectangles and an embedded PNG, and no text at all. */
  drawing?: boolean;
  fontSize?: number;
}

/** An outline entry: its title, the 1-based page and top its destination names, its children. */
export interface PdfOutlineEntry {
  title: string;
  page: number;
  top: number;
  children?: PdfOutlineEntry[];
}

export interface PdfOptions {
  /** The document information Title. */
  title?: string;
  outline?: PdfOutlineEntry[];
}

export async function buildPdf(pages: PdfPageSpec[], options: PdfOptions = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  if (options.title !== undefined) pdf.setTitle(options.title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const spec of pages) {
    const page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    const fontSize = spec.fontSize ?? 11;
    let top = PAGE_HEIGHT - MARGIN;
    if (spec.lines) {
      drawBlock(page, font, { x: MARGIN, y: top, lines: spec.lines, fontSize });
      top -= spec.lines.length * fontSize * 1.2 + fontSize * 2;
    }
    if (spec.columns) drawColumns(page, font, spec.columns, top, fontSize);
    for (const block of spec.blocks ?? []) drawBlock(page, font, { fontSize, ...block });
    if (spec.drawing) await drawShapes(pdf, page);
  }
  if (options.outline) addOutline(pdf, options.outline);
  return pdf.save();
}

/** The document's /Outlines: entries linked as siblings, each going to `[page /XYZ null top null]`. */
function addOutline(pdf: PDFDocument, entries: PdfOutlineEntry[]): void {
  const { context } = pdf;
  const pages = pdf.getPages();
  const link = (items: PdfOutlineEntry[], parent: PDFRef): { first: PDFRef; last: PDFRef } => {
    const refs = items.map(() => context.nextRef());
    items.forEach((item, i) => {
      const dict = context.obj({
        Title: PDFHexString.fromText(item.title),
        Parent: parent,
        Dest: [pages[item.page - 1]!.ref, 'XYZ', null, item.top, null],
      });
      if (i > 0) dict.set(PDFName.of('Prev'), refs[i - 1]!);
      if (i < refs.length - 1) dict.set(PDFName.of('Next'), refs[i + 1]!);
      if (item.children?.length) {
        const { first, last } = link(item.children, refs[i]!);
        dict.set(PDFName.of('First'), first);
        dict.set(PDFName.of('Last'), last);
        dict.set(PDFName.of('Count'), PDFNumber.of(item.children.length));
      }
      context.assign(refs[i]!, dict);
    });
    return { first: refs[0]!, last: refs.at(-1)! };
  };
  const root = context.nextRef();
  const { first, last } = link(entries, root);
  context.assign(root, context.obj({ Type: 'Outlines', First: first, Last: last, Count: entries.length }));
  pdf.catalog.set(PDFName.of('Outlines'), root);
}

export async function writePdf(
  path: string,
  pages: PdfPageSpec[],
  options: PdfOptions = {},
): Promise<string> {
  await writeFile(path, await buildPdf(pages, options));
  return path;
}

function drawBlock(page: PDFPage, font: PDFFont, block: PdfTextBlock): void {
  const size = block.fontSize ?? 11;
  const lineHeight = block.lineHeight ?? size * 1.2;
  block.lines.forEach((line, i) => {
    page.drawText(line, { x: block.x, y: block.y - i * lineHeight, size, font });
  });
}

function drawColumns(page: PDFPage, font: PDFFont, columns: string[][], top: number, size: number): void {
  const gutter = 36;
  const width = (PAGE_WIDTH - 2 * MARGIN - gutter * (columns.length - 1)) / columns.length;
  const rows = Math.max(...columns.map((lines) => lines.length));
  for (let row = 0; row < rows; row++) {
    columns.forEach((lines, i) => {
      const line = lines[row];
      if (line !== undefined) {
        page.drawText(line, { x: MARGIN + i * (width + gutter), y: top - row * size * 1.2, size, font });
      }
    });
  }
}

async function drawShapes(pdf: PDFDocument, page: PDFPage): Promise<void> {
  page.drawRectangle({ x: MARGIN, y: 400, width: 300, height: 200, color: rgb(0.2, 0.4, 0.8) });
  page.drawCircle({ x: 400, y: 200, size: 60, borderColor: rgb(0, 0, 0), borderWidth: 3 });
  const image = await pdf.embedPng(solidPng(64, 48, [200, 30, 30]));
  page.drawImage(image, { x: MARGIN, y: 100, width: 256, height: 192 });
}

/** A PNG of one colour, encoded here so tests need no image files. */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Uint8Array {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit depth, truecolour, default compression/filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
