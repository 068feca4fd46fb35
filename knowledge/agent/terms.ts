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

/** Normalised content terms of a text: word-like segments of any script, lower case, stemmed, no stop words. */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const segment of words.segment(text.normalize('NFKC').toLowerCase())) {
    if (!segment.isWordLike || IGNORED.has(segment.segment)) continue;
    terms.push(/^[a-z]+$/.test(segment.segment) ? stemmer(segment.segment) : segment.segment);
  }
  return terms;
}

export function distinctTerms(text: string): Set<string> {
  return new Set(contentTerms(text));
}
