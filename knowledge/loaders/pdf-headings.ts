/**
 * Section headings of a PDF, so its chunks split at sections and carry their heading path as
 * HTML and Markdown chunks do. A PDF with an outline (bookmarks: LaTeX, Texinfo, DocBook PDFs have
 * one) names its sections, their nesting and where each starts: each title is looked for on its
 * page, near the top its destination gives, and the paragraph lines that spell it become a heading
 * of the outline's depth. Without an outline, short paragraphs in a font clearly larger than the
 * document's body text are headings, the largest size being level 1.
 */
import { linesText, type PdfLine, type PdfParagraph } from './pdf-layout.js';

/** A section title the outline places on a page, with the top of its destination when given. */
export interface OutlineHeading {
  title: string;
  /** 1-6: the outline's depth, deeper entries at 6. */
  level: number;
  top?: number;
}

/** The parts of pdf.js's document that the outline is read through. */
export interface OutlineSource {
  getOutline(): Promise<OutlineNode[] | null>;
  getDestination(id: string): Promise<unknown[] | null>;
  getPageIndex(ref: never): Promise<number>;
}

interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineNode[];
}

const MAX_LEVEL = 6;

/** The outline's entries by 1-based page number, in outline order; empty without an outline. */
export async function outlineHeadings(pdf: OutlineSource): Promise<Map<number, OutlineHeading[]>> {
  const byPage = new Map<number, OutlineHeading[]>();
  const visit = async (nodes: readonly OutlineNode[], level: number): Promise<void> => {
    for (const node of nodes) {
      const target = await destination(pdf, node.dest);
      if (target && node.title.trim() !== '') {
        const heading: OutlineHeading = {
          title: node.title,
          level: Math.min(level, MAX_LEVEL),
          ...(target.top !== undefined ? { top: target.top } : {}),
        };
        byPage.set(target.page, [...(byPage.get(target.page) ?? []), heading]);
      }
      await visit(node.items, level + 1);
    }
  };
  await visit((await pdf.getOutline()) ?? [], 1);
  return byPage;
}

/**
 * The page and top of an outline entry's destination: `[page, /XYZ left top zoom]`, `[page, /FitH
 * top]`, `[page, /FitBH top]`, `[page, /FitR left bottom right top]` or a name for one. A
 * destination that does not resolve (a broken reference, a link to elsewhere) is none.
 */
async function destination(
  pdf: OutlineSource,
  dest: OutlineNode['dest'],
): Promise<{ page: number; top?: number } | undefined> {
  try {
    const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest;
    if (!Array.isArray(explicit)) return undefined;
    const [ref, kind, ...args] = explicit as [unknown, { name?: string } | undefined, ...unknown[]];
    const index =
      typeof ref === 'number'
        ? ref
        : ref && typeof ref === 'object'
          ? await pdf.getPageIndex(ref as never)
          : NaN;
    if (!Number.isInteger(index)) return undefined;
    const top = { XYZ: args[1], FitH: args[0], FitBH: args[0], FitR: args[3] }[kind?.name ?? ''];
    return { page: index + 1, ...(typeof top === 'number' ? { top } : {}) };
  } catch {
    return undefined;
  }
}

/** A title spreads over at most this many lines of its paragraph. */
const MAX_TITLE_LINES = 3;

/**
 * The page's paragraphs with the outline's titles for it marked as headings, in outline order:
 * each title is matched to the leading lines of a paragraph after the previous title's, the one
 * nearest below the destination's top when it has one (a line up to one font size above it still
 * counts). A paragraph whose first lines spell the title is split after them, and so is a first
 * line that starts with it (a run-in heading: "Column The column(x) function may be used…"). A
 * title not found on the page (a destination on the page before its heading, a title spelled
 * otherwise) is left.
 */
