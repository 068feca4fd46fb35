/**
 * Reading order for the text runs of one PDF page. A content stream may draw text in any order
 * (two-column pages are often written baseline by baseline across both columns), so the runs are
 * laid out again from their positions: runs on one baseline form segments, wide vertical gaps
 * shared by many segments are column gutters, and each column is read top-down before the next.
 * Full-width runs (titles, figure captions across columns) cut the page into bands.
 */
import { tableRowText } from '../structure.js';

/** One run of text in PDF user space: x and y are the start of its baseline, y grows upwards. */
export interface PositionedText {
  text: string;
  x: number;
  y: number;
  width: number;
  /** Font size, i.e. the glyph height. */
  size: number;
}

/** Runs on one baseline with no wide gap between them. */
interface Segment {
  text: string;
  x: number;
  end: number;
  y: number;
  size: number;
}

interface Gutter {
  start: number;
  end: number;
}

/** A gap wider than this many font sizes splits a baseline into segments (word gaps are narrower). */
const SEGMENT_GAP_EM = 0.8;
/** Runs whose baselines differ by less than this many font sizes sit on one line. */
const SAME_LINE_EM = 0.4;
/** A column is at least this many font sizes wide: narrower "columns" are table cells. */
const MIN_COLUMN_EM = 12;
const MIN_COLUMN_SEGMENTS = 3;
/** Text spread wider than this (in points, about 3.5 m) is not a page layout worth analysing. */
const MAX_PAGE_WIDTH = 10_000;

/** One line of a page: its text, baseline and font size. */
export interface PdfLine {
  text: string;
  y: number;
  size: number;
}

/** A paragraph's lines, top-down; `level` (1-6) when it is a section heading. */
export interface PdfParagraph {
  lines: PdfLine[];
  level?: number;
}

/** The page's paragraphs in reading order: a wider gap than usual or a change of size starts one. */
export function pageParagraphs(items: PositionedText[]): PdfParagraph[] {
  const segments = toSegments(items);
  if (segments.length === 0) return [];
  const gutters = findGutters(segments);
  return readingOrder(segments, gutters).flatMap(paragraphs);
}

/**
 * The page's text: paragraphs separated by a blank line, hyphenated breaks joined, a heading
 * written as a Markdown `#` heading of its level, as the chunker reads headings in every format.
 * Any other paragraph that would read as one (`# set terminal png`: a comment in a code listing)
 * is fenced as the code it is.
 */
export function pageText(paragraphs: readonly PdfParagraph[]): string {
  return paragraphs
    .map((p) => {
      const text = linesText(p.lines);
      if (p.level !== undefined) return `${'#'.repeat(p.level)} ${text}`;
      return /^#{1,6}\s/.test(text) ? `\`\`\`\n${text}\n\`\`\`` : text;
    })
    .join('\n\n');
}

export function linesText(lines: readonly PdfLine[]): string {
  return lines.reduce((text, line, i) => (i === 0 ? line.text : joinLines(text, line.text)), '');
}

function toSegments(items: PositionedText[]): Segment[] {
  const visible = items
    .filter((item) => item.text.trim() !== '' && item.size > 0)
    .sort((a, b) => b.y - a.y || a.x - b.x);
  const segments: Segment[] = [];
  for (const row of groupRows(visible, (item) => item)) {
    row.sort((a, b) => a.x - b.x);
    let current: Segment | undefined;
    for (const item of row) {
      const gap = current ? item.x - current.end : Infinity;
      if (current && gap <= SEGMENT_GAP_EM * item.size) {
        current.text = joinRun(current.text, item.text, gap > 0.15 * item.size);
        current.end = Math.max(current.end, item.x + item.width);
      } else {
        current = { text: item.text, x: item.x, end: item.x + item.width, y: item.y, size: item.size };
        segments.push(current);
      }
    }
  }
  return segments;
}

/** Groups things sorted top-down into rows sharing a baseline. */
function groupRows<T>(sorted: T[], position: (t: T) => { y: number; size: number }): T[][] {
  const rows: T[][] = [];
  let rowY = NaN;
  for (const thing of sorted) {
    const { y, size } = position(thing);
    const row = rows.at(-1);
    if (row && Math.abs(rowY - y) <= SAME_LINE_EM * size) row.push(thing);
    else {
      rows.push([thing]);
      rowY = y;
    }
  }
  return rows;
}

