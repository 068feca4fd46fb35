import { DEFAULT_SETTINGS } from './settings.js';
import { createTokenizer } from './tokenizer.js';

const tokenizer = createTokenizer(DEFAULT_SETTINGS.tokenizer);
const DEFAULT_SNIPPET_LENGTH = 300;
const ELLIPSIS = '…';

/**
 * The part of a chunk's text that best shows why it matched: the window of at most `maxLength`
 * characters holding the most distinct query terms (then the most occurrences), widened to word
 * boundaries, with whitespace collapsed and "…" where text was cut.
 */
export function makeSnippet(text: string, query: string, maxLength = DEFAULT_SNIPPET_LENGTH): string {
  if (text.length <= maxLength) return collapse(text);
  const wanted = queryTerms(query);
  const hits: { term: string; start: number; end: number }[] = [];
  tokenizer.forEachTermIn(text, wanted, (term, start, end) => hits.push({ term, start, end }));

  let bestStart = 0;
  let bestDistinct = 0;
  let bestCount = 0;
  const inWindow = new Map<string, number>();
  for (let first = 0, last = 0; first < hits.length; first++) {
    const windowStart = (hits[first] as (typeof hits)[number]).start;
    for (
      ;
      last < hits.length && (hits[last] as (typeof hits)[number]).end - windowStart <= maxLength;
      last++
    ) {
      const term = (hits[last] as (typeof hits)[number]).term;
      inWindow.set(term, (inWindow.get(term) ?? 0) + 1);
    }
    const count = last - first;
    if (inWindow.size > bestDistinct || (inWindow.size === bestDistinct && count > bestCount)) {
      bestDistinct = inWindow.size;
      bestCount = count;
      bestStart = windowStart;
    }
    const leaving = (hits[first] as (typeof hits)[number]).term;
    const remaining = (inWindow.get(leaving) ?? 1) - 1;
    if (remaining === 0) inWindow.delete(leaving);
    else inWindow.set(leaving, remaining);
  }

  // Start a little before the first hit, at a word boundary, so the match reads in context.
  let start = Math.max(0, Math.min(bestStart - Math.floor(maxLength / 6), text.length - maxLength));
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space !== -1 && space < bestStart) start = space + 1;
  }
  let end = Math.min(text.length, start + maxLength);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start) end = space;
  }
  return `${start > 0 ? ELLIPSIS : ''}${collapse(text.slice(start, end))}${end < text.length ? ELLIPSIS : ''}`;
}

/** The last query's terms: a search makes one snippet per result for the same query. */
let lastQuery: string | undefined;
let lastQueryTerms: ReadonlySet<string> = new Set();

function queryTerms(query: string): ReadonlySet<string> {
  if (query !== lastQuery) {
    lastQueryTerms = new Set(tokenizer.terms(query));
    lastQuery = query;
  }
  return lastQueryTerms;
}

/** Whitespace other than single spaces: what collapsing changes inside a text. */
const UNCOLLAPSED = /[^\S ]| {2}/;

function collapse(text: string): string {
  return (UNCOLLAPSED.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
}
