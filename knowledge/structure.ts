/**
 * How structure survives in passage text, written by the loaders and read by the answer composer:
 * - a table row is one paragraph of `label: cell` pairs joined by ` | ` (labels from the header
 *   row), e.g. `Level: WARNING | Numeric value: 30`; without a header row, the cells alone;
 * - a definition (`dl/dt/dd`, API and option entries, Pandoc's Markdown definition lists) is its
 *   term on a line of its own, then each paragraph of the definition starting with `: `, the rows
 *   of a table inside it too.
 */
import { FENCE, linesWithFences } from './loaders/markdown.js';

export const DEFINITION_MARK = ': ';
export const TABLE_ROW_SEPARATOR = ' | ';

/** How many blank characters a line of text or code opens with. */
export const indentOf = (line: string): number => /^\s*/.exec(line)![0].length;

/** One table row as a line: each cell after its column's header, when there is one. */
export function tableRowText(headers: readonly string[], cells: readonly string[]): string {
  const flat = (text: string): string => text.replace(/\s+/g, ' ').trim();
  return cells
    .map((cell, i) => {
      // A header written with its colon ("Handled by:") labels its cell once: "Handled by: fd2c".
      const header = flat(headers[i] ?? '').replace(/\s*:$/, '');
      return header && flat(cell) ? `${header}: ${flat(cell)}` : flat(cell);
    })
    .filter((cell) => cell !== '')
    .join(TABLE_ROW_SEPARATOR);
}

export type BlockKind = 'heading' | 'code' | 'row' | 'definition' | 'text';

export interface PassageBlock {
  kind: BlockKind;
  text: string;
  /** The term a definition paragraph defines, when the passage holds it. */
  term?: string;
  /** The name a list item opens with, in code (`` - `breakLength` <integer> … ``, `` - `9` **Invalid Argument** ``). */
  name?: string;
}

const HEADING = /^ {0,3}#{1,6}\s/;
/** A line opening a list item: `-`, `*`, `+` or a number, then a space (Markdown, as the loaders write lists). */
const LIST_MARKER = String.raw`^\s*(?:[-*+]|\d{1,9}[.)])\s`;
const LIST_ITEM = new RegExp(LIST_MARKER);
/** A list item opening with a name in code. */
const NAMED_ITEM = new RegExp(`${LIST_MARKER}\\s*\`([^\`\\n]{1,60})\``);
/** A term is a short line: longer ones are prose. */
const MAX_TERM_CHARS = 300;

/**
 * The paragraphs of a passage with what they are. A table row holds at least one separator;
 * a definition paragraph takes the term of the paragraph before the first of its run.
 */
