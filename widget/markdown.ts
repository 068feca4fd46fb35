/**
 * A small Markdown subset for agent answers, parsed to a tree that is rendered with Lit templates:
 * there is no HTML string anywhere, so raw HTML in an answer stays text by construction. Supported:
 * paragraphs with line breaks, ATX headings, fenced code, block quotes, bullet and numbered lists,
 * rules; inline code, strong, emphasis, links and bare URLs (http, https and mailto only), and
 * backslash escapes of punctuation (`\*` is a literal asterisk).
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] }
  | { kind: 'break' };

export type Block =
  | { kind: 'paragraph'; children: Inline[] }
  | { kind: 'heading'; level: number; children: Inline[] }
  | { kind: 'code'; text: string }
  | { kind: 'quote'; children: Block[] }
  | { kind: 'list'; ordered: boolean; start: number; items: Inline[][] }
  | { kind: 'rule' };

/**
 * A code fence; a backtick fence's info string holds no backtick (CommonMark), so a line opening
 * with a code span of three backticks (`` ``` 2>&1 ``` [1] ``) is a paragraph, not a fence.
 */
const FENCE = /^ {0,3}(`{3,}(?!.*`)|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const QUOTE = /^ {0,3}> ?/;
const BULLET = /^ {0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^ {0,3}(\d{1,9})[.)]\s+(.*)$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;

/** Only these schemes become links; anything else (javascript:, data:, …) stays text. */
export function safeHref(url: string): string | undefined {
  const trimmed = url.trim();
  return /^(https?:\/\/|mailto:)\S+$/i.test(trimmed) ? trimmed : undefined;
}

function startsBlock(line: string): boolean {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    QUOTE.test(line) ||
    BULLET.test(line) ||
    NUMBERED.test(line) ||
    RULE.test(line)
  );
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(marker)) body.push(lines[i++]!);
      i++; // the closing fence, or past the end
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]!.length, children: parseInline(heading[2]!) });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) body.push(lines[i++]!.replace(QUOTE, ''));
      blocks.push({ kind: 'quote', children: parseMarkdown(body.join('\n')) });
      continue;
    }
    const numbered = NUMBERED.exec(line);
    if (BULLET.test(line) || numbered) {
      const ordered = numbered !== null;
      const pattern = ordered ? NUMBERED : BULLET;
      const items: string[] = [];
      while (i < lines.length) {
        const current = lines[i]!;
        const match = pattern.exec(current);
        if (match) items.push(match[match.length - 1]!);
        else if (current.trim() !== '' && /^\s+/.test(current) && items.length > 0) {
          items[items.length - 1] += `\n${current.trim()}`; // a continuation line of the item
        } else break;
        i++;
      }
      blocks.push({
        kind: 'list',
        ordered,
        start: ordered ? Number(numbered[1]) : 1,
        items: items.map(parseInline),
      });
      continue;
    }
    const body: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '' && (body.length === 0 || !startsBlock(lines[i]!))) {
      body.push(lines[i++]!.trim());
    }
    blocks.push({ kind: 'paragraph', children: parseInline(body.join('\n')) });
  }
  return blocks;
}

// The earliest of: code span, link, bare URL, strong, emphasis, backslash escape, line break. An
// underscore inside a word (`kicad_prl`) opens nothing, as in CommonMark; an asterisk may.
const INLINE =
  /(`+)([\s\S]*?[^`])\1(?!`)|\[([^\]\n]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])|(\*\*|(?<!\w)__)(?=\S)([\s\S]*?\S)\6|(\*|(?<!\w)_)(?=\S)([\s\S]*?\S)\8(?![\w*])|\\([!-/:-@[-`{-~])|\n/;

export function parseInline(source: string): Inline[] {
  const out: Inline[] = [];
  let rest = source;
  const text = (value: string) => {
    if (value === '') return;
    const last = out[out.length - 1];
    if (last?.kind === 'text') last.text += value;
    else out.push({ kind: 'text', text: value });
  };
  for (;;) {
    const match = INLINE.exec(rest);
    if (!match) break;
    text(rest.slice(0, match.index));
    rest = rest.slice(match.index + match[0].length);
    const [whole, , code, linkText, linkUrl, bareUrl, , strong, , em, escaped] = match;
    if (escaped !== undefined) text(escaped);
    else if (code !== undefined) out.push({ kind: 'code', text: code.trim() || code });
    else if (linkText !== undefined) {
      const href = safeHref(linkUrl!);
      if (href) out.push({ kind: 'link', href, children: parseInline(linkText) });
      else text(linkText);
    } else if (bareUrl !== undefined)
      out.push({ kind: 'link', href: bareUrl, children: [{ kind: 'text', text: bareUrl }] });
    else if (strong !== undefined) out.push({ kind: 'strong', children: parseInline(strong) });
    else if (em !== undefined) out.push({ kind: 'em', children: parseInline(em) });
    else if (whole === '\n') out.push({ kind: 'break' });
  }
  text(rest);
  return out;
}

function inlineText(nodes: readonly Inline[]): string {
  return nodes
    .map((node) =>
      node.kind === 'text' || node.kind === 'code'
        ? node.text
        : node.kind === 'break'
          ? ' '
          : inlineText(node.children),
    )
    .join('');
}

/** The words of a Markdown text without its markup, for one-line previews. */
export function markdownToPlainText(source: string): string {
  const text = (block: Block): string => {
    switch (block.kind) {
      case 'paragraph':
      case 'heading':
        return inlineText(block.children);
      case 'code':
        return block.text;
      case 'quote':
        return block.children.map(text).join(' ');
      case 'list':
        return block.items.map(inlineText).join(' ');
      case 'rule':
        return '';
    }
  };
  return parseMarkdown(source).map(text).join(' ').replace(/\s+/g, ' ').trim();
}