export function withOutlineHeadings(
  paragraphs: PdfParagraph[],
  headings: readonly OutlineHeading[],
  missed: OutlineHeading[] = [],
): PdfParagraph[] {
  const result = [...paragraphs];
  let from = 0;
  for (const heading of headings) {
    const wanted = titleKeys(heading.title);
    let best: { index: number; distance: number; split: TitleSplit } | undefined;
    for (let index = from; index < result.length; index++) {
      const paragraph = result[index] as PdfParagraph;
      const first = paragraph.lines[0];
      if (paragraph.level !== undefined || !first) continue;
      const distance = heading.top === undefined ? 0 : heading.top - first.y;
      if (distance < -first.size || (best && distance >= best.distance)) continue;
      const split = titleSplit(paragraph.lines, wanted);
      if (split) best = { index, distance, split };
      if (best && heading.top === undefined) break;
    }
    if (!best) {
      missed.push(heading);
      continue;
    }
    const { title, rest } = best.split;
    result.splice(
      best.index,
      1,
      { lines: title, level: heading.level },
      ...(rest.length > 0 ? [{ lines: rest }] : []),
    );
    from = best.index + 1;
  }
  return result;
}

/**
 * Every page's paragraphs with the outline's titles for it marked as headings (withOutlineHeadings).
 * A title not found on its page whose destination has no text below it (an anchor left at the end
 * of a page or on a float page, the title set at the top of the next) is looked for on the next
 * page, from its top.
 */
export function withOutlinePages(
  pages: readonly PdfParagraph[][],
  outline: ReadonlyMap<number, OutlineHeading[]>,
): PdfParagraph[][] {
  let pending: OutlineHeading[] = [];
  return pages.map((paragraphs, i) => {
    const missed: OutlineHeading[] = [];
    const headings = [...pending, ...(outline.get(i + 1) ?? [])];
    const result = withOutlineHeadings(paragraphs, headings, missed);
    pending = missed
      .filter((h) => h.top !== undefined && !pending.includes(h))
      .filter((h) => !paragraphs.some((p) => (p.lines[0]?.y ?? Infinity) < (h.top as number)))
      .map(({ top: _top, ...heading }) => heading);
    return result;
  });
}

interface TitleSplit {
  title: PdfLine[];
  rest: PdfLine[];
}

/** The paragraph's lines split after the title they start with, if they do. */
function titleSplit(lines: readonly PdfLine[], wanted: ReadonlySet<string>): TitleSplit | undefined {
  const longest = Math.max(...[...wanted].map((key) => key.length));
  let matched = 0;
  for (let n = 1; n <= Math.min(MAX_TITLE_LINES, lines.length); n++) {
    const keys = titleKeys(linesText(lines.slice(0, n)));
    // A line that adds only what the comparison leaves out (a link's address) is the title's too.
    if ([...keys].some((key) => wanted.has(key))) matched = n;
    else if (matched > 0) break;
    if ((keys.values().next().value ?? '').length > longest + 16) break;
  }
  if (matched > 0) return { title: lines.slice(0, matched), rest: lines.slice(matched) };
  const first = lines[0] as PdfLine;
  const end = runInEnd(first.text, wanted);
  if (end === undefined) return undefined;
  return {
    title: [{ ...first, text: first.text.slice(0, end).trim() }],
    rest: [{ ...first, text: first.text.slice(end).trim() }, ...lines.slice(1)],
  };
}

/** Where a title that a line runs on from ends in it: at a word's end, with more text after it. */
function runInEnd(text: string, wanted: ReadonlySet<string>): number | undefined {
  for (const from of new Set([0, TITLE_LABEL.exec(text)?.[0].length ?? 0])) {
    let key = '';
    for (let i = from; i < text.length; i++) {
      key += titleKey(text[i] as string);
      const wordGoesOn = /[\p{L}\p{N}]/u.test(text[i + 1] ?? '');
      if (wanted.has(key) && !wordGoesOn) return text.slice(i + 1).trim() !== '' ? i + 1 : undefined;
      if (![...wanted].some((w) => w.startsWith(key))) break;
    }
  }
  return undefined;
}

/**
 * A section number or label ahead of a title: "2.3", "A.1", "IV.", "Chapter 2", "Part I",
 * "Appendix B". Outlines often leave it out ("Simple compilation" for "2.1 Simple compilation").
 */
