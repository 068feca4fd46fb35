import { ensureLength } from './growable.js';
import { DEFAULT_SETTINGS } from './settings.js';
import { createTokenizer } from './tokenizer.js';

const tokenizer = createTokenizer(DEFAULT_SETTINGS.tokenizer);
export const DEFAULT_SNIPPET_LENGTH = 300;
const ELLIPSIS = '…';

/**
 * The part of a chunk's text that best shows why it matched: the window of at most `maxLength`
 * characters holding the most distinct query terms (then the most occurrences), widened to word
 * boundaries, with whitespace collapsed and "…" where text was cut.
 */
export function makeSnippet(text: string, query: string, maxLength = DEFAULT_SNIPPET_LENGTH): string {
  if (text.length <= maxLength) return collapse(text);
  const { set, keys } = queryTerms(query);
  const hits = startHits(keys.size);
  tokenizer.forEachTermIn(text, set, (term, start, end) => hits.push(keys.get(term) as number, start, end));
  return snippetAround(text, hits, maxLength);
}

/**
 * Where the query's terms occur in a text, in reading order: which query term (a number below the
 * query's count of distinct terms) and the [start, end) of the word it came from. One instance is
 * reused by every snippet: snippets are made one at a time.
 */
export class SnippetHits {
  terms = new Int32Array(64);
  starts = new Int32Array(64);
  ends = new Int32Array(64);
  count = 0;
  /** Occurrences in the window, per query term. */
  inWindow = new Int32Array(16);

  push(term: number, start: number, end: number): void {
    if (this.count === this.terms.length) {
      this.terms = ensureLength(this.terms, this.count + 1);
      this.starts = ensureLength(this.starts, this.count + 1);
      this.ends = ensureLength(this.ends, this.count + 1);
    }
    this.terms[this.count] = term;
    this.starts[this.count] = start;
    this.ends[this.count++] = end;
  }
}

const sharedHits = new SnippetHits();

/** The shared hits, emptied, for a query of `termCount` distinct terms. */
export function startHits(termCount: number): SnippetHits {
  sharedHits.count = 0;
  sharedHits.inWindow = ensureLength(sharedHits.inWindow, termCount);
  sharedHits.inWindow.fill(0, 0, termCount);
  return sharedHits;
}

/** The snippet of a text longer than `maxLength` around the hits found in it. */
export function snippetAround(text: string, hits: SnippetHits, maxLength = DEFAULT_SNIPPET_LENGTH): string {
  const { terms, starts, ends, count, inWindow } = hits;
  let bestStart = 0;
  let bestDistinct = 0;
  let bestCount = 0;
  let distinct = 0;
  for (let first = 0, last = 0; first < count; first++) {
    const windowStart = starts[first] as number;
    for (; last < count && (ends[last] as number) - windowStart <= maxLength; last++) {
      const term = terms[last] as number;
      if (inWindow[term] === 0) distinct++;
      inWindow[term] = (inWindow[term] as number) + 1;
    }
    const inside = last - first;
    if (distinct > bestDistinct || (distinct === bestDistinct && inside > bestCount)) {
      bestDistinct = distinct;
      bestCount = inside;
      bestStart = windowStart;
    }
    const leaving = terms[first] as number;
    // A window that took no hit in (one word longer than maxLength) holds none to let go of.
    if ((inWindow[leaving] as number) > 0) {
      inWindow[leaving] = (inWindow[leaving] as number) - 1;
      if (inWindow[leaving] === 0) distinct--;
    }
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

/** The last query's distinct terms, each with its number: a search makes one snippet per result for the same query. */
let lastQuery: string | undefined;
let lastQueryTerms: { set: ReadonlySet<string>; keys: ReadonlyMap<string, number> } = {
  set: new Set(),
  keys: new Map(),
};

function queryTerms(query: string): typeof lastQueryTerms {
  if (query !== lastQuery) {
    const set = new Set(tokenizer.terms(query));
    lastQueryTerms = { set, keys: new Map([...set].map((term, key) => [term, key])) };
    lastQuery = query;
  }
  return lastQueryTerms;
}

/** A run of whitespace `\s+` → " " changes: two or more characters, or one that is not a space. */
const CHANGED_SPACE = /\s{2,}|[^\S ]/g;

/**
 * `text.replace(/\s+/g, ' ').trim()`, copying the text only around the runs that change, which a
 * regular expression finds: most Cranfield windows hold one, the blank line after their heading. A
 * loop reading each character by code cost more: a window is a slice of its chunk's text, itself
 * most often a slice of its document's, and each character read from a slice costs a call where
 * the expression reads them in place.
 */
export function collapse(text: string): string {
  let collapsed = '';
  // Where the text not yet copied into `collapsed` starts.
  let from = 0;
  CHANGED_SPACE.lastIndex = 0;
  for (let run = CHANGED_SPACE.exec(text); run !== null; run = CHANGED_SPACE.exec(text)) {
    collapsed += `${text.slice(from, run.index)} `;
    from = run.index + run[0].length;
  }
  return (from === 0 ? text : collapsed + text.slice(from)).trim();
}
