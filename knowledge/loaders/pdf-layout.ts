/**
 * Reading order for the text runs of one PDF page. A content stream may draw text in any order
 * (two-column pages are often written baseline by baseline across both columns), so the runs are
 * laid out again from their positions: runs on one baseline form segments, wide vertical gaps
 * shared by many segments are column gutters, and each column is read top-down before the next.
 * Full-width runs (titles, figure captions across columns) cut the page into bands.
 */
import { DEFINITION_MARK, TABLE_ROW_SEPARATOR, tableRowText } from '../structure.js';

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
/**
 * A line gap wider than this many font sizes starts a paragraph, whatever the block's usual gap:
 * a title in a larger font than the text around it wraps at up to 1.27 (LaTeX's \Large: 17.28
 * points on 22).
 */
const NEW_PARAGRAPH_EM = 1.3;
/**
 * A term's description is indented at least this many font sizes further right than the term
 * (htmldoc's definition lists: 2.1 to 3.3); a paragraph's first-line indent (TeX's 15 points) and a
 * list item's text after its bullet are less.
 */
const HANGING_EM = 2;
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
  /** Where the line starts, when it was laid out from its runs. */
  x?: number;
}

/** A paragraph's lines, top-down; `level` (1-6) when it is a section heading. */
export interface PdfParagraph {
  lines: PdfLine[];
  level?: number;
  /** Its first line is a term, the lines below it the term's description, indented (HANGING_EM). */
  term?: boolean;
}

/** A table's column names and where they stand. */
interface TableHeader {
  labels: string[];
  columns: Span[];
}

/**
 * What the pages of one document read so far leave to the next: the header of the table a page
 * ends with, which a table continued at the top of the next page without its header takes on.
 */
export interface TableContext {
  /** The header of the last table of the page being read, while no text follows it. */
  last?: TableHeader;
  /** The previous page's, until the page's first table or first paragraphs are read. */
  carried?: TableHeader;
  /** Paragraphs read on the page so far. */
  paragraphs: number;
}

/**
 * The page's paragraphs in reading order: a wider gap than usual or a change of size starts one.
 * Pages of one document read in order with one `tables` context let a table go on across pages.
 */
export function pageParagraphs(
  items: PositionedText[],
  tables: TableContext = { paragraphs: 0 },
): PdfParagraph[] {
  tables.carried = tables.last;
  tables.last = undefined;
  tables.paragraphs = 0;
  const segments = withoutMarginNotes(toSegments(items));
  if (segments.length === 0) return [];
  const gutters = findGutters(segments);
  const result = readingOrder(segments, gutters).flatMap((block) => {
    const parts = sideBySideFlows(block);
    if (parts.length === 1) return paragraphs(block, tables);
    // Text around the flows keeps the paragraph spacing of the whole block; a flow has its own.
    const blockGaps = usualGaps(laidLines(block));
    return parts.flatMap((part) => paragraphs(part.segments, tables, part.flow ? undefined : blockGaps));
  });
  markRunInSettings(result);
  return result;
}

/**
 * A setting run in at the start of a list item's first line, before its description: a name of
 * at most five words, `=`, and one value or placeholder (`File Retention =
 * <time-period-specification> The File Retention directive …`, `Media Type = name-string The …`,
 * `onefs=yes|no If set …`), then the description's first word.
 */