function joinRun(left: string, right: string, spaced: boolean): string {
  if (!spaced || /\s$/.test(left) || /^\s/.test(right)) return left + right;
  return `${left} ${right}`;
}

/**
 * Vertical bands of the page that almost no segment crosses, with enough text on both sides.
 * A few crossing segments (a title, a caption) are allowed: they are read as full-width text.
 */
function findGutters(segments: Segment[]): Gutter[] {
  const size = median(segments.map((s) => s.size));
  const left = Math.min(...segments.map((s) => s.x));
  const right = Math.max(...segments.map((s) => s.end));
  if (right - left > MAX_PAGE_WIDTH) return [];
  const coverage = new Int32Array(Math.ceil(right - left) + 1);
  for (const s of segments) {
    for (let b = Math.floor(s.x - left); b < Math.ceil(s.end - left); b++)
      coverage[b] = (coverage[b] ?? 0) + 1;
  }
  const allowance = Math.max(1, Math.floor(segments.length * 0.1));
  const candidates: Gutter[] = [];
  let runStart = -1;
  coverage.forEach((count, b) => {
    if (count <= allowance) {
      if (runStart < 0) runStart = b;
    } else if (runStart >= 0) {
      if (runStart > 0 && b - runStart >= SEGMENT_GAP_EM * size) {
        candidates.push({ start: left + runStart, end: left + b });
      }
      runStart = -1;
    }
  });
  return validColumns(segments, candidates, left, right, size);
}

/** Keeps the gutters only if every column they make looks like running text. */
function validColumns(segments: Segment[], gutters: Gutter[], left: number, right: number, size: number) {
  if (gutters.length === 0 || gutters.length > 3) return [];
  const bounds = [left, ...gutters.flatMap((g) => [g.start, g.end]), right];
  for (let c = 0; c <= gutters.length; c++) {
    const from = bounds[2 * c] ?? left;
    const to = bounds[2 * c + 1] ?? right;
    const inColumn = segments.filter((s) => !crossesAny(s, gutters) && columnOf(s, gutters) === c);
    if (to - from < MIN_COLUMN_EM * size || inColumn.length < MIN_COLUMN_SEGMENTS) return [];
    if (median(inColumn.map((s) => s.end - s.x)) < 0.5 * (to - from)) return [];
  }
  return gutters;
}

function crossesAny(segment: Segment, gutters: Gutter[]): boolean {
  return gutters.some((g) => segment.x < g.start && segment.end > g.end);
}

function columnOf(segment: Segment, gutters: Gutter[]): number {
  const centre = (segment.x + segment.end) / 2;
  return gutters.filter((g) => centre > (g.start + g.end) / 2).length;
}

/** Blocks of segments in reading order: each column of a band, then any full-width text below it. */
function readingOrder(segments: Segment[], gutters: Gutter[]): Segment[][] {
  const sorted = [...segments].sort((a, b) => b.y - a.y || a.x - b.x);
  if (gutters.length === 0) return [sorted];
  const blocks: Segment[][] = [];
  let columns: Segment[][] = gutters.map(() => []).concat([[]]);
  let fullWidth: Segment[] = [];
  const flushColumns = () => {
    blocks.push(...columns.filter((c) => c.length > 0));
    columns = columns.map(() => []);
  };
  for (const segment of sorted) {
    if (crossesAny(segment, gutters)) {
      if (fullWidth.length === 0) flushColumns();
      fullWidth.push(segment);
      continue;
    }
    if (fullWidth.length > 0) {
      blocks.push(fullWidth);
      fullWidth = [];
    }
    columns[columnOf(segment, gutters)]?.push(segment);
  }
  if (fullWidth.length > 0) blocks.push(fullWidth);
  flushColumns();
  return blocks;
}

/** A line with the segments it is made of: more than one, apart by wide gaps, are a table's cells. */
interface LaidLine extends PdfLine {
  x: number;
  cells: string[];
}

