import { stemmer } from '@orama/stemmers/english';
import { stopwords } from '@orama/stopwords/english';

/**
 * Words that ask for an action rather than name a subject ("summarize X", "tell me about Y"):
 * they say nothing about which passage answers, so they do not count as question terms.
 */
const REQUEST_WORDS = [
  'summarize',
  'summarise',
  'summary',
  'explain',
  'describe',
  'tell',
  'please',
  'know',
  'give',
  'show',
  'find',
  'list',
];

const IGNORED = new Set([...stopwords, ...REQUEST_WORDS]);
const words = new Intl.Segmenter('und', { granularity: 'word' });

const term = (word: string): string => (/^[a-z]+$/.test(word) ? stemmer(word) : word);

/**
 * Normalised content terms of a text: word-like segments of any script, lower case, stemmed, no
 * stop words. A dotted name (`uuid.uuid5`, `gc.auto`) counts whole and by its parts, so a
 * question naming `uuid5` or `auto` finds it.
 */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const segment of words.segment(text.normalize('NFKC').toLowerCase())) {
    if (!segment.isWordLike || IGNORED.has(segment.segment)) continue;
    terms.push(term(segment.segment));
    if (/^[^.]+(\.[^.]+)+$/.test(segment.segment) && !/^[\d.]+$/.test(segment.segment)) {
      for (const part of segment.segment.split('.')) if (!IGNORED.has(part)) terms.push(term(part));
    }
  }
  return terms;
}

export function distinctTerms(text: string): Set<string> {
  return new Set(contentTerms(text));
}
