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

/**
 * Comparatives and superlatives of the adjectives manuals state bounds with ("the highest value",
 * "larger than"), which stemming keeps apart from the word a table or text uses ("High Value").
 */
const GRADED = /^(high|low|larg|small|long|short|bigg|wid|great|earli|lat|fast|slow|old|new)(?:er|est)$/;
const GRADED_BASE: Record<string, string> = {
  larg: 'large',
  bigg: 'big',
  wid: 'wide',
  earli: 'early',
  lat: 'late',
};

const term = (word: string): string => {
  if (!/^[a-z]+$/.test(word)) return word;
  const graded = GRADED.exec(word)?.[1];
  return stemmer(graded ? (GRADED_BASE[graded] ?? graded) : word);
};

/**
 * Normalised content terms of a text: word-like segments of any script, lower case, stemmed, no
 * stop words. A dotted name (`uuid.uuid5`, `gc.auto`) counts whole and by its parts, so a
 * question naming `uuid5` or `auto` finds it.
 */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of wordsOf(text.normalize('NFKC').toLowerCase())) {
    if (IGNORED.has(word)) continue;
    terms.push(term(word));
    if (/^[^.]+(\.[^.]+)+$/.test(word) && !/^[\d.]+$/.test(word)) {
      for (const part of word.split('.')) if (!IGNORED.has(part)) terms.push(term(part));
    }
  }
  return terms;
}

/** The word-like segments of a text, in order, as written. */
export function* wordsOf(text: string): Generator<string> {
  for (const piece of pieces(text)) {
    for (const segment of words.segment(piece)) if (segment.isWordLike) yield segment.segment;
  }
}

const PIECE_LENGTH = 1000;

/**
 * The text cut at whitespace into pieces of about PIECE_LENGTH characters: Intl.Segmenter slows
 * down on long strings (a pasted 30 KB question took about 250 ms a pass), and no word spans a space.
 */
function* pieces(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = start + PIECE_LENGTH;
    if (end < text.length) {
      const space = text.slice(end).search(/\s/);
      end = space === -1 ? text.length : end + space;
    }
    yield text.slice(start, end);
    start = end;
  }
}

export function distinctTerms(text: string): Set<string> {
  return new Set(contentTerms(text));
}

/**
 * Two words of a text that a manual may write as one ("Red Hat" and "RedHat", "state path" and
 * `--with-statepath`, "file name" and "filename"): the term of the joined word, with the terms of
 * the two words it stands for. Only content words side by side, separated by spaces alone.
 */
export function joinedTerms(text: string): Map<string, [string, string]> {
  const joined = new Map<string, [string, string]>();
  const pairs = text
    .normalize('NFKC')
    .toLowerCase()
    .matchAll(/(?<![\w.-])([a-z]+)\s+(?=([a-z]+)(?![\w-]|\.\w))/g);
  for (const [, first, second] of pairs) {
    if (IGNORED.has(first!) || IGNORED.has(second!)) continue;
    joined.set(term(first! + second!), [term(first!), term(second!)]);
  }
  return joined;
}
