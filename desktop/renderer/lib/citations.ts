/** A run of an answer: plain text, or a citation mark naming one or more passages. */
export type AnswerPart = { kind: 'text'; text: string } | { kind: 'citation'; numbers: number[] };

/** `[1]`, `[2, 3]` or `[2,3]`, as the agent and language models write them. */
const CITATION_MARK = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

/** Splits an answer into text and citation marks, so each mark can open its source. */
export function answerParts(text: string): AnswerPart[] {
  const parts: AnswerPart[] = [];
  let end = 0;
  for (const found of text.matchAll(CITATION_MARK)) {
    if (found.index > end) parts.push({ kind: 'text', text: text.slice(end, found.index) });
    parts.push({ kind: 'citation', numbers: (found[1] ?? '').split(',').map((n) => Number(n.trim())) });
    end = found.index + found[0].length;
  }
  if (end < text.length) parts.push({ kind: 'text', text: text.slice(end) });
  return parts;
}

/**
 * The answer without its trailing `Sources:` list: the window shows the sources as links of its own.
 * An answer still streaming in may end in part of the list; that part is cut as soon as it starts.
 */
export function answerBody(text: string): string {
  const index = text.search(/(?:^|\n)\s*Sources:/);
  return (index === -1 ? text : text.slice(0, index)).trimEnd();
}
