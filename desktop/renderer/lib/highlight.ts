/** A run of text, marked when it matches a query term. */
export interface TextPart {
  text: string;
  match: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a query worth highlighting: two or more letters or digits, lower case, once each. */
export function queryTerms(query: string): string[] {
  const words = (query.toLowerCase().match(WORD) ?? []).filter((word) => word.length >= 2);
  return [...new Set(words)];
}

/**
 * Whether a word of the text matches a term: the same word, or one a prefix of the other when the
 * shorter has four or more letters, so "rotors" lights up for "rotor" as the stemmed search found it.
 */
function matches(word: string, terms: readonly string[]): boolean {
  const lower = word.toLowerCase();
  return terms.some((term) => {
    if (lower === term) return true;
    const [shorter, longer] = lower.length < term.length ? [lower, term] : [term, lower];
    return shorter.length >= 4 && longer.startsWith(shorter);
  });
}

/** Splits text into runs, marking each word that matches a term. */
export function highlightParts(text: string, terms: readonly string[]): TextPart[] {
  const parts: TextPart[] = [];
  const push = (piece: string, match: boolean) => {
    if (!piece) return;
    const last = parts.at(-1);
    if (last && last.match === match) last.text += piece;
    else parts.push({ text: piece, match });
  };
  let end = 0;
  for (const found of text.matchAll(WORD)) {
    const start = found.index;
    const word = found[0];
    push(text.slice(end, start), false);
    push(word, terms.length > 0 && matches(word, terms));
    end = start + word.length;
  }
  push(text.slice(end), false);
  return parts;
}