const RUN_IN_SETTING =
  /^([A-Za-z][\w.-]*(?: [A-Za-z][\w.-]*){0,4} ?= ?(?:<[^<>]{1,40}>|[^\s<>=]{1,40}))\s+(?=[\p{L}\d(])/u;

/**
 * Makes a term of each setting run in at the start of a paragraph (RUN_IN_SETTING) whose other
 * lines hang HANGING_EM or more to the right of it, as a LaTeX description list sets its items:
 * the setting becomes the paragraph's first line, a term, and the rest of that line the first of
 * its description, where the hanging lines start. Its later paragraphs, kept to the hanging indent
 * (the item's "The default is 60 days." three paragraphs below `File Retention =`, or at the top
 * of the next page), continue the definition as any term's do (pageText).
 */
function markRunInSettings(paragraphs: PdfParagraph[]): void {
  for (const paragraph of paragraphs) {
    const [first, ...rest] = paragraph.lines;
    if (!first || first.x === undefined || paragraph.term || paragraph.level !== undefined) continue;
    const match = RUN_IN_SETTING.exec(first.text);
    if (!match) continue;
    // The paragraph's own lines hang: a line of prose above an indented example ("This plots
    // y=x with the title 'x':" over `plot x`) opens no entry.
    const starts = rest.map((line) => line.x);
    if (starts.length === 0 || starts.some((x) => x === undefined || x < first.x! + HANGING_EM * first.size))
      continue;
    paragraph.lines = [
      { ...first, text: match[1]! },
      { ...first, text: first.text.slice(match[0].length), x: Math.min(...(starts as number[])) },
      ...rest,
    ];
    paragraph.term = true;
  }
}

/**
 * The definitions a paragraph may continue: the terms open, outermost first, with where their
 * descriptions start. Pages of one document read in order with one context let a description go
 * on at the top of the next page.
 */
export interface TermContext {
  open: { term: string; descriptionX: number }[];
}

/**
 * The page's text: paragraphs separated by a blank line, hyphenated breaks joined, a heading
 * written as a Markdown `#` heading of its level, as the chunker reads headings in every format.
 * Any other paragraph that would read as one (`# set terminal png`: a comment in a code listing)
 * is fenced as the code it is, and so is a listing of settings, line by line. A call signature
 * stating defaults, above the paragraph describing it, is written as the term that paragraph
 * defines (a definition, knowledge/structure.ts), as the HTML loader writes an API entry: each
 * sentence of the description then says which call it describes and with which defaults. A term
 * hanging out of its indented description, or beside it, is written as the term that description
 * defines, too, and a later paragraph of text indented as that description is (after a list of
 * values nested in it: TIMEFORMAT's "%%", "%[p][l]R", then "If this variable is not set, …")
 * continues the definition, written under its term again (a passage cut from inside the
 * definition, or ranked for it, says which term it describes). So is a line
 * of options alone (`--with-statepath=PATH`) the term of the prose paragraphs below that describe
 * it, up to the next such line or heading (DBLaTeX sets configure options so), and a setting run
 * in before its description in a list item (markRunInSettings) the term its description and
 * later paragraphs define.
 */
export function pageText(paragraphs: readonly PdfParagraph[], terms: TermContext = { open: [] }): string {
  const texts = paragraphs.map((p) => (p.level === undefined ? linesText(p.lines) : undefined));
  const continued = (p: PdfParagraph, i: number): string | undefined => {
    const x = p.lines[0]?.x;
    const size = p.lines[0]?.size ?? 0;
    if (x === undefined) return undefined;
    // A page's running head (one line above the text) neither continues a description nor ends one.
    if (i === 0 && p.lines.length === 1) return undefined;
    const { open } = terms;
    while (open.length > 0 && x < (open.at(-1)?.descriptionX ?? 0) - size / 2) open.pop();
    const top = open.at(-1);
    if (!top || Math.abs(x - top.descriptionX) > size / 2) return undefined;
    if (p.lines.some((line) => line.x === undefined || line.x < top.descriptionX - size / 2))
      return undefined;
    return top.term;
  };
  // Whether each paragraph describes the option line above it, or carries that description on.
  const optionDescription = texts.map(() => false);
  texts.forEach((text, i) => {
    if (i === 0 || !(optionDescription[i - 1] || isOptionLine(paragraphs[i - 1]!, texts[i - 1]))) return;
    optionDescription[i] = describes(text) && !isOptionLine(paragraphs[i]!, text);
  });
  return paragraphs
    .map((p, i) => {
      const text = texts[i];
      if (text === undefined) {
        terms.open = [];
        return `${'#'.repeat(p.level!)} ${linesText(p.lines)}`;
      }
      if (optionDescription[i]) return `${DEFINITION_MARK}${text}`;
      if (isOptionLine(p, text) && optionDescription[i + 1]) return text;
      if (SIGNATURE.test(text) && describes(texts[i + 1]))
        return `${text}\n${DEFINITION_MARK}${texts[i + 1]}`;
      const previous = texts[i - 1];
      if (previous !== undefined && SIGNATURE.test(previous) && describes(text)) return undefined;
      if (p.term) {
        const [termLine, ...description] = p.lines;
        const term = termLine?.text ?? '';
        // The description's margin: its lines may indent a signature further (`ulimit [-HS] -a`).
        const xs = description.flatMap((line) => (line.x === undefined ? [] : [line.x]));
        if (termLine?.x !== undefined && xs.length > 0) {
          // Inside the definitions whose descriptions the term is indented under.
          terms.open = terms.open.filter((outer) => outer.descriptionX <= termLine.x! + termLine.size / 2);
          terms.open.push({ term, descriptionX: Math.min(...xs) });
        }
        return `${term}\n${DEFINITION_MARK}${linesText(description)}`;
      }
      const continuing = !isSettingsListing(p.lines) && !/^#{1,6}\s/.test(text) ? continued(p, i) : undefined;
      if (continuing !== undefined) {
        return `${continuing}\n${DEFINITION_MARK}${text}`;
      }
      if (isSettingsListing(p.lines)) return `\`\`\`\n${p.lines.map((line) => line.text).join('\n')}\n\`\`\``;
      return /^#{1,6}\s/.test(text) ? `\`\`\`\n${text}\n\`\`\`` : text;
    })
    .filter((text) => text !== undefined)
    .join('\n\n');
}

/**
 * A call signature with keyword defaults, as an API manual sets it above its description:
 * `Frame(x1, y1, width, height, leftPadding=6, id=None)`, `def __init__(self, strength=40):`.
 */
const SIGNATURE =
  /^(?:def\s+|class\s+)?[A-Za-z_][\w.]*\s*\((?=[^()]*\b[A-Za-z_]\w*\s*=[^=])(?:[^()]|\([^()]*\))*\)\s*:?$/;

/**
 * A line of command-line or configure options alone, as a manual sets an option above the
 * paragraphs describing it: `--with-statepath=PATH`, `--sbindir=PATH --bindir=PATH`, `-DD`,
 * `--with-drivers=<driver>[,<driver>]`, `-o file, --output=file`.
 */
const OPTION_LINE =
  /^-{1,2}[A-Za-z\d][\w.-]*(?:[= ](?:<[^<>]+>|[A-Z][A-Z_\d]*|\w+))?(?:[= ]?\[[^\]]*\])*(?:,?\s+-{1,2}[A-Za-z\d][\w.-]*(?:[= ](?:<[^<>]+>|[A-Z][A-Z_\d]*|\w+))?(?:[= ]?\[[^\]]*\])*)*$/;

/**
 * A key of a key=value interface with its value's placeholder, as a LaTeX package's manual sets it
 * above the paragraphs describing it, its default at the right margin: `numbersep=〈dimension〉 10pt`,
 * `emptylines=[*]〈number〉`, `style=<name> {}`. The placeholder in angle brackets or braces tells
 * it from an assignment in prose or code.
 */