/** Baselines closer than this many font sizes are no line spacing (cells centred in a table row). */
const MIN_LEADING_EM = 0.95;
/** A size with fewer line gaps than this takes the block's usual gap, scaled to the size. */
const MIN_SIZE_GAPS = 3;

/** Sizes this close are one font size, set with one leading. */
function sameSize(a: number, b: number): boolean {
  return Math.abs(a - b) <= 0.1 * Math.max(a, b);
}

/**
 * A block's lines grouped into paragraphs; a wider gap than usual between lines of their size, or
 * a change of size, starts a new one. Each size has its usual gap: a listing set smaller with
 * tighter leading (8-point code 8.8 points apart beside 10-point text 12 apart) would otherwise
 * make every line of the text a paragraph of its own. A size with few gaps (two lines of a
 * heading's size, far apart) takes the block's usual gap in font sizes instead of its own. Gaps
 * narrower than a line (a table's cells centred 6 points below its row's top) are left out. A paragraph whose lines are mostly cells apart (an option list: "-digits n", a gap, "Default
 * output file precision [7]") is a table: each row a paragraph of its own, as tables of HTML pages
 * are.
 */
function paragraphs(block: Segment[]): PdfParagraph[] {
  const lines: LaidLine[] = groupRows(block, (s) => s).map((row) => {
    row.sort((a, b) => a.x - b.x);
    const first = row[0] as Segment;
    const cells = row.map((s) => s.text.trim());
    return { text: cells.join(' '), y: first.y, size: first.size, x: first.x, cells };
  });
  const pairs = lines
    .slice(1)
    .map((line, i) => ({ line, previous: lines[i] ?? line }))
    .filter(({ line, previous }) => previous.y - line.y >= MIN_LEADING_EM * line.size);
  const gapPerSize = pairs.map(({ line, previous }) => (previous.y - line.y) / line.size);
  const usualGapPerSize = gapPerSize.length > 0 ? percentile(gapPerSize, 0.25) : 0;
  const usualGaps = new Map<number, number>();
  const usualGap = (size: number): number => {
    let gap = usualGaps.get(size);
    if (gap === undefined) {
      const gaps = pairs
        .filter(({ line, previous }) => sameSize(line.size, size) && sameSize(previous.size, size))
        .map(({ line, previous }) => previous.y - line.y);
      gap = gaps.length >= MIN_SIZE_GAPS ? percentile(gaps, 0.25) : usualGapPerSize * size;
      usualGaps.set(size, gap);
    }
    return gap;
  };
  const result: PdfParagraph[] = [];
  lines.forEach((line, i) => {
    const previous = lines[i - 1];
    const gap = previous ? previous.y - line.y : 0;
    const newParagraph =
      !previous ||
      gap > Math.max(1.3 * usualGap(line.size), 1.15 * line.size) ||
      Math.abs(line.size - previous.size) > 0.2 * line.size;
    if (newParagraph) result.push({ lines: [line] });
    else result.at(-1)?.lines.push(line);
  });
  return result.flatMap((paragraph) => tableRows(paragraph.lines as LaidLine[]) ?? [paragraph]);
}

/** Longer cells are text, not the name of a column. */
const MAX_HEADER_CELL_CHARS = 40;

/**
 * A first row of short words without figures, over rows most of which hold a number in one of its
 * columns, names the columns ("Bit | plot | splot" over "4096 | polar | no effect"): its cells
 * label every row's, as an HTML table's header does. A list of names (colours) or of options
 * ("-p | --persist" over "-e | "command1; …"") has none.
 */
function columnHeaders(rows: readonly string[][]): string[] | undefined {
  const [first, ...below] = rows;
  if (!first || below.length < 2) return undefined;
  const names = first.every(
    (cell) => cell.length <= MAX_HEADER_CELL_CHARS && /^\p{L}/u.test(cell) && !/\d/.test(cell),
  );
  if (!names) return undefined;
  const figures = first.some((_, column) => {
    const withFigures = below.filter((row) => /^[-+]?\d/.test(row[column] ?? '')).length;
    return withFigures * 2 >= below.length;
  });
  return figures ? first : undefined;
}

