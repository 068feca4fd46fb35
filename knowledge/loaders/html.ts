/**
 * HTML as Markdown: the page's main content (its `<main>`, or its only `<article>`, else the
 * body) without navigation, page headers and footers, scripts, styles, forms or hidden parts.
 * Headings become `#` headings for the chunker; links keep their text and drop their targets,
 * images keep their alt text, since addresses are noise in a passage. Tables become one line per
 * row whose cells keep their column headers, and definition lists (API entries, options,
 * configuration variables) keep each term above its definition, as knowledge/structure.ts says.
 */
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { DEFINITION_MARK, indentOf, tableRowText } from '../structure.js';
import { SourceError } from './errors.js';
import { firstHeading } from './markdown.js';
import { cleanTitle, normalizeText } from './normalize.js';

export interface HtmlText {
  text: string;
  /** The `<title>`, else the first `# ` heading of the content. */
  title?: string;
}

const NEVER_CONTENT = [
  'script',
  'style',
  'noscript',
  'template',
  'nav',
  'aside',
  'form',
  'button',
  'select',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="search"]',
  '[aria-hidden="true"]',
  '[hidden]',
  // DocBook's Prev/Up/Next bars and per-page tables of contents (PostgreSQL, many GNU manuals).
  // texi2html writes an `@itemize` without bullets as `<ul class="toc">` too: a list of content,
  // left to the test of lists of links below, which a real table of contents fails.
  '.navheader',
  '.navfooter',
  '.toc:not(ul)',
].join(', ');

/**
 * What a link to its own heading or term says (Sphinx's `headerlink`, Texinfo's `copiable-link`,
 * Apache's `permalink`: "¶"): a mark to click, not text.
 */
const PERMALINK_MARK = /^\s*[¶§#]\s*$/;

/**
 * What a link back to the page's top says, as text or as its image's alt text (Apache's
 * `<a href="#page-header"><img alt="top"></a>` after every section): "top", "back to top", "↑".
 */
const BACK_TO_TOP =
  /^(?:(?:back|return|go)\s+)?(?:to\s+)?(?:the\s+)?top(?:\s+of\s+(?:the\s+)?page)?$|^[↑⇑▲^]$/i;

/**
 * A list of at least NAVIGATION_MIN_ITEMS items, no paragraphs, and at least this share of link
 * text only points elsewhere: a contents list or an index ("abs, Mathematical Functions").
 */
const NAVIGATION_LINK_SHARE = 0.4;
const NAVIGATION_MIN_ITEMS = 3;

/** A superscript that is a power: a number, signed or not (`32`, `-12`, `−3`). */
const EXPONENT = /^\s*[-+−]?\d+(?:\.\d+)?\s*$/;

const markdown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
});
// Passages are read as text, not rendered: Markdown escapes (`snake\_case`) would only be noise.
markdown.escape = (text) => text;
markdown
  .addRule('linkText', { filter: 'a', replacement: (content) => content })
  .addRule('imageAlt', {
    filter: 'img',
    replacement: (_content, node) => (node as HTMLElement).getAttribute('alt')?.trim() ?? '',
  })
  // Preformatted text is code (synopses, shell sessions, listings), with or without a <code> inside.
  // Turndown's own rule fences a <pre> opening with <code> and reads that <code> alone: right for
  // `<pre><code class="language-c">…</code></pre>`, but DocBook's screens mix a prompt, the typed
  // command and its output (`<pre class="screen"><code class="prompt">$</code> <strong
  // class="userinput"><code>dpkg -L</code></strong>\n<code class="computeroutput">…`), of which it
  // kept the prompt, or, after a first line break, the whole as inline text run into one line. A
  // single line of such marks is a signature (PostgreSQL's `<pre class="synopsis"><code
  // class="function">gen_random_uuid</code> () → <code>uuid</code></pre>`), read as a line of text.
  .addRule('preformatted', {
    filter: (node) =>
      node.nodeName === 'PRE' &&
      (node.firstElementChild?.nodeName !== 'CODE' || (!isWholeCode(node) && !isOneLine(node))),
    replacement: (_content, node) => {
      const text = (node.textContent ?? '').replace(/\n+$/, '');
      // A screen (prompt, command, output) is code whatever it says; plain text may be prose.
      if ((node as Element).querySelector('code, kbd, samp')) return fenced(text);
      return preformattedText(text, (node as Element).getAttribute(ENTRY_TERM) ?? undefined);
    },
  })
  .addRule('preformattedLine', {
    filter: (node) =>
      node.nodeName === 'PRE' &&
      node.firstElementChild?.nodeName === 'CODE' &&
      !isWholeCode(node) &&
      isOneLine(node),
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  })
  // An exponent keeps its caret: as text, `2<sup>32</sup>` and `10<sup>-12</sup>` read 232 and 10-12.
  // A superscript holding a link is a footnote mark, not an exponent.
  .addRule('exponent', {
    filter: (node) =>
      node.nodeName === 'SUP' &&
      EXPONENT.test(node.textContent ?? '') &&
      (node as Element).querySelector('a') === null,
    replacement: (content) => `^${content.trim()}`,
  })
  // A key is its name, not an emphasis: DocBook writes each key of a combination in bold
  // (`<span class="keycap"><strong>Shift</strong></span>+<span class="keycap">…`), which as
  // `**Shift**+**Ctrl**+**A**` reads as one emphasis run over the `+` signs, not as Shift+Ctrl+A.
  .addRule('keyName', {
    filter: (node) => node.nodeName === 'KBD' || (node as HTMLElement).classList?.contains('keycap') === true,
    replacement: (_content, node) => flat(node.textContent ?? ''),
  })
  .addRule('tableRows', { filter: 'table', replacement: (_content, node) => tableText(node as Element) })
  .addRule('definitionTerm', {
    filter: 'dt',
    replacement: (_content, node) => `\n\n${flat(node.textContent ?? '')}\n`,
  })
  .addRule('definition', {
    filter: 'dd',
    replacement: (content) => {
      const text = content.trim();
      if (text === '') return '';
      return `\n${text.startsWith(DEFINITION_MARK) ? text : DEFINITION_MARK + text}\n\n`;
    },
  });

