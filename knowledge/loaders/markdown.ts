/**
 * Markdown and MDX as indexable text: front matter read for its title and removed, MDX's
 * import/export blocks, JSX tags and `{expressions}` dropped (their children kept), setext
 * headings rewritten as `#` headings so the chunker sees one heading syntax, and pipe tables
 * rewritten as one paragraph per row whose cells keep their column headers (knowledge/structure.ts).
 */
import { parse as parseYaml } from 'yaml';
import { tableRowText } from '../structure.js';
import { cleanTitle, normalizeText } from './normalize.js';

export interface MarkdownText {
  text: string;
  /** From front matter `title:`, else the first `# ` heading. */
  title?: string;
  warnings: string[];
}

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;
/** A line opening or closing a fenced code block, its marker captured. */
export const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;

export function readMarkdown(raw: string, options: { mdx: boolean }): MarkdownText {
  const warnings: string[] = [];
  let body = normalizeText(raw);
  let title: string | undefined;
  const frontMatter = FRONT_MATTER.exec(body);
  if (frontMatter) {
    body = body.slice(frontMatter[0].length);
    try {
      title = frontMatterTitle(parseYaml(frontMatter[1] ?? ''));
    } catch {
      warnings.push('front matter is not valid YAML: its title was not read');
    }
  }
  const lines = options.mdx ? withoutMdxSyntax(body.split('\n')) : body.split('\n');
  const text = normalizeText(withTableRows(withAtxHeadings(lines)).join('\n'));
  return { text, title: title ?? firstHeading(text), warnings };
}

function frontMatterTitle(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !('title' in data)) return undefined;
  const { title } = data;
  if (typeof title !== 'string' && typeof title !== 'number') return undefined;
  return cleanTitle(String(title)) || undefined;
}

/** The first level-1 `#` heading outside code fences. */
export function firstHeading(markdown: string): string | undefined {
  for (const { line, fenced } of linesWithFences(markdown.split('\n'))) {
    const match = fenced ? null : ATX_HEADING.exec(line);
    if (match?.[1] === '#' && match[2]) return cleanTitle(match[2]);
  }
  return undefined;
}

/** Each line with whether it lies inside (or opens or closes) a fenced code block. */
export function* linesWithFences(lines: string[]): Generator<{ line: string; fenced: boolean }> {
  let fence: string | undefined;
  for (const line of lines) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      yield { line, fenced: true };
    } else if (marker) {
      fence = marker;
      yield { line, fenced: true };
    } else {
      yield { line, fenced: false };
    }
  }
}

/** `Title` over `===` or `---` becomes `# Title` or `## Title`. */
function withAtxHeadings(lines: string[]): string[] {
  const out: string[] = [];
  for (const { line, fenced } of linesWithFences(lines)) {
    const previous = out.at(-1);
    const underline = fenced ? null : /^ {0,3}(=+|-+)[ \t]*$/.exec(line);
    const previousIsText =
      previous !== undefined && previous.trim() !== '' && !/^ {0,3}[#>*+\-|`~]/.test(previous);
    if (underline && previousIsText) {
      out[out.length - 1] = `${underline[1]?.startsWith('=') ? '#' : '##'} ${previous.trim()}`;
    } else {
      out.push(line);
    }
  }
  return out;
}

const TABLE_DELIMITER_ROW = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** The cells of a pipe-table line: split at pipes that are not escaped, outer pipes dropped. */
function tableCells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.replace(/\\\|/g, '|').trim());
}

/** A pipe table (header line, delimiter row, body lines) becomes one paragraph per body row. */
function withTableRows(lines: string[]): string[] {
  const out: string[] = [];
  const marked = [...linesWithFences(lines)];
  for (let i = 0; i < marked.length; i++) {
    const { line, fenced } = marked[i]!;
    const delimiter = marked[i + 1];
    const isTable =
      !fenced &&
      line.includes('|') &&
      delimiter !== undefined &&
      !delimiter.fenced &&
      delimiter.line.includes('-') &&
      TABLE_DELIMITER_ROW.test(delimiter.line);
    if (!isTable) {
      out.push(line);
      continue;
    }
    const headers = tableCells(line);
    out.push('');
    for (i += 2; i < marked.length && !marked[i]!.fenced && marked[i]!.line.includes('|'); i++) {
      out.push(tableRowText(headers, tableCells(marked[i]!.line)), '');
    }
    i--;
  }
  return out;
}

/**
 * MDX: an `import`/`export` statement goes, up to where its brackets close (or a blank line);
 * lines that are only JSX tags or `{expressions}` go; JSX tags inside text go, their text stays.
 */
function withoutMdxSyntax(lines: string[]): string[] {
  const out: string[] = [];
  let inEsm = false;
  let inTag = false;
  let depth = 0;
  for (const { line, fenced } of linesWithFences(lines)) {
    if (fenced) {
      out.push(line);
      continue;
    }
    if (inEsm) {
      inEsm = line.trim() !== '' && statementContinues(line, (depth += bracketBalance(line)));
      continue;
    }
    if (inTag) {
      // A multi-line opening tag ends at the line holding its closing `>`.
      if (/>\s*$/.test(line)) inTag = false;
      continue;
    }
    if (/^(import|export)\s/.test(line)) {
      depth = bracketBalance(line);
      inEsm = statementContinues(line, depth);
      continue;
    }
    if (/^\s*\{[\s\S]*\}\s*$/.test(line)) continue;
    if (/^\s*<\/?[A-Z][\w.]*(\s[^>]*)?$/.test(line)) {
      inTag = true;
      continue;
    }
    out.push(stripJsxTags(line));
  }
  return out;
}

function bracketBalance(line: string): number {
  return (line.match(/[{([]/g)?.length ?? 0) - (line.match(/[})\]]/g)?.length ?? 0);
}

function statementContinues(line: string, depth: number): boolean {
  return depth > 0 || /(,|=>?|\bfrom|\{|\()\s*$/.test(line);
}

/** Removes JSX tags and fragments outside inline code spans. */
function stripJsxTags(line: string): string {
  const stripped = line
    .split(/(`+[^`]*`+)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/<\/?(?:[A-Z][\w.]*(?:\s[^<>]*?)?)?\/?>/g, '')))
    .join('');
  return stripped.trim() === '' ? '' : stripped;
}