export function passageBlocks(text: string, openTerm?: string): PassageBlock[] {
  const paragraphs: { text: string; code: boolean }[] = [];
  let current: string[] = [];
  let code = false;
  const flush = () => {
    const joined = current.join('\n').trim();
    if (joined !== '') paragraphs.push({ text: joined, code });
    current = [];
  };
  const lines = text.split('\n');
  // A passage cut from inside a listing: its lines up to the fence closing it are code.
  const reopened = opensInsideCode(lines);
  const scanned = [...linesWithFences(reopened ? [FENCE_MARK, ...lines] : lines)];
  if (reopened) {
    scanned.shift();
    code = true;
  }
  for (const { line, fenced } of scanned) {
    if (fenced !== code || (!fenced && line.trim() === '') || (!fenced && HEADING.test(line))) {
      flush();
      code = fenced;
    }
    if (!fenced && HEADING.test(line)) {
      paragraphs.push({ text: line.trim(), code: false });
      continue;
    }
    current.push(line);
  }
  flush();

  const blocks: PassageBlock[] = [];
  let term = openTerm;
  for (const paragraph of paragraphs) {
    if (paragraph.code) {
      blocks.push({ kind: 'code', text: paragraph.text });
      continue;
    }
    if (HEADING.test(paragraph.text)) {
      term = undefined;
      blocks.push({ kind: 'heading', text: paragraph.text.replace(/^ {0,3}#+\s+/, '') });
      continue;
    }
    // A term and its first definition paragraph may share a paragraph: "term\n: definition".
    const lines = paragraph.text.split('\n');
    const firstDefinition = lines.findIndex((line) => line.startsWith(DEFINITION_MARK));
    if (firstDefinition > 0) {
      term = lines.slice(0, firstDefinition).join(', ').trim();
      blocks.push(definitionBlock(definitionText(lines.slice(firstDefinition)), term));
      continue;
    }
    if (firstDefinition === 0) {
      // "Term", blank line, ": definition" (Pandoc) names a new term; otherwise the paragraph
      // continues the definition before it, past any list or code inside that definition.
      const previous = blocks.at(-1);
      if (previous?.kind === 'text' && isTerm(previous.text)) {
        term = previous.text;
        blocks.pop();
      }
      blocks.push(definitionBlock(definitionText(lines), term));
      continue;
    }
    const row = paragraph.text.includes(TABLE_ROW_SEPARATOR) && !paragraph.text.includes('\n');
    // A list that a definition's paragraph announces ("Changing the parameter value to "yes" has
    // the following effects:") is part of that definition: its items sit under its term, as the
    // definition's paragraphs after it do, the items of a loose list one paragraph each.
    const previous = blocks.at(-1);
    const listTerm =
      LIST_ITEM.test(paragraph.text) &&
      ((previous?.kind === 'definition' && /:$/.test(previous.text)) ||
        (previous?.kind === 'text' && LIST_ITEM.test(previous.text)))
        ? previous.term
        : undefined;
    if (row) blocks.push({ kind: 'row', text: paragraph.text });
    else
      for (const item of listItems(paragraph.text)) {
        const name = NAMED_ITEM.exec(item)?.[1]?.trim();
        blocks.push({
          kind: 'text',
          text: item,
          ...(listTerm ? { term: listTerm } : {}),
          ...(name ? { name } : {}),
        });
      }
  }
  return blocks;
}

const FENCE_MARK = '```';

/** A fence line and nothing else: a closing fence has no language after it. */
function isBareFence(line: string): boolean {
  const fence = FENCE.exec(line);
  return fence !== null && line.slice(fence[0].length).trim() === '';
}

/**
 * Whether a passage starts inside a code block: a chunk cut from inside a listing has the fence
 * closing it for its first fence, which would read as an opening one, so the rest of the listing
 * would read as prose and the prose after it as code, never quoted. The loaders open a block after
 * a blank line and close it right under its last line: a first fence that is bare, right under a
 * line, with an odd number of fences in the passage, closes one.
 */
function opensInsideCode(lines: readonly string[]): boolean {
  const first = lines.findIndex((line) => FENCE.test(line));
  if (first < 1 || !isBareFence(lines[first]!) || lines[first - 1]!.trim() === '') return false;
  return lines.filter((line) => FENCE.test(line)).length % 2 === 1;
}

/**
 * A paragraph's list items, each a block of its own with the lines that continue it: what one
 * item says (an option's `Default: 10000.`) does not run on into the next item's first sentence.
 * Text before the first item is a block too.
 */
function listItems(text: string): string[] {
  const items: string[][] = [];
  for (const line of text.split('\n')) {
    const current = items.at(-1);
    if (current === undefined || LIST_ITEM.test(line)) items.push([line]);
    else current.push(line);
  }
  return items.map((lines) => lines.join('\n'));
}

/** A definition paragraph, or a row of a table inside the definition, quoted whole with its term. */
function definitionBlock(text: string, term: string | undefined): PassageBlock {
  const row = text.includes(TABLE_ROW_SEPARATOR) && !text.includes('\n');
  return { kind: row ? 'row' : 'definition', text, ...(term ? { term } : {}) };
}

/** A term is one short line that is neither a list item nor a sentence. */
function isTerm(text: string): boolean {
  return (
    text.length <= MAX_TERM_CHARS && !text.includes('\n') && !LIST_ITEM.test(text) && !/[.:;!?]$/.test(text)
  );
}

function definitionText(lines: readonly string[]): string {
  return lines
    .map((line) => (line.startsWith(DEFINITION_MARK) ? line.slice(DEFINITION_MARK.length) : line))
    .join('\n')
    .trim();
}

/**
 * The term whose definition `text` is in at `offset` (searching back no further than `from`),
 * when the paragraph there is part of one: a passage starting at `offset` sits under that term as
 * under a heading.
 */
export function definitionTermAt(text: string, from: number, offset: number): string | undefined {
  const paragraphStart = Math.max(from, text.lastIndexOf('\n\n', offset - 1) + 2);
  const firstLineEnd = text.indexOf('\n', paragraphStart);
  const afterOwnTerm =
    firstLineEnd >= 0 && offset > firstLineEnd && text.startsWith(`\n${DEFINITION_MARK}`, firstLineEnd);
  if (!text.startsWith(DEFINITION_MARK, paragraphStart) && !afterOwnTerm) return undefined;
  // The nearest "term\n: " above, the term line starting a paragraph.
  for (let i = text.lastIndexOf(`\n${DEFINITION_MARK}`, offset - 1); i > from;) {
    const lineStart = text.lastIndexOf('\n', i - 1) + 1;
    if (lineStart <= from || text.startsWith('\n\n', lineStart - 2)) {
      const term = text.slice(Math.max(lineStart, from), i);
      return isTerm(term) ? term : undefined;
    }
    i = text.lastIndexOf(`\n${DEFINITION_MARK}`, i - 1);
  }
  return undefined;
}