/**
 * A paragraph of at least two lines, at least half of them cells apart, as one paragraph per row
 * (`cell | cell`, knowledge/structure.ts), each cell after its column's header when the first row
 * is one: joined into prose, an option list of a page runs its rows together into one sentence of
 * thousands of characters. A line of one cell that starts right of its row's first cell carries on
 * the row's last cell (a description wrapped); any other is a paragraph of its own.
 */
function tableRows(lines: readonly LaidLine[]): PdfParagraph[] | undefined {
  const rowCount = lines.filter((line) => line.cells.length > 1).length;
  if (rowCount < 2 || rowCount * 2 < lines.length) return undefined;
  // Rows, and runs of one-cell lines between them, which read on as prose.
  const parts: { row?: LaidLine; lines: LaidLine[] }[] = [];
  for (const line of lines) {
    const previous = parts.at(-1);
    if (line.cells.length > 1) parts.push({ row: { ...line, cells: [...line.cells] }, lines: [] });
    else if (previous?.row && line.x > previous.row.x + line.size) {
      const { cells } = previous.row;
      cells[cells.length - 1] = joinLines(cells.at(-1) ?? '', line.text);
    } else if (previous && !previous.row) previous.lines.push(line);
    else parts.push({ lines: [line] });
  }
  const rows = parts.flatMap((part) => (part.row ? [part.row] : []));
  const headers = columnHeaders(rows.map((row) => row.cells));
  return parts
    .filter((part) => !headers || part.row !== rows[0])
    .map((part) =>
      part.row
        ? {
            lines: [
              { text: tableRowText(headers ?? [], part.row.cells), y: part.row.y, size: part.row.size },
            ],
          }
        : { lines: part.lines.map(({ text, y, size }) => ({ text, y, size })) },
    );
}

/** Joins a line to the one before it, undoing a hyphenated break (`exam-` + `ple` = `example`). */
function joinLines(before: string, next: string): string {
  if (/\p{L}[-\u00AD]$/u.test(before) && /^\p{Ll}/u.test(next)) return before.slice(0, -1) + next;
  if (before.endsWith('\u00AD')) return before.slice(0, -1) + next;
  return `${before} ${next}`;
}

function median(values: number[]): number {
  return percentile(values, 0.5);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** A page's first or last paragraph repeated on at least this many pages (numbers aside) is a running header or footer. */
const RUNNING_MIN_PAGES = 3;
/** Running headers and footers are short: a title, a chapter name, a page number. */
const RUNNING_MAX_CHARS = 150;

/**
 * The pages without their running headers and footers ("Auto Multiple Choice 12 / 92",
 * "Chapter 2: Installing R under Unix-alikes 8", a lone page number): a first or last paragraph
 * that, numbers aside, opens or closes at least RUNNING_MIN_PAGES pages. They carry the manual's
 * or chapter's words into every passage and say nothing of the page's own.
 */
export function withoutRunningLines(pages: readonly string[]): string[] {
  const shape = (paragraph: string): string => paragraph.replace(/\d+/g, '#').trim();
  const ends = pages.map((text) => {
    const paragraphs = text.split('\n\n');
    return {
      paragraphs,
      first: paragraphs[0] ?? '',
      last: paragraphs.length > 1 ? (paragraphs.at(-1) ?? '') : '',
    };
  });
  const count = new Map<string, number>();
  for (const { first, last } of ends)
    for (const paragraph of new Set([first, last]))
      if (paragraph !== '' && paragraph.length <= RUNNING_MAX_CHARS)
        count.set(shape(paragraph), (count.get(shape(paragraph)) ?? 0) + 1);
  const running = (paragraph: string): boolean =>
    paragraph.length <= RUNNING_MAX_CHARS && (count.get(shape(paragraph)) ?? 0) >= RUNNING_MIN_PAGES;
  return ends.map(({ paragraphs }) => {
    let from = 0;
    let to = paragraphs.length;
    if (to - from > 1 && running(paragraphs[from] ?? '')) from++;
    if (to - from > 1 && running(paragraphs[to - 1] ?? '')) to--;
    return paragraphs.slice(from, to).join('\n\n');
  });
}