const flat = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** An element that shows nothing: no text but white space, no image (an index entry's bare anchor). */
const showsNothing = (element: Element): boolean =>
  flat(element.textContent ?? '') === '' && element.querySelector('img') === null;

const fenced = (code: string): string => `\n\n\`\`\`\n${code}\n\`\`\`\n\n`;

/** A line of prose holds this many words at least (a wrapped paragraph's lines hold ten or so). */
const MIN_PROSE_LINE_WORDS = 4;
/** A paragraph is prose when this share of its lines at least hold that many words. */
const PROSE_LINES_SHARE = 0.6;
/**
 * A word, and the end of a sentence: a letter, a closing quote or bracket, then a stop, or a
 * colon ending the paragraph ("… on the "img" and "ftp" hosts :", before its example).
 */
const WORD = /[A-Za-z][A-Za-z'’-]+/g;
const SENTENCE_END = /[A-Za-z)"'’”](?:\.| ?[!?])(?=\s|$)|[A-Za-z)"'’”] ?:$/;
/**
 * Lines that end or open as code does (a brace, a semicolon, a continuation, a prompt, a comment),
 * or hold a gap between columns (`little:  least significant …`), which prose has only after a
 * full stop.
 */
const CODE_LINE = /[{};\\]\s*$|^\s*[$>%]\s|^\s*(?:#|\/\/)|[^\s.!?]\s{2,}\S/;
/** A line that only underlines the title above it (`6.2.1. Cache section` over `-----`). */
const UNDERLINE = /^\s*(?:-{3,}|={3,}|~{3,})\s*$/;
const NUMBERED_TITLE = /^(\d+(?:\.\d+)*)\.?\s+\S/;
/** Markdown's indentation of a code block. */
const INDENTED_CODE = 4;

/** A title at the margin, not a sentence, over an underline as long as it (give or take a few). */
const isUnderlined = (title: string, line: string, margin: number): boolean =>
  UNDERLINE.test(line) &&
  indentOf(title) === margin &&
  !/[.:,;]$/.test(title.trim()) &&
  Math.abs(line.trim().length - title.trim().length) <= 3;

/** The first line of a list item: a dash or a star, a space, then a word. */
const LIST_ITEM_LINE = /^\s*[-*]\s+[\w"'(]/;

/** Whether the lines of a paragraph of a `<pre>` are wrapped sentences rather than code or a table. */
function isProse(lines: readonly string[]): boolean {
  // An item of a list of facts ("  - 243000 HTTP requests per second in end-to-end keep-alive
  // mode;") ends as a clause may, with a semicolon or a comma: read as a full stop, the item is a
  // sentence, not code (one ending in a figure, "RSA2048;", still reads as none).
  const item = LIST_ITEM_LINE.test(lines[0] ?? '');
  const read = item
    ? lines.map((line, i) => (i === lines.length - 1 ? line.replace(/[;,]\s*$/, '.') : line))
    : lines;
  const text = read.join('\n');
  if (!SENTENCE_END.test(text) || read.some((line) => CODE_LINE.test(line))) return false;
  // A wrapped paragraph's last line may hold a word or two.
  const full = read.length > 1 ? read.slice(0, -1) : read;
  const worded = full.filter((line) => (line.match(WORD) ?? []).length >= MIN_PROSE_LINE_WORDS).length;
  return worded >= full.length * PROSE_LINES_SHARE;
}

/**
 * A `<pre>` of plain text: a manual written as a text file and wrapped in HTML (HAProxy's
 * documentation holds every description in one) is paragraphs of sentences broken into lines,
 * between examples and argument lists indented under them. Fenced whole, its sentences would be
 * code, which is never quoted. Each paragraph that reads as prose is a paragraph of text, and a
 * title underlined with dashes a heading (as deep as its number: `6.2.1.` is a third level);
 * the rest, and the lines indented under a line ending in a colon ("Example:"), stay code.
 */
function preformattedText(text: string, term?: string): string {
  const lines = text.split('\n');
  const margin = Math.min(...lines.filter((line) => line.trim() !== '').map(indentOf));
  const marginColumn = Math.min(...lines.filter((line) => line.trim() !== '').map(columnOf));
  // A text file indented with tabs (a help file), not a listing indented with spaces.
  const indented = lines.filter((line) => line.trim() !== '' && columnOf(line) > marginColumn);
  const tabbed =
    term === undefined &&
    indented.length > 0 &&
    indented.filter((line) => line.startsWith('\t')).length >= indented.length * TABBED_SHARE;
  const out: string[] = [];
  let defining = false;
  // Within a help entry: a paragraph indented under its term goes on describing it.
  let inEntry = false;
  let code: string[] = [];
  const flushCode = () => {
    while (code.at(-1)?.trim() === '') code.pop();
    if (code.length > 0) out.push(fenced(code.join('\n')));
    code = [];
  };
  const paragraphs: string[][] = [[]];
  for (const line of lines) {
    if (line.trim() === '') paragraphs.push([]);
    else paragraphs.at(-1)!.push(line);
  }
  for (let paragraph of paragraphs.filter((lines) => lines.length > 0)) {
    if (paragraph.length >= 2 && isUnderlined(paragraph[0]!, paragraph[1]!, margin)) {
      const title = paragraph[0]!.trim();
      const number = NUMBERED_TITLE.exec(title)?.[1];
      const level = number ? Math.min(6, number.split('.').length) : paragraph[1]!.includes('=') ? 1 : 2;
      flushCode();
      out.push(`\n\n${'#'.repeat(level)} ${title}\n\n`);
      paragraph = paragraph.slice(2);
      if (paragraph.length === 0) continue;
    }
    // A title alone at the margin in capitals ("EURO", "ROUBLE"), a help file's subsection.
    if (
      tabbed &&
      paragraph.length === 1 &&
      columnOf(paragraph[0]!) === marginColumn &&
      paragraph[0]!.trim().length <= MAX_CAPITALS_TITLE_CHARS &&
      SECTION_NAME.test(paragraph[0]!.trim()) &&
      /^[A-Z][A-Z ]+$/.test(paragraph[0]!.trim())
    ) {
      flushCode();
      inEntry = false;
      out.push(`\n\n### ${paragraph[0]!.trim()}\n\n`);
      continue;
    }
    // A help file's entry (Vim's): its term at the margin, the description indented under it.
    const entry = term === undefined ? helpEntry(paragraph, marginColumn) : undefined;
    if (entry) {
      flushCode();
      out.push(`\n\n${entry.term}\n${DEFINITION_MARK}${entry.description}\n\n`);
      inEntry = true;
      if (entry.rest.length > 0) code.push(...entry.rest);
      continue;
    }
    if (columnOf(paragraph[0]!) === marginColumn) inEntry = false;
    // "Example:" and the lines indented under it: the sentence is prose, the lines code.
    const under = paragraph.findIndex(
      (line, i) => i > 0 && /:\s*$/.test(paragraph[i - 1]!) && indentOf(line) > indentOf(paragraph[0]!),
    );
    const prose = under < 0 ? paragraph : paragraph.slice(0, under);
    // As in Markdown, a paragraph indented four columns past the margin is code (a man page's body
    // under its section names, a quoted listing).
    if (indentOf(prose[0]!) - margin < INDENTED_CODE && isProse(prose)) {
      flushCode();
      const indent = Math.min(...prose.map(indentOf));
      const paragraphText = prose.map((line) => line.slice(indent).trimEnd()).join('\n');
      // An entry's description: its first paragraph under the term, each one with the mark.
      const opening = term !== undefined && out.length === 0 ? `${term}\n` : '';
      const mark: string =
        (term !== undefined && (opening !== '' || defining)) || inEntry ? DEFINITION_MARK : '';
      defining = mark !== '';
      out.push(`\n\n${opening}${mark}${paragraphText}\n\n`);
      paragraph = under < 0 ? [] : paragraph.slice(under);
    }
    if (paragraph.length > 0) code.push(...(code.length > 0 ? [''] : []), ...paragraph);
  }
  flushCode();
  // A description that does not open with prose keeps its term as a line of its own.
  if (term !== undefined && !defining) out.unshift(`\n\n${term}\n\n`);
  return out.join('');
}

/** A plain-text help file's tab stops (Vim's help, man pages and most text manuals use 8). */
const TAB_STOP = 8;

/** A line with its tabs expanded to spaces. */
function expandTabs(line: string): string {
  let out = '';
  for (const char of line) out += char === '\t' ? ' '.repeat(TAB_STOP - (out.length % TAB_STOP)) : char;
  return out;
}

/** The column a line's text starts at, tabs expanded. */
const columnOf = (line: string): number => /^ */.exec(expandTabs(line))![0].length;

/**
 * A line of labels set far right with tabs, alone (Vim's help tags, `*'undoreload'* *'ur'*`,
 * right-aligned above the entry they name): a few words without spaces, from this column on.
 */
const LABEL_COLUMN = 32;
const MAX_LABELS = 6;
const isLabelLine = (line: string): boolean => {
  const words = line.trim().split(/\s+/);
  return (
    line.startsWith('\t') &&
    columnOf(line) >= LABEL_COLUMN &&
    words.length <= MAX_LABELS &&
    words.every((word) => word.length <= 40) &&
    !SENTENCE_END.test(line.trim())
  );
};

/** An entry's term is a line or few, each at most this long (a signature, an option line). */
const MAX_TERM_LINES = 3;
const MAX_TERM_LINE_CHARS = 100;

/** A `<pre>` is a text file indented with tabs when this share of its indented lines open with one. */
const TABBED_SHARE = 0.5;
/** A title in capitals is a few words. */
const MAX_CAPITALS_TITLE_CHARS = 40;

/** A man page's section name ("SECURITY", "SEE ALSO"): a heading, not a term. */
const SECTION_NAME = /^[^a-z]*[A-Z]{2}[^a-z]*$/;

/**
 * An entry of a help file written as text (Vim's help; a man page's option list): labels set far
 * right above it, its term at the margin (`'undoreload' 'ur'	number	(default 10000)`, lines
 * indented deeper under it naming its scope, `			global`), then its description indented
 * under the term (`	Save the whole buffer for undo when reloading it.`), or beside it after a
 * gap and then under its first word (`--clean		Similar to "-u DEFAULTS -U NONE -i NONE":`).
 * Labels above a description without a term at the margin (`*E326*`) are its term. The
 * description must read as prose; the lines under a line ending in a colon are its example, left
 * as code (`rest`).
 */
function helpEntry(
  paragraph: readonly string[],
  margin: number,
): { term: string; description: string; rest: string[] } | undefined {
  let labels = 0;
  while (labels < paragraph.length - 1 && isLabelLine(paragraph[labels]!)) labels++;
  const lines = paragraph.slice(labels);
  let terms = 0;
  while (terms < lines.length && columnOf(lines[terms]!) === margin) terms++;
  if (terms === lines.length) {
    // Labels over a paragraph at the margin: they name it.
    const text = lines.map((line) => line.trimEnd());
    if (labels === 0 || !isProse(text)) return undefined;
    return { term: paragraph.slice(0, labels).map(flat).join(', '), description: text.join('\n'), rest: [] };
  }
  // Indented with tabs, as a text file's help is, not with spaces (a listing's body, a
  // docstring, a man page's paragraphs as groff sets them).
  if (!lines.slice(terms).every((line) => line.startsWith('\t'))) return undefined;
  const termLines = lines.slice(0, terms).map((line) => expandTabs(line).slice(margin).trimEnd());
  const body = lines.slice(terms).map((line) => expandTabs(line).slice(margin).trimEnd());
  if (termLines.length === 0 && labels === 0) return undefined;
  if (termLines.some((line) => SECTION_NAME.test(line.trim()))) return undefined;
  // A line ending in a colon announces the block indented under it (`class Foo:`, "Example:").
  if (/:\s*$/.test(termLines.at(-1) ?? '')) return undefined;
  // The description beside the last term line, its next lines under its first word: the term
  // ends where the column they start at opens a word of that line.
  const last = termLines.at(-1);
  const column = Math.min(...body.map(columnOf));
  if (last !== undefined && column < last.length && /\s\S/.test(last.slice(column - 1, column + 1))) {
    termLines[termLines.length - 1] = last.slice(0, column).trimEnd();
    body.unshift(' '.repeat(column) + last.slice(column));
  }
  const indent = Math.min(...body.map(columnOf));
  // A description is indented as a block is (a paragraph's wrapped lines or a list's are not),
  // under a term of a line or few, short ones.
  if (indent - margin < INDENTED_CODE || termLines.length > MAX_TERM_LINES) return undefined;
  if (termLines.some((line) => line.trim().length > MAX_TERM_LINE_CHARS)) return undefined;
  // Lines under the term deeper than the description (its type and scope) belong to the term.
  let header = 0;
  while (header < body.length && columnOf(body[header]!) > indent) header++;
  const head = body.slice(0, header);
  const described = body.slice(header);
  const under = described.findIndex(
    (line, i) => i > 0 && /:\s*$/.test(described[i - 1]!) && columnOf(line) > indent,
  );
  const prose = (under < 0 ? described : described.slice(0, under)).map((line) => line.slice(indent));
  if (prose.length === 0 || !isProse(prose)) return undefined;
  // The labels name what the term line names already; without one they are the term.
  const term = [...(termLines.length > 0 ? [] : paragraph.slice(0, labels)), ...termLines, ...head]
    .map(flat)
    .join(', ');
  return { term, description: prose.join('\n'), rest: under < 0 ? [] : described.slice(under) };
}

/** The attribute carrying, from before conversion, the term a `<pre>` describes. */
const ENTRY_TERM = 'data-entry-term';
/** A keyword line is one short line. */
const MAX_KEYWORD_LINE_CHARS = 120;

/** A line opening with a name in bold (`<div><b>total-max-size</b> &lt;megabytes&gt;</div>`). */
function isKeywordLine(element: Element): boolean {
  const name = element.firstElementChild;
  const text = flat(element.textContent ?? '');
  return (
    (element.tagName === 'DIV' || element.tagName === 'P') &&
    (name?.tagName === 'B' || name?.tagName === 'STRONG') &&
    flat(name.textContent ?? '') !== '' &&
    text.startsWith(flat(name.textContent ?? '')) &&
    text.length <= MAX_KEYWORD_LINE_CHARS &&
    element.children.length <= 3 &&
    !/[.:;!?]$/.test(text)
  );
}

/**
 * Keyword entries of a manual written as text (HAProxy's: the keyword and its arguments on a line
 * in bold, `tune.bufsize <number>`, several keywords sharing one description on lines of their
 * own, then the description as a `<pre>`): the lines are the term of the description, as a
 * `<dt>` is of its `<dd>`.
 */
function markKeywordEntries(root: Element): void {
  for (const pre of root.querySelectorAll('pre')) {
    const terms: Element[] = [];
    for (let before = pre.previousElementSibling; before; before = before.previousElementSibling) {
      if (isKeywordLine(before)) terms.unshift(before);
      // Anchors between the lines (`<a name="tune.bufsize"></a>`) are no text.
      else if (before.tagName !== 'A' || flat(before.textContent ?? '') !== '') break;
    }
    if (terms.length === 0 || pre.querySelector('code, kbd, samp')) continue;
    pre.setAttribute(ENTRY_TERM, terms.map((term) => flat(term.textContent ?? '')).join(', '));
    for (const term of terms) term.remove();
  }
}

/** A <pre> that is one <code>, then at most blank space: Turndown fences it, with the code's language. */
const isWholeCode = (pre: Node): boolean =>
  pre.firstChild?.nodeName === 'CODE' &&
  [...pre.childNodes].slice(1).every((node) => node.nodeType === 3 && (node.textContent ?? '').trim() === '');

const isOneLine = (pre: Node): boolean => !(pre.textContent ?? '').trim().includes('\n');

/** A table as one paragraph per row, each cell labelled by its column header when there is one. */
function tableText(table: Element): string {
  const rows = tableRows(table);
  // Each cell converted as the element it is: its HTML parsed again apart would hand a table
  // inside the cell (Apache's log format table) to this rule as a node of another DOM.
  const cells = (row: Element) => rowCells(row).map((cell) => markdown.turndown(cell as HTMLElement));
  // LaTeX converters title a table with a first row of one cell across every column ("Graph
  // Border Encoding") and write the column names below it in plain cells.
  const titled = rows.length > 2 && isTitleRow(rows[0]!, rows.slice(1));
  const titleText = titled ? flat(rows[0]!.textContent ?? '') : '';
  const rest = titled ? rows.slice(1) : rows;
  const first = rest[0];
  const headed =
    first !== undefined &&
    (first.parentElement?.tagName === 'THEAD' ||
      [...first.children].every((cell) => cell.tagName === 'TH') ||
      (titled && looksLikeHeaderRow(first)));
  const headers = headed && first ? cells(first) : [];
  const body = (headed ? rest.slice(1) : rest).map((row) => tableRowText(headers, cells(row)));
  const caption = flat(table.querySelector('caption')?.textContent ?? '') || titleText;
  // A table inside a definition (the attributes of `sys.float_info`) belongs to its term like the
  // definition's paragraphs do: a passage starting at its rows still says whose rows they are.
  const mark = insideDefinition(table) ? DEFINITION_MARK : '';
  const lines = [caption, ...body].filter((line) => line !== '').map((line) => mark + line);
  return `\n\n${lines.join('\n\n')}\n\n`;
}

/** A table's own rows, not those of a table inside one of its cells. */
const tableRows = (table: Element): Element[] =>
  [...table.querySelectorAll('tr')].filter((row) => row.closest('table') === table);

/** An attribute by name in any case: linkedom keeps the case of `<TD COLSPAN=3>` as written. */
const attribute = (element: Element, name: string): string | undefined =>
  [...element.attributes].find((attr) => attr.name.toLowerCase() === name)?.value;

const rowCells = (row: Element): Element[] =>
  [...row.children].filter((cell) => /^T[HD]$/.test(cell.tagName));

/** A first row of one cell spanning the columns of the rows below it: the table's title. */
function isTitleRow(row: Element, below: readonly Element[]): boolean {
  const [only, ...others] = rowCells(row);
  const span = Number(only ? (attribute(only, 'colspan') ?? '1') : '1');
  return others.length === 0 && span > 1 && below.every((other) => rowCells(other).length === span);
}

/** Under a title row, a row of short names without figures names the columns ("Bit | plot | splot"). */
const MAX_HEADER_CELL_CHARS = 40;
const looksLikeHeaderRow = (row: Element): boolean =>
  rowCells(row).every((cell) => {
    const text = flat(cell.textContent ?? '');
    return text !== '' && text.length <= MAX_HEADER_CELL_CHARS && !/\d/.test(text);
  });

/** Whether an element is part of a definition itself, not of a list, quote or table inside one. */
const insideDefinition = (element: Element): boolean =>
  element.parentElement?.closest('dd, li, blockquote, table')?.tagName === 'DD';

/**
 * Definition lists, before conversion: several terms of one definition (`-s`, `--signoff`) become
 * one, and every paragraph of a definition starts with the mark that ties it to its term.
 */
function markDefinitions(root: Element): void {
  // One term written as several lines (`-j njobs<br>--jobs=njobs`, DocBook's option synopses)
  // names its spellings, which would otherwise run together as "-j njobs--jobs=njobs".
  for (const lineBreak of root.querySelectorAll('dt br')) lineBreak.replaceWith(', ');
  // Texinfo writes an entry's category before its name ("Function: "); a manual that gives none
  // (Octave's `@deftypefn {}`) leaves ": ", which would read as the mark of a definition's text.
  for (const category of root.querySelectorAll('dt .category'))
    if (/^[\s:]*$/.test(category.textContent ?? '')) category.remove();
  // texi2html writes an `@itemx` line after the `@item` it pairs with as a term of its own, the
  // empty definition between them holding only the index entries' anchors (`<dt>c-format</dt>
  // <dd><a name="IDX49"></a></dd><dt>no-c-format</dt><dd><p>These flags …`): both terms name the
  // definition below them.
  for (const definition of root.querySelectorAll('dd')) {
    if (
      definition.previousElementSibling?.tagName === 'DT' &&
      definition.nextElementSibling?.tagName === 'DT' &&
      showsNothing(definition)
    )
      definition.remove();
  }
  for (const term of root.querySelectorAll('dt')) {
    let next = term.nextElementSibling;
    while (next?.tagName === 'DT') {
      term.textContent = `${flat(term.textContent ?? '')}, ${flat(next.textContent ?? '')}`;
      const merged = next;
      next = next.nextElementSibling;
      merged.remove();
    }
  }
  for (const paragraph of root.querySelectorAll('dd p')) {
    const definition = paragraph.closest('dd');
    if (definition && paragraph.closest('li, table, pre, blockquote, dl') === definition.closest('dl')) {
      paragraph.prepend(DEFINITION_MARK);
    }
  }
}

/** A parameter's name: one word, dotted or not (`FSync`, `queue.dequeueBatchSize`, `SysSock.RateLimit.Burst`). */
const PARAMETER_NAME = /^[^\s:]{1,60}$/;

/**
 * Sections that document one parameter each (a Sphinx manual's module pages: a heading that is the
 * parameter's name, then a table of one row, "type | default | mandatory | obsolete legacy
 * directive", then its description): the heading names an entry, as a `<dt>` does. Written as a
 * heading only, the default row and the sentences under it say nothing of whose they are, once
 * quoted ("default: 10000", "To mitigate this problem you can turn this option on …"). The
 * heading stays, for search and the passage's heading path; the section's content becomes the
 * definition of a term of that name.
 */
function markParameterSections(root: Element, document: Document): void {
  for (const section of root.querySelectorAll('section, div.section')) {
    // Sphinx puts the targets of references before the heading (`<span id="id2"></span>`).
    const [heading, table] = [...section.children].filter(
      (child) => !(/^(?:SPAN|A)$/.test(child.tagName) && flat(child.textContent ?? '') === ''),
    );
    if (!heading || !/^H[2-6]$/.test(heading.tagName) || table?.tagName !== 'TABLE') continue;
    const name = flat(heading.textContent ?? '');
    if (
      !PARAMETER_NAME.test(name) ||
      section.querySelector('section, div.section, h1, h2, h3, h4, h5, h6') !== heading
    )
      continue;
    const rows = tableRows(table);
    if (rows.length !== 2 || rows[0]!.parentElement?.tagName !== 'THEAD') continue;
    const list = document.createElement('dl');
    const term = document.createElement('dt');
    const definition = document.createElement('dd');
    term.textContent = name;
    while (heading.nextSibling) definition.append(heading.nextSibling);
    list.append(term, definition);
    section.append(list);
  }
}

/** How far a paragraph is indented, in percent of the page, as groff's HTML sets it (`style="margin-left:22%"`). */
const marginOf = (element: Element): number | undefined => {
  const margin = /margin-left:\s*(\d+(?:\.\d+)?)%/.exec(attribute(element, 'style') ?? '')?.[1];
  return element.tagName === 'P' && margin !== undefined ? Number(margin) : undefined;
};

/**
 * Option entries of a manual page that groff wrote as HTML (`groff -Thtml`): the option line a
 * paragraph at the text's margin (`<p style="margin-left:11%"><b>-v</b>, <b>--variables</b></p>`),
 * its description the paragraphs indented deeper under it (`margin-left:22%`). The option line is
 * the term of its description, as a `<dt>` is of its `<dd>`. A line break in the option line
 * sets the heading of a group of options, or a sentence, above the option ("<b>Operation mode:
 * <br>-U</b>, <b>--update</b>"): that part stays a paragraph before the entry.
 */
function markIndentedEntries(root: Element, document: Document): void {
  for (const line of root.querySelectorAll('p')) {
    const margin = marginOf(line);
    const below: Element[] = [];
    for (let next = line.nextElementSibling; next; next = next.nextElementSibling) {
      const nextMargin = marginOf(next);
      if (margin === undefined || nextMargin === undefined || nextMargin <= margin) break;
      below.push(next);
    }
    if (below.length === 0) continue;
    const pieces = line.innerHTML.split(/<br\s*\/?>/i);
    const term = document.createElement('dt');
    term.innerHTML = pieces.at(-1)!;
    if (flat(term.textContent ?? '') === '' || flat(term.textContent ?? '').length > MAX_KEYWORD_LINE_CHARS)
      continue;
    const list = document.createElement('dl');
    const definition = document.createElement('dd');
    definition.append(...below);
    list.append(term, definition);
    if (pieces.length > 1) {
      line.innerHTML = pieces.slice(0, -1).join(' ');
      line.after(list);
    } else line.replaceWith(list);
  }
}

/** A verb standing between two code lines ("produces", "returns", "gives", "results in"). */
const LINKING_WORDS = /^[A-Za-z]+(?: [A-Za-z]+){0,2}$/;

/** The one line of code a block holds (a `<pre>`, or Sphinx's `<div class="highlight-none">` around one), if it is one line. */
function codeLine(element: Element | null): string | undefined {
  if (!element) return undefined;
  const pre = element.tagName === 'PRE' ? element : element.querySelector('pre');
  if (!pre || flat(element.textContent ?? '') !== flat(pre.textContent ?? '')) return undefined;
  const line = (pre.textContent ?? '').trim();
  return line !== '' && !line.includes('\n') && !line.includes('`') ? line : undefined;
}

/**
 * An example and its result written as two code lines around a word (a Sphinx manual's function
 * pages: `int2hex(-13)`, then "produces", then `fffffffffffffff3`): one statement, the code lines
 * in it. Apart, the result is code, which is never quoted, and "produces" a paragraph saying nothing.
 */
function joinCodeStatements(root: Element, document: Document): void {
  for (const paragraph of root.querySelectorAll('p')) {
    const words = flat(paragraph.textContent ?? '');
    if (!LINKING_WORDS.test(words) || paragraph.children.length > 0) continue;
    const before = codeLine(paragraph.previousElementSibling);
    const after = codeLine(paragraph.nextElementSibling);
    if (before === undefined || after === undefined) continue;
    const statement = document.createElement('p');
    const example = document.createElement('code');
    const result = document.createElement('code');
    example.textContent = before;
    result.textContent = after;
    statement.append(example, ` ${words} `, result);
    paragraph.previousElementSibling!.remove();
    paragraph.nextElementSibling!.remove();
    paragraph.replaceWith(statement);
  }
}

/** Longer text than this beside a refresh is a page of its own, not a pointer to another. */
const REDIRECT_MAX_CHARS = 300;

/**
 * Where a page that only sends the reader on points (`<meta http-equiv="Refresh" content="0;
 * url=Options.html#Single-Letter-Options">` over "The node you are looking for is at Single Letter
 * Options."): texi2any writes one such stub per section of a manual split by chapter (145 of zsh's
 * 186 pages). Indexed, a stub's title alone outranks the section it names, and it says nothing.
 */
function redirectTarget(document: Document, root: Element): string | undefined {
  const refresh = [...document.querySelectorAll('meta')].find(
    (meta) => attribute(meta, 'http-equiv')?.toLowerCase() === 'refresh',
  );
  const content = refresh ? attribute(refresh, 'content') : undefined;
  const target = content ? /\burl\s*=\s*['"]?([^'"\s]+)/i.exec(content)?.[1] : undefined;
  return target && flat(root.textContent ?? '').length <= REDIRECT_MAX_CHARS ? target : undefined;
}

export function readHtml(html: string): HtmlText {
  const { document } = parseHTML(html);
  const root = mainContent(document);
  const target = redirectTarget(document, root);
  if (target) throw new SourceError(`only a redirect to ${target}: no text of its own`);
  for (const element of root.querySelectorAll(NEVER_CONTENT)) element.remove();
  for (const link of root.querySelectorAll('a[href^="#"]')) {
    if (PERMALINK_MARK.test(link.textContent ?? '')) link.remove();
  }
  // The page's own header and footer are chrome; an article's or section's are content.
  for (const element of root.querySelectorAll('header, footer')) {
    if (!element.parentElement?.closest('article, main, section')) element.remove();
  }
  unwrapLayoutTables(root);
  // texi2html writes the anchor of an index entry made before an `@item` as an item of its own
  // (`<ol><li><a name="IDX33"></a></li><li> <code>LANGUAGE</code>`): an empty item is none, and
  // kept, it would shift the numbers of the items after it.
  for (const item of root.querySelectorAll('li')) if (showsNothing(item)) item.remove();
  dropNavigationLists(root);
  dropNavigationBars(root);
  dropLinksToTop(root);
  // LaTeX2HTML writes the symbols it could not convert (`<`, `>`, `\\`) as numbered placeholders,
  // `<SPAN CLASS="MATH">4#4</SPAN>gamma<SPAN CLASS="MATH">5#5</SPAN>`: kept, they glue to the word.
  for (const span of root.querySelectorAll('span')) {
    if (/^\s*(\d+)#\1\s*$/.test(span.textContent ?? '')) span.remove();
  }
  markParameterSections(root, document);
  markIndentedEntries(root, document);
  joinCodeStatements(root, document);
  markDefinitions(root);
  markKeywordEntries(root);
  const text = normalizeText(markdown.turndown(root as HTMLElement));
  const title = cleanTitle(document.title ?? '') || firstHeading(text);
  return { text, title };
}

/**
 * Tables that only indent what they hold: one row whose cells but one are empty, as texi2html
 * sets every example of a Texinfo manual (`<table><tr><td>&nbsp;</td><td><pre class="example">…`).
 * Read as a table, the example would be a row, its lines run into one sentence; what the one cell
 * holds stands in the table's place.
 */
function unwrapLayoutTables(root: Element): void {
  for (const table of root.querySelectorAll('table')) {
    const rows = tableRows(table);
    if (rows.length !== 1) continue;
    const cells = rowCells(rows[0]!);
    const filled = cells.filter((cell) => !showsNothing(cell));
    if (filled.length === 1 && cells.length > 1) table.replaceWith(...filled[0]!.childNodes);
  }
}

/**
 * Lists made mostly of links (a page's contents, a book's index: "serial, Serial Types, serial2,
 * Serial Types, …") name where things are said rather than say them: as passages they outrank the
 * pages they point to on the very words asked about, and quote as a run of names.
 */
function dropNavigationLists(root: Element): void {
  for (const list of root.querySelectorAll('dl, ul, ol, table')) {
    if (!list.isConnected) continue;
    const items = listItems(list).length;
    const text = flat(list.textContent ?? '').length;
    if (items < NAVIGATION_MIN_ITEMS || text === 0 || list.querySelector('p, pre, table')) continue;
    // A row's header cell labels what the row says, even as a link to the label's definition
    // (Apache's directive tables: "Default:" linking to the glossary, over "ListenBackLog 511").
    const linked = [...list.querySelectorAll('a')]
      .filter((a) => !a.closest('th'))
      .reduce((sum, a) => sum + flat(a.textContent ?? '').length, 0);
    if (linked / text >= NAVIGATION_LINK_SHARE) list.remove();
  }
}

/**
 * A list's items, or a table's rows: Texinfo writes its indexes ("HISTSIZE: 15.6 Parameters Used
 * By The Shell") and chapter menus as tables of links.
 */
const listItems = (list: Element): Element[] =>
  list.tagName === 'TABLE'
    ? tableRows(list)
    : [...list.children].filter((item) => item.tagName === 'LI' || item.tagName === 'DT');

/** What a navigation bar says besides its links: "Next:", "Up:", "Previous:", "[Contents]", arrows. */
const NAVIGATION_WORDS =
  /^(?:[\s:|,;.?()[\]<>«»←→↑⇐⇒-]|\b(?:next|previous|prev|up|top|home|contents|index|back|forward|page)\b)*$/i;
/** An item of a list of navigation links is a link alone, or says no more than a title. */
const NAVIGATION_ITEM_MAX_CHARS = 80;
/** Longer blocks are content, whatever their links. */
const NAVIGATION_BAR_MAX_CHARS = 400;
/**
 * Between the links of a menu or a breadcrumb trail ("Modules | Directives | FAQ", "Apache > HTTP
 * Server > Documentation"): only bars, arrows and spaces, at least one of them a mark.
 */
const LINK_SEPARATORS = /^[\s|>»·/]*$/;
const LINK_SEPARATOR_MARK = /[|>»·]/;
/** A menu or trail links this many places at least; two links beside a bar may be a sentence's aliases. */
const MIN_SEPARATED_LINKS = 3;

/**
 * Bars of links to the next, previous and parent pages (LaTeX2HTML's "Next: Boxerrorbars Up:
 * Plotting styles Previous: Arrows", Texinfo's "Next: …, Previous: …, Up: …"): a block whose
 * text outside its links is only such words, "next", "previous" or "up" among them. Texinfo's
 * other bar, a table of arrows ("[ << ] [ < ] [ Up ] [ > ] [ >> ] [Top] [Contents] [Index] [ ? ]",
 * above every section of texi2any's chapter pages), says only such words and arrows, its links
 * included. A site's menu or breadcrumb trail is links with only bars or arrows between them.
 * Kept, every page would hold its neighbours' titles, every section the bar.
 */
function dropNavigationBars(root: Element): void {
  for (const block of root.querySelectorAll('div, p, table, ul, ol')) {
    if (!block.isConnected) continue;
    const links = [...block.querySelectorAll('a')];
    const text = flat(block.textContent ?? '');
    if (links.length < 2 || text === '' || text.length > NAVIGATION_BAR_MAX_CHARS) continue;
    let outside = block.textContent ?? '';
    for (const link of links) outside = outside.replace(link.textContent ?? '', ' ');
    const named = NAVIGATION_WORDS.test(outside) && /\b(?:next|previous|prev|up)\b/i.test(outside);
    // A site's menu and breadcrumb trail, above and below every page (Apache's manual).
    const separated =
      links.length >= MIN_SEPARATED_LINKS &&
      LINK_SEPARATORS.test(outside) &&
      LINK_SEPARATOR_MARK.test(outside);
    const arrows =
      NAVIGATION_WORDS.test(text) && /\b(?:up|top|contents)\b/i.test(text) && /[<>←→]/.test(text);
    // Links that only say where they go ("Prev", "Up", "Next") around the book's title: Publican's
    // DocBook bar above every page, a list `<li>Prev</li><li>The Debian Administrator's
    // Handbook</li><li>Next</li>`.
    const labelled =
      (block.tagName === 'UL' || block.tagName === 'OL') &&
      listItems(block).every((item) => {
        const itemLinks = [...item.querySelectorAll('a')];
        return itemLinks.length === 0
          ? flat(item.textContent ?? '').length <= NAVIGATION_ITEM_MAX_CHARS
          : shownText(item) === itemLinks.map(shownText).join(' ');
      }) &&
      links.every((link) => NAVIGATION_WORDS.test(shownText(link))) &&
      links.some((link) => /\b(?:next|previous|prev)\b/i.test(shownText(link)));
    if (named || arrows || separated || labelled) block.remove();
  }
}

/** The text a link shows: its own, or its images' alt text. */
const shownText = (element: Element): string =>
  flat(
    `${element.textContent ?? ''} ${[...element.querySelectorAll('img')].map((image) => image.getAttribute('alt') ?? '').join(' ')}`,
  );

/**
 * Links back to the page's top standing alone after a section: kept, every section of such a
 * manual ends in a paragraph "top", quoted as a sentence of its own. A link inside a sentence
 * ("Back to <a href="#top">top</a> speed") is its text.
 */
function dropLinksToTop(root: Element): void {
  for (const link of root.querySelectorAll('a[href^="#"]')) {
    const block = link.parentElement;
    if (block && BACK_TO_TOP.test(shownText(link)) && shownText(block) === shownText(link)) link.remove();
  }
}

function mainContent(document: Document): Element {
  const main = document.querySelector('main, [role="main"]');
  if (main) return main;
  const articles = document.querySelectorAll('article');
  if (articles.length === 1 && articles[0]) return articles[0];
  return document.body ?? document.documentElement;
}