const KEY_LINE = /^[A-Za-z][\w-]*=(?:\[\*?\])?[〈<{][^.!?]*$/u;
/** A key line is a name and its default, not a line of prose: at most this long. */
const MAX_KEY_LINE_CHARS = 100;

/** Whether a paragraph is one line of options alone: the term of the paragraphs describing it. */
const isOptionLine = (paragraph: PdfParagraph, text: string | undefined): boolean =>
  paragraph.lines.length === 1 &&
  text !== undefined &&
  (OPTION_LINE.test(text) || (text.length <= MAX_KEY_LINE_CHARS && KEY_LINE.test(text)));

/** Whether a paragraph is prose describing the signature above it: "creates a Frame instance …". */
const describes = (text: string | undefined): boolean =>
  text !== undefined && /^\p{L}/u.test(text) && !SIGNATURE.test(text) && /[.!?:]$/.test(text);

/**
 * A line setting a name: `allowWidows = 1`, `'fontSize': 10,` (a dictionary's entry). A keyword
 * argument of a call written one a line (`pageCompression=0,`) is a signature's, not a setting.
 */
const SETTING_LINE = /^\s*(?:[A-Za-z_][\w.]*\s*=(?!=).*[^,(\s]\s*$|(['"])[A-Za-z_][\w.-]*\1\s*:)/;
/** A listing of settings has this many lines at least, and nearly all of them set a name. */
const MIN_SETTINGS = 3;
const SETTINGS_SHARE = 0.75;

/**
 * Whether a paragraph is a listing of settings (a style's attributes, one `name = value` a line,
 * or a dictionary of defaults): its lines are what it says, each a setting of its own, where
 * joined into one line it runs to thousands of characters that no sentence of an answer quotes.
 */
function isSettingsListing(lines: readonly PdfLine[]): boolean {
  if (lines.length < MIN_SETTINGS) return false;
  const settings = lines.filter((line) => SETTING_LINE.test(line.text)).length;
  return settings >= MIN_SETTINGS && settings >= SETTINGS_SHARE * lines.length;
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
    // The last run on the segment's baseline, and whether the runs since are a superscript.
    let base: PositionedText | undefined;
    let raised = false;
    for (const item of row) {
      const gap = current ? item.x - current.end : Infinity;
      if (current && base && gap <= SEGMENT_GAP_EM * item.size) {
        const superscript = isSuperscript(item, base);
        const marker = superscript && !raised ? '^' : '';
        current.text = joinRun(current.text, marker + item.text, !marker && gap > 0.15 * item.size);
        current.end = Math.max(current.end, item.x + item.width);
        raised = superscript;
        if (!superscript) base = item;
      } else {
        current = { text: item.text, x: item.x, end: item.x + item.width, y: item.y, size: item.size };
        segments.push(current);
        base = item;
        raised = false;
      }
    }
  }
  return segments;
}

/** A margin note is set this much smaller than the text beside it at most… */
const MARGIN_NOTE_SIZE = 0.85;
/** …stands at least this many of the text's font sizes left or right of where its lines start or end… */
const MARGIN_NOTE_GAP_EM = 0.5;
/** …and at most this many from the baseline of a line of the text, which it annotates. */
const MARGIN_NOTE_REACH_EM = 1.5;
/** A page of fewer segments of text (a title page) has no text block to set notes beside. */
const MIN_TEXT_SEGMENTS = 10;

/**
 * The page's segments without its margin notes: runs in a smaller font than the page's text, set
 * in the margin beside its lines (LaTeX's \marginpar: KOMA-Script's version tags `v3.00`, `v3.12`
 * and the class names `scrbook,` / `scrreprt` beside the paragraphs they annotate), left of where
 * the text's lines start or right of where they end, with nothing of their size beside them on
 * their baseline. Read as part of the text, a note cut the paragraph at every line it stood beside,
 * and read as a term beside a description: the text's sentences were split and labelled with
 * it. A table in a small font, wider than the text, keeps its cells: each has cells of its size
 * beside it.
 */
function withoutMarginNotes(segments: Segment[]): Segment[] {
  const size = median(segments.map((s) => s.size));
  // Where the text's lines start and end, notes (smaller than most of the page's text) aside.
  const text = segments.filter((s) => s.size > MARGIN_NOTE_SIZE * size);
  if (text.length === segments.length || text.length < MIN_TEXT_SEGMENTS) return segments;
  const start = percentile(
    text.map((s) => s.x),
    0.1,
  );
  const end = percentile(
    text.map((s) => s.end),
    0.9,
  );
  const gap = MARGIN_NOTE_GAP_EM * size;
  const outside = (s: Segment): boolean => s.end + gap <= start || s.x >= end + gap;
  const smaller = (note: Segment, s: Segment): boolean => note.size <= MARGIN_NOTE_SIZE * s.size;
  const near = (note: Segment, s: Segment): boolean =>
    Math.abs(s.y - note.y) <= MARGIN_NOTE_REACH_EM * s.size;
  const notes = new Set(
    segments.filter(
      (note) =>
        outside(note) &&
        segments.some((s) => !outside(s) && smaller(note, s) && near(note, s)) &&
        // Apart from the text: a footnote's mark touches its text.
        !segments.some(
          (s) =>
            !outside(s) && smaller(note, s) && near(note, s) && s.x < note.end + gap && s.end + gap > note.x,
        ) &&
        !segments.some(
          (s) =>
            s !== note &&
            !outside(s) &&
            !smaller(note, s) &&
            Math.abs(s.y - note.y) <= SAME_LINE_EM * Math.max(s.size, note.size),
        ),
    ),
  );
  return notes.size === 0 ? segments : segments.filter((s) => !notes.has(s));
}

/** A superscript is smaller than its base by this factor at least… */
const SUPERSCRIPT_SIZE = 0.85;
/** …and its baseline is raised by this many of the base's font sizes at least. */
const SUPERSCRIPT_RISE_EM = 0.2;

/**
 * A smaller run raised above the baseline of the run before it, holding a short exponent, index or
 * note mark (`10` `12`, `10` `−` `3`, `cm` `2`): written after a `^` (`10^12`, `10^−3`, `cm^2`),
 * since joined to its base it reads as another number (`1012`). Raised symbols (`◦C`) are left.
 */
function isSuperscript(item: PositionedText, base: PositionedText): boolean {
  return (
    item.size <= SUPERSCRIPT_SIZE * base.size &&
    item.y - base.y >= SUPERSCRIPT_RISE_EM * base.size &&
    /^[-−+]?[\p{L}\p{N}]{0,6}$/u.test(item.text) &&
    item.text !== ''
  );
}

/**
 * Groups things sorted top-down into rows sharing a baseline: the baseline of a row's largest text,
 * so that a superscript or a smaller run above it (`cm` `2` beside `UO`) does not start a row.
 */
function groupRows<T>(sorted: T[], position: (t: T) => { y: number; size: number }): T[][] {
  const rows: T[][] = [];
  let rowY = NaN;
  let rowSize = 0;
  for (const thing of sorted) {
    const { y, size } = position(thing);
    const row = rows.at(-1);
    if (row && Math.abs(rowY - y) <= SAME_LINE_EM * Math.max(size, rowSize)) {
      row.push(thing);
      if (size > rowSize) [rowY, rowSize] = [y, size];
    } else {
      rows.push([thing]);
      [rowY, rowSize] = [y, size];
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

/** Side-by-side flows hold at least this many lines each, and a run of lines split in two as many. */
const MIN_FLOW_LINES = 3;
/** Baselines closer than this many font sizes meet: a table's cells on one row. */
const MEETING_BASELINE_EM = 0.1;
/** A flow's lines are set at most this many font sizes apart, as a rule. */
const MAX_LEADING_EM = 2;
/** A gap this many font sizes tall across a run of lines ends it. */
const MAX_FLOW_GAP_EM = 2.5;
/** Two flows side by side meet on at most this share of the smaller one's baselines; a table's columns on most. */
const MAX_MEETING_SHARE = 0.3;

/**
 * A block with its side-by-side flows read one after the other: a run of lines that a vertical
 * gap splits all the way down, whose two sides are set on baselines of their own (a listing of a
 * style's settings beside the paragraph it formats, code beside its output, a figure beside its
 * text), is the left side's text, then the right side's. Laid out by baseline, such a run reads
 * a line of one side, then a line of the other. A table's columns share their rows' baselines and
 * stay together; so does a page of full-width text, which no gap splits.
 */
function sideBySideFlows(block: Segment[]): { segments: Segment[]; flow: boolean }[] {
  const rows = groupRows(
    [...block].sort((a, b) => b.y - a.y || a.x - b.x),
    (s) => s,
  );
  if (rows.length < MIN_FLOW_LINES) return [{ segments: block, flow: false }];
  const size = median(block.map((s) => s.size));
  const minGap = SEGMENT_GAP_EM * size;
  const result: { segments: Segment[]; flow: boolean }[] = [];
  const apart = (above: number, below: number, most = MAX_FLOW_GAP_EM): boolean =>
    rowTop(rows[above] as Segment[]) - rowTop(rows[below] as Segment[]) > most * size;
  // Rows from `pending` to `i` are read as they lie.
  let pending = 0;
  let i = 0;
  while (i < rows.length) {
    // The gaps between the cells of line i shared by the lines below it, as far as one is.
    let gaps = rowGaps(rows[i] as Segment[], minGap).filter(
      (gap) => Number.isFinite(gap.start) && Number.isFinite(gap.end),
    );
    let j = i + 1;
    for (; j < rows.length && gaps.length > 0; j++) {
      // A blank band across both sides (below a running header, between figures) ends the run.
      if (apart(j - 1, j)) break;
      const shared = sharedGaps(gaps, rowGaps(rows[j] as Segment[], minGap), minGap);
      if (shared.length === 0) break;
      gaps = shared;
    }
    const split = j - i >= MIN_FLOW_LINES ? splitFlows(rows.slice(i, j).flat(), gaps, size) : undefined;
    if (!split) {
      i++;
      continue;
    }
    // The flows' first lines above the first line with both sides (one side may start lower),
    // one line apart: the last line of a paragraph above the flows stands further off.
    let from = i;
    while (
      from > pending &&
      !apart(from - 1, from, MAX_LEADING_EM) &&
      oneSided(rows[from - 1] as Segment[], split.gap)
    )
      from--;
    const extended = from < i ? splitFlows(rows.slice(from, j).flat(), [split.gap], size) : undefined;
    if (!extended) from = i;
    const [left, right] = extended?.flows ?? split.flows;
    if (from > pending) result.push({ segments: rows.slice(pending, from).flat(), flow: false });
    result.push({ segments: left, flow: true }, { segments: right, flow: true });
    pending = i = j;
  }
  if (pending < rows.length) result.push({ segments: rows.slice(pending).flat(), flow: false });
  return result;
}

/** Whether a gap leaves each segment of a row on one side of it. */
const oneSided = (row: readonly Segment[], gap: Gutter): boolean =>
  row.every((s) => s.end <= gap.start || s.x >= gap.end);

/** A row's highest baseline. */
const rowTop = (row: readonly Segment[]): number => Math.max(...row.map((s) => s.y));

/** The gaps between a line's segments at least `minGap` wide, and the open space left and right of it. */
function rowGaps(row: Segment[], minGap: number): Gutter[] {
  const sorted = [...row].sort((a, b) => a.x - b.x);
  const gaps: Gutter[] = [];
  let end = -Infinity;
  for (const segment of sorted) {
    if (end > -Infinity && segment.x - end >= minGap) gaps.push({ start: end, end: segment.x });
    end = Math.max(end, segment.end);
  }
  // Left and right of the line: open, as a line of one side of a split leaves the other side empty.
  return [{ start: -Infinity, end: sorted[0]?.x ?? Infinity }, ...gaps, { start: end, end: Infinity }];
}

function sharedGaps(a: readonly Gutter[], b: readonly Gutter[], minGap: number): Gutter[] {
  const shared: Gutter[] = [];
  for (const g of a)
    for (const h of b) {
      const start = Math.max(g.start, h.start);
      const end = Math.min(g.end, h.end);
      if (end - start >= minGap) shared.push({ start, end });
    }
  return shared;
}

/** The two flows a shared gap splits the segments into, when each side has lines of its own. */
function splitFlows(
  segments: Segment[],
  gaps: readonly Gutter[],
  size: number,
): { flows: [Segment[], Segment[]]; gap: Gutter } | undefined {
  for (const gap of gaps) {
    const left = segments.filter((s) => s.end <= gap.start);
    const right = segments.filter((s) => s.x >= gap.end);
    const leftLines = baselines(left);
    const rightLines = baselines(right);
    if (!running(left, leftLines) || !running(right, rightLines)) continue;
    const [fewer, more] =
      leftLines.length <= rightLines.length ? [leftLines, rightLines] : [rightLines, leftLines];
    const meeting = fewer.filter((y) =>
      more.some((other) => Math.abs(other - y) <= MEETING_BASELINE_EM * size),
    );
    if (meeting.length <= MAX_MEETING_SHARE * fewer.length) return { flows: [left, right], gap };
  }
  return undefined;
}

/**
 * Whether the segments are lines of running text: enough of them, most set one line below the
 * last (a table's cells, one per row, stand rows apart).
 */
function running(segments: readonly Segment[], lines: readonly number[]): boolean {
  if (lines.length < MIN_FLOW_LINES) return false;
  const sorted = [...lines].sort((a, b) => b - a);
  const gaps = sorted.slice(1).map((y, i) => (sorted[i] as number) - y);
  return median(gaps) <= MAX_LEADING_EM * median(segments.map((s) => s.size));
}

/** The distinct baselines of some segments. */
function baselines(segments: readonly Segment[]): number[] {
  const ys: number[] = [];
  for (const { y } of segments) if (!ys.some((other) => Math.abs(other - y) < 0.01)) ys.push(y);
  return ys;
}

/** A cell of a line: a segment's text and where it spans. */
interface Span {
  text: string;
  x: number;
  end: number;
}

/** A line with the segments it is made of: more than one, apart by wide gaps, are a table's cells. */
interface LaidLine extends PdfLine {
  x: number;
  cells: string[];
  spans: Span[];
}

/** Baselines closer than this many font sizes are no line spacing (cells centred in a table row). */
const MIN_LEADING_EM = 0.95;
/** A size with fewer line gaps than this takes the block's usual gap, scaled to the size. */
const MIN_SIZE_GAPS = 3;

/**
 * A glyph that opens a line, set apart from its text, and that the font maps to a C1 control
 * character: a symbol font's bullet without a Unicode name (the GNU Prolog manual's Type 3 bullet
 * reads as U+0088, in pdftotext too). No text opens a line with a control character.
 */
const UNNAMED_BULLET = /^[\u0080-\u009F](?=\s)/;

/** A block's lines, top-down, each with its cells; a line opening with an unnamed bullet opens with "•". */
function laidLines(block: Segment[]): LaidLine[] {
  return groupRows(block, (s) => s).map((row) => {
    row.sort((a, b) => a.x - b.x);
    const first = row[0] as Segment;
    const spans = row.map((s, i) => {
      const text = s.text.trim();
      return { text: i === 0 ? text.replace(UNNAMED_BULLET, '•') : text, x: s.x, end: s.end };
    });
    const cells = spans.map((span) => span.text);
    return { text: cells.join(' '), y: first.y, size: first.size, x: first.x, cells, spans };
  });
}

/**
 * The usual gap between the lines of each font size of a block: a size with few gaps (two lines
 * of a heading's size, far apart) takes the block's usual gap in font sizes instead of its own.
 * Gaps narrower than a line (a table's cells centred 6 points below its row's top) are left out.
 */
function usualGaps(lines: readonly LaidLine[]): (size: number) => number {
  const pairs = lines
    .slice(1)
    .map((line, i) => ({ line, previous: lines[i] ?? line }))
    .filter(({ line, previous }) => previous.y - line.y >= MIN_LEADING_EM * line.size);
  const gapPerSize = pairs.map(({ line, previous }) => (previous.y - line.y) / line.size);
  const usualGapPerSize = gapPerSize.length > 0 ? percentile(gapPerSize, 0.25) : 0;
  const known = new Map<number, number>();
  return (size: number): number => {
    let gap = known.get(size);
    if (gap === undefined) {
      const gaps = pairs
        .filter(({ line, previous }) => sameSize(line.size, size) && sameSize(previous.size, size))
        .map(({ line, previous }) => previous.y - line.y);
      gap = gaps.length >= MIN_SIZE_GAPS ? percentile(gaps, 0.25) : usualGapPerSize * size;
      known.set(size, gap);
    }
    return gap;
  };
}

/** Sizes this close are one font size, set with one leading. */
function sameSize(a: number, b: number): boolean {
  return Math.abs(a - b) <= 0.1 * Math.max(a, b);
}

/**
 * A block's lines grouped into paragraphs; a wider gap than usual between lines of their size, or
 * a change of size, starts a new one. Each size has its usual gap: a listing set smaller with
 * tighter leading (8-point code 8.8 points apart beside 10-point text 12 apart) would otherwise
 * make every line of the text a paragraph of its own (`usualGaps`; text around side-by-side
 * flows takes its whole block's). A term hanging out of its indented description is a paragraph
 * of its own with that description (withTerms). A paragraph whose lines are mostly cells apart
 * (an option list: "-digits n", a gap, "Default output file precision [7]") is a table: each row
 * a paragraph of its own, as tables of HTML pages are.
 */
function paragraphs(
  block: Segment[],
  tables: TableContext,
  usualGap: (size: number) => number = usualGaps(laidLines(block)),
): PdfParagraph[] {
  const lines = laidLines(block);
  const result: PdfParagraph[] = [];
  lines.forEach((line, i) => {
    const previous = lines[i - 1];
    const gap = previous ? previous.y - line.y : 0;
    const newParagraph =
      !previous ||
      gap > Math.max(1.3 * usualGap(line.size), NEW_PARAGRAPH_EM * line.size) ||
      Math.abs(line.size - previous.size) > 0.2 * line.size ||
      BULLET.test(line.text);
    if (newParagraph) result.push({ lines: [line] });
    else result.at(-1)?.lines.push(line);
  });
  const right = Math.max(...lines.map((line) => line.spans.at(-1)?.end ?? line.x));
  // A header row ("Menu Item", a gap, "Description") heads a table whose rows, one paragraph each
  // when the table spaces them, hold a name beside its text as a definition list does: they stay
  // the rows of a table, not terms beside their descriptions, down to the block's end (a note
  // may stand between rows).
  let header: Span[] | undefined;
  return result
    .flatMap((whole) => {
      const first = whole.lines[0] as LaidLine;
      if (!header && isHeaderRow(whole.lines as LaidLine[])) header = first.spans;
      const row = header !== undefined && alignedWith(first, header);
      return withTerms(whole.lines as LaidLine[], right, !row);
    })
    .flatMap((paragraph) => {
      if (paragraph.term) {
        tables.last = undefined;
        tables.paragraphs++;
        return [paragraph];
      }
      const rows = tableRows(paragraph.lines as LaidLine[], tables);
      if (rows) tables.carried = undefined;
      else if (paragraph.lines.length > 1 || linesText(paragraph.lines).length > RUNNING_MAX_CHARS) {
        // Text after a table ends it; a short line (a page number, a running footer) does not.
        tables.last = undefined;
      }
      tables.paragraphs += rows?.length ?? 1;
      return rows ?? [paragraph];
    });
}

/**
 * A bullet opening a line starts a list item, however close the line is to the one above: on a
 * page of one-line paragraphs the usual gap is a paragraph's, and the items of a list set a little
 * closer would otherwise read as one paragraph ("• OS name and version, • exact NUT version, …").
 */
const BULLET = /^[•◦▪▫●○■□‣⁃∙]\s/u;

/** Whether every bracket a text opens it closes, as a name does and a line of a call broken over lines does not. */
function balanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char) && --depth < 0) return false;
  }
  return depth === 0;
}

/** A term is a name of a few words: a longer line is prose. */
const MAX_TERM_CHARS = 60;

/** An option naming its value: `--include=dir`, `--warnings=category[,category...]`. */
const OPTION_WITH_VALUE = /^-{1,2}[A-Za-z\d][\w-]*=[^\s=]+$/;

/** Whether a line is a name (a term), not a line of prose or code: see withTerms. */
function isName(line: LaidLine, right: number): boolean {
  const { text } = line;
  return (
    line.spans.length === 1 &&
    (line.spans[0]?.end ?? right) <= right &&
    // An option's synopsis names each spelling with its placeholders (`-g [<file>][:<line>], --sub-goal=…`).
    (text.length <= MAX_TERM_CHARS || (text.length <= MAX_KEY_LINE_CHARS && OPTION_LINE.test(text))) &&
    /^[\p{L}\d$*.-]/u.test(text) &&
    /\p{L}/u.test(text) &&
    !/[.!?]\s|'''|,\s+\p{L}/u.test(text) &&
    // An option's value placeholder (`--trace=macro[:format]`), not an assignment.
    (!text.includes('=') || OPTION_WITH_VALUE.test(text) || OPTION_LINE.test(text)) &&
    (!/[.,;:!?{([]$/.test(text) || /\p{L}(?:\.\.\.|…)$/u.test(text)) &&
    balanced(text)
  );
}

/** Most names one entry of a definition list stacks above its description (Texinfo's `@item` and its `@itemx`). */
const MAX_STACKED_NAMES = 4;

/** A definition's category, in brackets: `[Macro]`, `[Command]`, `[Function]`, `[User Option]`. */
const DEFINITION_CATEGORY = /^\[\p{Lu}[\p{L} -]{0,30}\]$/u;

/**
 * Texinfo's definition line (`@deffn`, `@defmac`, `@defvar`): the name defined with its
 * arguments, and its category in brackets at the right margin ("AC_PREREQ (version)", a gap,
 * "[Macro]"), over its indented description. The line as one run, or nothing for any other line:
 * the name is the term the description defines, though its arguments read as a list ("AC_INIT
 * (package, version, [bug-report], [tarname], [url])") where a term's words do not; its category
 * stays, since a question may ask for one by it ("Which macro changes the default prefix?").
 */
function definitionLine(line: LaidLine, right: number): LaidLine | undefined {
  if (line.spans.length !== 2) return undefined;
  const [name, category] = line.spans as [Span, Span];
  if (!DEFINITION_CATEGORY.test(category.text) || category.end < right - line.size) return undefined;
  if (!/^[\p{L}_$@%.-]/u.test(name.text) || !balanced(name.text) || /[.!?]$/.test(name.text))
    return undefined;
  const text = `${name.text} ${category.text}`;
  return { ...line, text, cells: [text], spans: [{ ...name, text, end: category.end }] };
}

/**
 * A paragraph's lines with each term hanging out of its description made a paragraph of its own,
 * the term first (`term: true`): the term is one line, a name rather than a line of prose or code
 * (one run of text of at most MAX_TERM_CHARS, stopping well short of the block's right edge,
 * holding no sentence's end, assignment or open bracket, not ending as a clause or a block's
 * opening line does, though a menu entry's ellipsis may end it: "Search/Replace...") that starts
 * the paragraph or stands left of the description above it, and the lines below it, words not
 * cells apart, start HANGING_EM further right until a line comes
 * back left. "rulerthick (RulerThick)" above "Set the thickness of top and side rulers.
 * / Option: -rulerthick / Default: 24 (pixels)", then the next resource: htmldoc's definition
 * lists have no space between entries, and read as one paragraph each entry's last line ("Default:
 * 24 (pixels)") runs on into the next entry's term and first sentence.
 */
function withTerms(lines: readonly LaidLine[], right: number, termsBeside = true): PdfParagraph[] {
  const runIn = termsBeside ? runInTerm(lines, right) : undefined;
  if (runIn) return [runIn];
  const result: PdfParagraph[] = [];
  let rest: LaidLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as LaidLine;
    const defined = definitionLine(line, right);
    const indent = HANGING_EM * line.size;
    // Texinfo's `@itemx`: more names of the entry, one a line under the first ("--trace=macro[:format]" over "-t macro[:format]").
    let start = i + 1;
    while (
      defined === undefined &&
      start < lines.length &&
      start - i < MAX_STACKED_NAMES &&
      Math.abs((lines[start] as LaidLine).x - line.x) <= line.size / 2 &&
      isName(lines[start] as LaidLine, right - indent)
    )
      start++;
    const names = lines.slice(i, start);
    const namesText = names.map((name) => name.text).join(', ');
    const first: LaidLine = defined ?? { ...line, text: namesText, cells: [namesText] };
    let end = start;
    while (end < lines.length && (lines[end] as LaidLine).x >= first.x + indent) end++;
    const above = lines[i - 1];
    const description = lines.slice(start, end);
    const term =
      description.length > 0 &&
      // A line of options may follow the sentence ending the prose above it at the same margin.
      (above === undefined ||
        above.x >= first.x + indent ||
        (OPTION_LINE.test(first.text) && /[.:!?]$/.test(above.text))) &&
      (defined !== undefined || names.every((name) => isName(name, right - indent))) &&
      // A justified line may hold a gap as wide as a table's between two words: near the right edge.
      description.every((line) => line.spans.slice(1).every((span) => span.end >= right - line.size)) &&
      description.some((line) => /\p{L}/u.test(line.text));
    if (!term) {
      rest.push(line);
      continue;
    }
    if (rest.length > 0) result.push({ lines: rest });
    rest = [];
    result.push({ lines: [first, ...description], term: true });
    i = end - 1;
  }
  if (rest.length > 0) result.push({ lines: rest });
  return result;
}

/**
 * A paragraph that is one entry of a definition list whose short term sits in the left column
 * beside the first line of its description (Texinfo's `@table`: "PS3", a gap, "The value of this
 * variable is used as the prompt for the select command. If", the description's other lines under
 * its first): the term a name (see isName), the description starting HANGING_EM or more further
 * right, every other line aligned with it (a justified line may hold a wide gap between words,
 * but a table's next row starts left, under the term). It is written as the term that
 * description defines, as a term hanging above its description is; without the term, only the
 * description's first sentence, which holds the term as its first word, says which entry the
 * others describe ("If this variable is not set, the select command prompts with ‘#? ’"). A
 * paragraph holding several lines of cells is a table, each line a row, and is left to tableRows.
 */
function runInTerm(lines: readonly LaidLine[], right: number): PdfParagraph | undefined {
  const [first, ...below] = lines;
  if (first?.spans.length !== 2) return undefined;
  const [term, start] = first.spans as [Span, Span];
  if (start.x < term.x + HANGING_EM * first.size || term.text.endsWith('-')) return undefined;
  const termLine: LaidLine = { ...first, text: term.text, cells: [term.text], spans: [term] };
  if (!isName(termLine, right - HANGING_EM * first.size)) return undefined;
  if (below.some((line) => Math.abs(line.x - start.x) > first.size / 2)) return undefined;
  const description: LaidLine = {
    ...first,
    x: start.x,
    text: start.text,
    cells: [start.text],
    spans: [start],
  };
  if (![description, ...below].some((line) => /\p{L}/u.test(line.text))) return undefined;
  return { lines: [termLine, description, ...below], term: true };
}

/** Most words of a column's name in a header row. */
const MAX_HEADER_WORDS = 3;

/** A line of two cells naming columns: a few capitalised words each, no sentence ("Menu Item", "Description"). */
function isHeaderRow(lines: readonly LaidLine[]): boolean {
  const [line] = lines;
  return (
    lines.length === 1 &&
    line?.spans.length === 2 &&
    line.spans.every(
      (span) =>
        /^\p{Lu}/u.test(span.text) &&
        !/[.:;!?,]$/.test(span.text) &&
        span.text.split(/\s+/).length <= MAX_HEADER_WORDS,
    )
  );
}

/** Whether a line is a row under a header: as many cells, the first where the header's starts (a header may centre the others). */
const alignedWith = (line: LaidLine, header: readonly Span[]): boolean =>
  line.spans.length === header.length && Math.abs(line.x - (header[0]?.x ?? line.x)) <= line.size / 2;

/** A table continued from the page before starts below at most this many paragraphs (a running header). */
const CONTINUED_TABLE_MAX_ABOVE = 2;

/** Longer cells are text, not the name of a column. */
const MAX_HEADER_CELL_CHARS = 40;

/**
 * A first row of short words without figures, over rows most of which hold a number in one of its
 * columns, names the columns ("Bit | plot | splot" over "4096 | polar | no effect"): its cells
 * label every row's, as an HTML table's header does. So does a first row of capitalised words over
 * rows nearly all of which open one of its columns otherwise, in lowercase or with a symbol
 * ("Suffix of the file | Type of the file | Handled by:" over ".pl, .pro, .prolog | Prolog source
 * file | pl2wam"; "Type | Speed" over "byte-code | medium"). A list of names (colours) or of
 * options ("-p | --persist" over "-e | "command1; …"") has none.
 */
function columnHeaders(rows: readonly string[][]): string[] | undefined {
  const [first, ...below] = rows;
  if (!first || below.length < 2) return undefined;
  const names = first.every(
    (cell) => cell.length <= MAX_HEADER_CELL_CHARS && /^\p{L}/u.test(cell) && !/\d/.test(cell),
  );
  if (!names) return undefined;
  const capitalised = first.every((cell) => /^\p{Lu}/u.test(cell));
  const named = first.some((_, column) => {
    const values = below.map((row) => row[column] ?? '');
    const withFigures = values.filter((value) => /^[-+]?\d/.test(value)).length;
    const uncapitalised = values.filter((value) => /^[^\p{Lu}\s]/u.test(value)).length;
    return withFigures * 2 >= below.length || (capitalised && uncapitalised * 4 >= below.length * 3);
  });
  return named ? first : undefined;
}

/**
 * Whether the rows of a table without a header fit the columns of the previous page's last table:
 * at the top of the page, each row with its first cell under the first column's name and none
 * beyond the columns' edges.
 */
function continues(lines: readonly LaidLine[], tables: TableContext): TableHeader | undefined {
  const header = tables.carried;
  if (!header || tables.paragraphs > CONTINUED_TABLE_MAX_ABOVE) return undefined;
  const first = header.columns[0] as Span;
  const right = Math.max(...header.columns.map((column) => column.end));
  const fits = lines
    .filter((line) => line.spans.length > 1)
    .every(
      (line) =>
        overlap(line.spans[0] as Span, first) > 0 &&
        columnIndex(line.spans[0] as Span, header.columns) === 0 &&
        line.spans.every((span) => span.end <= right + line.size),
    );
  return fits ? header : undefined;
}

/**
 * A paragraph of at least two lines, at least half of them cells apart, as one paragraph per row
 * (`cell | cell`, knowledge/structure.ts), each cell after its column's header when the first row
 * is one: joined into prose, an option list of a page runs its rows together into one sentence of
 * thousands of characters. A line of one cell that starts right of its row's first cell carries on
 * the row's last cell (a description wrapped); any other is a paragraph of its own.
 */
function tableRows(lines: readonly LaidLine[], tables: TableContext): PdfParagraph[] | undefined {
  const rowCount = lines.filter((line) => line.cells.length > 1).length;
  if (rowCount < 2 || rowCount * 2 < lines.length) return undefined;
  const headerLine = lines.find((line) => line.cells.length > 1) as LaidLine;
  if (columnHeaders(lines.filter((line) => line.cells.length > 1).map((line) => line.cells))) {
    return gridRows(lines, lines.indexOf(headerLine), tables);
  }
  const continued = continues(lines, tables);
  if (continued) return gridRows(lines, -1, tables, continued);
  tables.last = undefined;
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

/** How far two spans overlap (negative: the gap between them). */
const overlap = (a: Span, b: Span): number => Math.min(a.end, b.end) - Math.max(a.x, b.x);

/** The column a span lies in: the one it overlaps most, else the nearest. */
function columnIndex(span: Span, columns: readonly Span[]): number {
  let best = 0;
  columns.forEach((column, i) => {
    if (overlap(span, column) > overlap(span, columns[best] as Span)) best = i;
  });
  return best;
}

/**
 * The rows of a table whose first line names its columns, each line's cells placed in the column
 * under whose name they lie: a cell left empty is a column skipped, not the next column's value
 * ("KF | flicker noise coefficient | | 0.0 | 1e-25"), and a line without a cell in the first column
 * carries on the cells of the nearest row above or below it (the rows' other lines: a description
 * wrapped in its column, one value per case stacked around the row's baseline), the row above when
 * it is as near as the row below (WRAP_TIE_EM). A line of one cell
 * across several columns is prose between rows.
 */
function gridRows(
  lines: readonly LaidLine[],
  headerIndex: number,
  tables: TableContext,
  continued?: TableHeader,
): PdfParagraph[] {
  const header = lines[headerIndex];
  const columns = continued?.columns ?? header?.spans ?? [];
  /** A row: its line with a cell in the first column (the header's for the header) and the lines carrying it on. */
  type GridRow = { line: LaidLine; lines: LaidLine[] };
  const cellsOf = (row: GridRow): string[][] => {
    const cells = columns.map((): string[] => []);
    for (const line of [...row.lines].sort((a, b) => b.y - a.y))
      for (const span of line.spans) cells[columnIndex(span, columns)]?.push(span.text);
    return cells;
  };
  const result: PdfParagraph[] = [];
  const prose = (line: LaidLine): PdfParagraph => ({
    lines: [{ text: line.text, y: line.y, size: line.size }],
  });
  const before = lines.slice(0, Math.max(0, headerIndex));
  if (before.length > 0) result.push({ lines: before.map(({ text, y, size }) => ({ text, y, size })) });
  const headerRow: GridRow | undefined = header && { line: header, lines: [header] };
  let labels: string[] = continued?.labels ?? [];
  // Runs of rows (the header first) and the lines that carry them on, between prose lines.
  let rows: GridRow[] = headerRow ? [headerRow] : [];
  let others: LaidLine[] = [];
  const flush = (): void => {
    // Top-down, so that a row's lowest line so far is the one a wrapped line follows.
    for (const line of others) {
      const next = rows.find((row) => row.line.y < line.y);
      // The header takes on only words, as its own cells are (a figure is a value of the row below).
      const previous = rows.findLast(
        (row) => row.line.y > line.y && (row !== headerRow || !/\d/.test(line.text)),
      );
      const bottom = previous && Math.min(...previous.lines.map((l) => l.y));
      // Equally far from both (rows set at the line spacing, no space between them), a line is
      // the row above's cell wrapped: a cell's text runs down from its row's top.
      const nearer =
        bottom === undefined || (next && line.y - next.line.y < bottom - line.y - WRAP_TIE_EM * line.size)
          ? next
          : previous;
      nearer?.lines.push(line);
    }
    if (headerRow && rows[0] === headerRow) labels = cellsOf(headerRow).map((texts) => texts.join(' '));
    for (const row of rows) {
      if (row === headerRow) continue;
      const cells = cellsOf(row).map((texts) => texts.reduce((a, b) => (a ? joinLines(a, b) : b), ''));
      result.push({ lines: [{ text: tableRowText(labels, cells), y: row.line.y, size: row.line.size }] });
    }
    rows = [];
    others = [];
  };
  for (const line of lines.slice(headerIndex + 1)) {
    const [only] = line.spans;
    if (line.spans.length === 1 && only && columns.filter((c) => overlap(only, c) > 0).length > 1) {
      flush();
      result.push(prose(line));
    } else if (line.spans.some((span) => columnIndex(span, columns) === 0)) {
      rows.push({ line, lines: [line] });
    } else others.push(line);
  }
  flush();
  tables.last = { labels, columns };
  return result;
}

/**
 * A line this many font sizes nearer the row below than the row above is still equally far from
 * both: baselines one line spacing apart differ by a fraction of a point.
 */
const WRAP_TIE_EM = 0.1;

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

/** Page numbers: "70", "65–67", "58, 62". */
const PAGE_LIST = String.raw`\d+(?:[–-]\d+)?(?:,\s*\d+(?:[–-]\d+)?)*`;
/** A contents or index line: a title, dot leaders, its pages ("Mouse . . . . 169", "| . . . | 15"). */
const LEADER_ENTRY = new RegExp(String.raw`(?:\.\s?){3,}\s*(?:\|\s*)?${PAGE_LIST}$`);
/** A back-of-book index entry: a term, then its pages ("errorbars, 65–67, 70, 119"). */
const INDEX_ENTRY = new RegExp(String.raw`^[^,|]*\p{L}[^,|]*,\s*${PAGE_LIST}$`, 'u');

/**
 * Whether a paragraph is a table of contents' or a back-of-book index's entries: every line ends
 * in dot leaders and a page number, or is a row of index entries ("error state, 44, 129 | format,
 * 150"; a lone entry of one line is kept, as prose may end so). Such a paragraph names where the
 * manual's words are without saying anything of them, as the contents and index lists of HTML
 * pages that knowledge/structure.ts drops; kept, it takes a result's place from a page that does.
 */
export function isNavigation(paragraph: PdfParagraph): boolean {
  if (paragraph.level !== undefined || paragraph.lines.length === 0) return false;
  const entries = paragraph.lines.map((line) => {
    if (LEADER_ENTRY.test(line.text)) return 1;
    const cells = line.text.split(TABLE_ROW_SEPARATOR);
    return cells.every((cell) => INDEX_ENTRY.test(cell.trim())) ? cells.length : 0;
  });
  const leaders = paragraph.lines.some((line) => LEADER_ENTRY.test(line.text));
  return entries.every((n) => n > 0) && (leaders || entries.reduce((sum, n) => sum + n, 0) >= 2);
}

/** The pages of an index entry wrapped onto a line of their own ("79" under "html command line option,"). */
const PAGES_ALONE = new RegExp(String.raw`^${PAGE_LIST}$`);
/** A term of a nested index, over the entries naming its pages: a name, no sentence ("-C", "command line option,"). */
const INDEX_TERM = /^(?=.*[\p{L}\p{S}&-])(?!.*[.!?;](?:\s|$)).{1,60}$/u;
/** Least number of entries with pages a page of a nested index holds, and their least share of its terms and entries. */
const MIN_NESTED_ENTRIES = 5;
const NESTED_ENTRIES_SHARE = 1 / 4;

/**
 * A page's paragraphs without the contents and index entries (isNavigation), nor, on a page of a
 * back-of-book index whose terms stand on lines of their own above indented entries ("-C" over
 * "why3 command line option, 61", LaTeX's `\item` over its `\subitem`s, as Sphinx sets its index
 * of options), any of the index: there a term alone is no entry, and a column's lines read beside
 * the other column's as rows of two cells. Such a page is judged whole: every cell of its text a
 * term, an entry or pages wrapped from the line before, a quarter of them at least entries with pages.
 */
export function withoutNavigation(page: readonly PdfParagraph[]): PdfParagraph[] {
  const body = page.filter((paragraph) => paragraph.level === undefined);
  const cells = body.flatMap((paragraph) =>
    paragraph.lines.flatMap((line) => line.text.split(TABLE_ROW_SEPARATOR).map((cell) => cell.trim())),
  );
  const named = cells.filter((cell) => !PAGES_ALONE.test(cell));
  const withPages = named.filter((cell) => INDEX_ENTRY.test(cell)).length;
  const nestedIndex =
    withPages >= MIN_NESTED_ENTRIES &&
    withPages >= NESTED_ENTRIES_SHARE * named.length &&
    named.every((cell) => INDEX_ENTRY.test(cell) || INDEX_TERM.test(cell));
  return page.filter((paragraph) => (nestedIndex ? paragraph.level !== undefined : !isNavigation(paragraph)));
}

/** A page's first or last paragraph repeated on at least this many pages (numbers aside) is a running header or footer. */
const RUNNING_MIN_PAGES = 3;
/** Running headers and footers are short: a title, a chapter name, a page number. */
const RUNNING_MAX_CHARS = 150;

/**
 * Whether a page's first or last paragraph ends in the page's own number (counted from the
 * file's first page, with the one offset that most pages share): a footer naming the section the
 * page is in, then the number ("Mode Settings 101"), as htmldoc sets them, runs on fewer pages
 * than a chapter's running title. A two-sided book sets the number first on its left-hand pages
 * ("74 Chapter 6. Reference Manuals") and last on its right-hand ones ("6.5. The session Command
 * 75", as Sphinx's LaTeX does): either end counts. Applies only when that offset holds on most pages.
 */
function pageNumbered(pages: readonly (readonly string[])[]): (paragraph: string, page: number) => boolean {
  const numbers = (paragraph: string): number[] => {
    const text = paragraph.trim();
    return [/^(\d{1,4})\s/.exec(text)?.[1], /(?:^|\s)(\d{1,4})$/.exec(text)?.[1]]
      .filter((n): n is string => n !== undefined)
      .map(Number);
  };
  const offsets = new Map<number, number>();
  pages.forEach((paragraphs, page) => {
    const found = new Set(
      [paragraphs[0], paragraphs.length > 1 ? paragraphs.at(-1) : undefined]
        .filter((p): p is string => p !== undefined && p.length <= RUNNING_MAX_CHARS)
        .flatMap(numbers)
        .map((n) => n - page),
    );
    for (const offset of found) offsets.set(offset, (offsets.get(offset) ?? 0) + 1);
  });
  const [offset, pagesWith] = [...offsets].reduce(
    (best, entry) => (entry[1] > best[1] ? entry : best),
    [0, 0],
  );
  if (pagesWith < RUNNING_MIN_PAGES || pagesWith * 2 < pages.length) return () => false;
  return (paragraph, page) => numbers(paragraph).includes(page + offset);
}

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
  const numbered = pageNumbered(ends.map(({ paragraphs }) => paragraphs));
  const count = new Map<string, number>();
  for (const { first, last } of ends)
    for (const paragraph of new Set([first, last]))
      if (paragraph !== '' && paragraph.length <= RUNNING_MAX_CHARS)
        count.set(shape(paragraph), (count.get(shape(paragraph)) ?? 0) + 1);
  const running = (paragraph: string, page: number): boolean =>
    paragraph.length <= RUNNING_MAX_CHARS &&
    ((count.get(shape(paragraph)) ?? 0) >= RUNNING_MIN_PAGES || numbered(paragraph, page));
  return ends.map(({ paragraphs }, page) => {
    let from = 0;
    let to = paragraphs.length;
    if (to - from > 1 && running(paragraphs[from] ?? '', page)) from++;
    if (to - from > 1 && running(paragraphs[to - 1] ?? '', page)) to--;
    return paragraphs.slice(from, to).join('\n\n');
  });
}