const TITLE_LABEL =
  /^\s*(?:(?:[Pp]art|PART|[Cc]hapter|CHAPTER|[Ss]ection|SECTION|[Aa]ppendix|APPENDIX)\s+)?(?:\d+|[IVXLC]+|[A-Z])(?:\.\d+)*\.?\s+(?=\S)/u;

/** A title's letters and digits, lowercased: what two spellings of it share. */
const titleKey = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * A web address in a title. Texinfo writes a link's address and its text into the outline
 * ("[2008 May 29 http://en.wikipedia.org/wiki/Oak_Apple_Day, Oak Apple Day (England)]") but prints
 * the text with the address after it in parentheses ("Oak Apple Day (England)
 * (http://en.wikipedia.org/wiki/Oak_Apple_Day)]"): the two spellings compare without it.
 */
const TITLE_URL = /\b(?:https?|ftp):\/\/[^\s,()\]]*(?:\([^\s()]*\)[^\s,()\]]*)*/g;

/** A title's spellings to compare, with and without its label, and without its web addresses. */
function titleKeys(title: string): Set<string> {
  const spellings = [title, title.replace(TITLE_LABEL, '')];
  const keys = new Set([...spellings, ...spellings.map((t) => t.replace(TITLE_URL, ''))].map(titleKey));
  keys.delete('');
  return keys;
}

/** A line of a table of contents: a title, dot leaders, a page number. */
const CONTENTS_LINE = /(?:\.\s?){3,}\s*\d+$/;

/** A heading in a larger font is at least this many times the body text's size. */
const LARGER_FONT = 1.15;
/**
 * A numbered section title ("2.1 Node Shapes", "A.3 Limits") needs only this much: LaTeX's 11-point
 * classes set \subsection in \large, 12 points on 10.95 (1.096).
 */
const LARGER_NUMBERED_FONT = 1.05;
/** A section number of two levels at least, then a capitalised title. */
const NUMBERED_TITLE = /^(?:\d+|[A-Z])(?:\.\d+)+\.?\s+\p{Lu}/u;
/** A heading by its font is short and spans a few lines at most. */
const MAX_FONT_HEADING_CHARS = 120;

/**
 * Marks, in place, the headings of a document without an outline: paragraphs whose lines are all
 * in a font at least LARGER_FONT times the body text's (the size most characters have), or
 * LARGER_NUMBERED_FONT for a numbered section title, short, holding a letter, opening with no
 * lowercase letter (the labels of a drawing set in a larger font: a graph's node names "a", "hello
 * world"), not ending as a sentence or a clause does and not a contents line with dot leaders.
 * Their sizes, largest first, are levels 1 to 6.
 */
export function markFontHeadings(pages: readonly PdfParagraph[][]): void {
  const round = (size: number): number => Math.round(size * 2) / 2;
  const characters = new Map<number, number>();
  for (const page of pages)
    for (const { lines } of page)
      for (const line of lines)
        characters.set(round(line.size), (characters.get(round(line.size)) ?? 0) + line.text.length);
  const body = [...characters].reduce((best, entry) => (entry[1] > best[1] ? entry : best), [0, 0])[0];
  const headings: { paragraph: PdfParagraph; size: number }[] = [];
  for (const page of pages) {
    for (const paragraph of page) {
      const size = Math.min(...paragraph.lines.map((line) => line.size));
      const text = linesText(paragraph.lines);
      const larger = NUMBERED_TITLE.test(text) ? LARGER_NUMBERED_FONT : LARGER_FONT;
      if (
        size >= larger * body &&
        paragraph.lines.length <= MAX_TITLE_LINES &&
        text.length <= MAX_FONT_HEADING_CHARS &&
        /\p{L}/u.test(text) &&
        !/^\p{Ll}/u.test(text) &&
        !/[.,;:]$/.test(text) &&
        !CONTENTS_LINE.test(text)
      )
        headings.push({ paragraph, size: round(size) });
    }
  }
  const sizes = [...new Set(headings.map((h) => h.size))].sort((a, b) => b - a);
  for (const { paragraph, size } of headings) paragraph.level = Math.min(sizes.indexOf(size) + 1, MAX_LEVEL);
}
