import { stemmer } from '@orama/stemmers/english';
import { stopwords } from '@orama/stopwords/english';
import type { TokenizerSettings } from './settings.js';

/**
 * Text → index terms, for any script. Words are found by a Unicode regex that follows UAX #29 for
 * space-separated scripts (letters, marks and digits; apostrophes inside words, decimal points
 * inside numbers); scripts written without spaces go to `Intl.Segmenter` (Thai, Lao, Khmer,
 * Myanmar) or become character bigrams (Chinese, Japanese, Korean), so "東京" is found in
 * "東京都に住んでいます". `Intl.Segmenter` is not used for everything: measured on Cranfield it
 * reads about 0.5 MB/s and slows down further on long strings, twenty times slower than the regex.
 * Every word is NFKC-normalised and lower-cased; latin, greek and cyrillic words lose their
 * diacritics; latin-script words lose English stop words and are Porter-stemmed. With the
 * `symbols` setting, symbol literals are terms too, as written (case kept: strftime's `%H` is not
 * its `%h`), each just before the word terms it holds: a `%` escape (`%t`, `%>s`, `%-d`, `%.2f`,
 * `%lu`, `%~`), a backslash macro (`\relative`) and a run of two or three operator characters
 * standing alone (`&&`, `>>`, `->>`, `@>`). Words alone reduce `%t` to "t", which a question
 * "What does %t log?" shares with every passage.
 */
export interface Tokenizer {
  readonly settings: TokenizerSettings;
  /** The terms of `text` in reading order; repeated terms are kept, term frequency matters. */
  terms(text: string): string[];
  /** Calls `onTerm` with each term and the [start, end) offsets in `text` of the word it came from. */
  forEachTerm(text: string, onTerm: (term: string, start: number, end: number) => void): void;
  /**
   * `forEachTerm` for only the terms in `wanted`, cheaper: an ASCII word is looked at only when
   * its first letter starts a wanted term (stemming and stop words never change a first letter).
   */
  forEachTermIn(
    text: string,
    wanted: ReadonlySet<string>,
    onTerm: (term: string, start: number, end: number) => void,
  ): void;
}

/** Nothing beyond ASCII: such text needs no Unicode normalisation, and lower-casing keeps offsets. */
const NON_ASCII = /[^\p{ASCII}]/u;
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+|[.,]\p{N}+)*/gu;
/** NFKC can turn one symbol into several characters, "⑴" into "(1)": such words are split again. */
const NOT_WORD_CHARACTER = /[^\p{L}\p{M}\p{N}'.,]/u;
const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
const CJK_OR_OTHER_RUN =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+|[^\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+/gu;
const WRITTEN_WITHOUT_SPACES = /[\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;
const FOLDABLE_WORD = /^[\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}\p{M}\p{N}'.,]+$/u;
const COMBINING_MARK = /\p{M}/gu;
/** Letters NFD does not decompose into a base letter and a mark. */
const UNDECOMPOSABLE = /[ßæœøđðłþıħŧŀ]/g;
const UNDECOMPOSABLE_FOLDED: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŀ: 'l',
};
const LATIN_WORD = /^[a-z0-9'.,]+$/;
const LETTERS = /^[a-z]+$/;
/** Longer "words" are encoded data or run-together junk, not something anyone searches for. */
const MAX_TERM_LENGTH = 64;
const WORD_CACHE_LIMIT = 200_000;

/**
 * A `%` escape (not after a digit: "50%"), with printf's and strftime's flags, width and precision
 * and up to three letters (`%lu`; none after them: "%APPDATA%" is no escape), or zsh's `%~`, `%#`,
 * `%?`, `%%`; a backslash and letters; two or three operator characters with none beside them and
 * no letter or digit either (`2>&1`, `a->b` are not standing alone).
 */
const SYMBOL =
  /(?<![\p{N}%])%(?:[-+#_^<>!']{0,3}[0-9]{0,3}(?:\.[0-9]{0,3})?[A-Za-z]{1,3}(?!\p{L})|[~#?%])|(?<!\\)\\[A-Za-z]{1,32}(?![A-Za-z])|(?<![\p{L}\p{N}&|<>=!~@^?:;+*/#-])[&|<>=!~@^?:;+*/#-]{2,3}(?![\p{L}\p{N}&|<>=!~@^?:;+*/#-])/uy;
/**
 * Runs that are punctuation, Markdown, arrows or comparisons, which prose and pseudo-code write
 * too ("x <= y", "a --> b" in CACM's abstracts), not operators a manual defines: "--", "**", "//",
 * "##", "?!", "::", "+-", "->", "=>", "<=", "!=".
 */
const NOT_OPERATOR = /^(?:-+|\*+|\/+|#+|[!?]+|:+|\+-|-\+|-+>|<-+|=+>|[<>!=]=|<>)$/;
/** A character no word term starts with: a wanted term starting so is a symbol's. */
const SYMBOL_START = /^[%\\&|<>=!~@^?:;+*/#-]/;
/** The characters a symbol starts with, by code: the pattern is tried only there (half the cost). */
const STARTS_SYMBOL = new Uint8Array(128);
for (const character of '%\\&|<>=!~@^?:;+*/#-') STARTS_SYMBOL[character.charCodeAt(0)] = 1;

const englishStopWords: ReadonlySet<string> = new Set(stopwords);
let wordSegmenter: Intl.Segmenter | undefined;

export function createTokenizer(settings: TokenizerSettings): Tokenizer {
  /** Word → its term, '' for a dropped word: words repeat, and stemming builds regexps on every call. */
  const termOfWord = new Map<string, string>();

  function termOf(word: string): string {
    let term = word;
    if (settings.foldDiacritics && NON_ASCII.test(term) && FOLDABLE_WORD.test(term))
      term = foldDiacritics(term);
    if (LATIN_WORD.test(term)) {
      if (settings.stopWords && englishStopWords.has(term)) return '';
      if (term.includes("'")) {
        term = (term.endsWith("'s") ? term.slice(0, -2) : term).replaceAll("'", '');
        if (settings.stopWords && englishStopWords.has(term)) return '';
      }
      if (settings.stemming && LETTERS.test(term)) term = stemmer(term);
    } else if (term.includes("'")) {
      term = term.replaceAll("'", '');
    }
    return term.length <= MAX_TERM_LENGTH ? term : '';
  }

  function cachedTermOf(word: string): string {
    let term = termOfWord.get(word);
    if (term === undefined) {
      if (termOfWord.size >= WORD_CACHE_LIMIT) termOfWord.clear();
      term = termOf(word);
      termOfWord.set(word, term);
    }
    return term;
  }

  /** A lower-cased, NFKC word with no CJK and no unspaced script in it. */
  function emitWord(word: string, start: number, end: number, onTerm: TermSink): void {
    const term = cachedTermOf(word);
    if (term !== '') onTerm(term, start, end);
  }

  /** A lower-cased, NFKC word of any script. */
  function emitAnyWord(word: string, start: number, end: number, onTerm: TermSink): void {
    if (CJK.test(word)) {
      const exactOffsets = end - start === word.length;
      for (const run of word.matchAll(CJK_OR_OTHER_RUN)) {
        const runStart = exactOffsets ? start + run.index : start;
        const runEnd = exactOffsets ? runStart + run[0].length : end;
        if (CJK.test(run[0])) emitBigrams(run[0], runStart, runEnd, exactOffsets, onTerm);
        else emitAnyWord(run[0], runStart, runEnd, onTerm);
      }
    } else if (WRITTEN_WITHOUT_SPACES.test(word)) {
      wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
      for (const segment of wordSegmenter.segment(word)) {
        if (segment.isWordLike) emitWord(segment.segment, start, end, onTerm);
      }
    } else {
      emitWord(word, start, end, onTerm);
    }
  }

  /** The words' terms with the symbols' terms among them, each at its place in the text. */
  function forEachTerm(text: string, onTerm: TermSink): void {
    const symbols = settings.symbols ? symbolsOf(text) : NO_SYMBOLS;
    if (symbols.length === 0) {
      forEachWordTerm(text, onTerm);
      return;
    }
    let next = 0;
    forEachWordTerm(text, (term, start, end) => {
      while (next < symbols.length && (symbols[next] as SymbolTerm).start <= start) {
        const symbol = symbols[next++] as SymbolTerm;
        onTerm(symbol.term, symbol.start, symbol.end);
      }
      onTerm(term, start, end);
    });
    for (; next < symbols.length; next++) {
      const symbol = symbols[next] as SymbolTerm;
      onTerm(symbol.term, symbol.start, symbol.end);
    }
  }

  function forEachWordTerm(text: string, onTerm: TermSink): void {
    if (!NON_ASCII.test(text)) {
      // Lower-casing ASCII keeps every offset, so one pass over the lowered text is enough.
      const lowered = text.toLowerCase();
      forEachAsciiWord(lowered, (start, end) => emitWord(lowered.slice(start, end), start, end, onTerm));
      return;
    }
    for (const match of text.matchAll(WORD)) {
      const start = match.index;
      const end = start + match[0].length;
      const word = match[0].normalize('NFKC').toLowerCase().replaceAll('’', "'");
      if (NOT_WORD_CHARACTER.test(word)) {
        for (const part of word.matchAll(WORD)) emitAnyWord(part[0], start, end, onTerm);
      } else {
        emitAnyWord(word, start, end, onTerm);
      }
    }
  }

  function forEachTermIn(text: string, wanted: ReadonlySet<string>, onTerm: TermSink): void {
    if (NON_ASCII.test(text) || (settings.symbols && wantsSymbol(wanted))) {
      forEachTerm(text, (term, start, end) => {
        if (wanted.has(term)) onTerm(term, start, end);
      });
      return;
    }
    const firstLetters = new Uint8Array(128);
    for (const term of wanted) {
      const code = term.charCodeAt(0);
      if (code < 128) firstLetters[code] = 1;
    }
    const lowered = text.toLowerCase();
    forEachAsciiWord(lowered, (start, end) => {
      if (firstLetters[lowered.charCodeAt(start)] === 0) return;
      const term = cachedTermOf(lowered.slice(start, end));
      if (wanted.has(term)) onTerm(term, start, end);
    });
  }

  return {
    settings,
    forEachTerm,
    forEachTermIn,
    terms(text) {
      const terms: string[] = [];
      forEachTerm(text, (term) => terms.push(term));
      return terms;
    },
  };
}

type TermSink = (term: string, start: number, end: number) => void;

interface SymbolTerm {
  term: string;
  start: number;
  end: number;
}

const NO_SYMBOLS: readonly SymbolTerm[] = [];

/** The symbol literals of `text` in reading order. */
function symbolsOf(text: string): readonly SymbolTerm[] {
  let symbols: SymbolTerm[] | undefined;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    if (STARTS_SYMBOL[text.charCodeAt(i)] !== 1) continue;
    SYMBOL.lastIndex = i;
    const match = SYMBOL.exec(text);
    if (match === null) continue;
    const term = match[0];
    if (!NOT_OPERATOR.test(term)) (symbols ??= []).push({ term, start: i, end: i + term.length });
    i += term.length - 1;
  }
  return symbols ?? NO_SYMBOLS;
}

function wantsSymbol(wanted: ReadonlySet<string>): boolean {
  for (const term of wanted) if (SYMBOL_START.test(term)) return true;
  return false;
}

/**
 * The [start, end) offsets of each word of lower-cased ASCII text, as a global search for
 * `[a-z0-9]+(?:'[a-z]+|[.,][0-9]+)*` would find them (apostrophes inside words, decimal points
 * inside numbers), scanned by character code: on chunk-sized texts a regex's match objects cost
 * more than the matching.
 */
function forEachAsciiWord(text: string, onWord: (start: number, end: number) => void): void {
  const length = text.length;
  let i = 0;
  while (i < length) {
    if (!isAsciiLetterOrDigit(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    i++;
    while (i < length && isAsciiLetterOrDigit(text.charCodeAt(i))) i++;
    for (;;) {
      const code = text.charCodeAt(i);
      if (code === APOSTROPHE && isAsciiLetter(text.charCodeAt(i + 1))) {
        i += 2;
        while (i < length && isAsciiLetter(text.charCodeAt(i))) i++;
      } else if ((code === FULL_STOP || code === COMMA) && isAsciiDigit(text.charCodeAt(i + 1))) {
        i += 2;
        while (i < length && isAsciiDigit(text.charCodeAt(i))) i++;
      } else {
        break;
      }
    }
    onWord(start, i);
  }
}

const APOSTROPHE = 39;
const FULL_STOP = 46;
const COMMA = 44;

function isAsciiLetter(code: number): boolean {
  return code >= 97 && code <= 122;
}

function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isAsciiLetterOrDigit(code: number): boolean {
  return isAsciiLetter(code) || isAsciiDigit(code);
}

/** Overlapping character pairs: the usual way to index CJK text without a dictionary. */
function emitBigrams(run: string, start: number, end: number, exactOffsets: boolean, onTerm: TermSink): void {
  const characters = Array.from(run);
  if (characters.length === 1) {
    onTerm(run, start, end);
    return;
  }
  let offset = start;
  for (let i = 0; i + 1 < characters.length; i++) {
    const first = characters[i] as string;
    const bigram = first + (characters[i + 1] as string);
    if (exactOffsets) onTerm(bigram, offset, offset + bigram.length);
    else onTerm(bigram, start, end);
    offset += first.length;
  }
}

function foldDiacritics(word: string): string {
  return word
    .normalize('NFD')
    .replace(COMBINING_MARK, '')
    .replace(UNDECOMPOSABLE, (letter) => UNDECOMPOSABLE_FOLDED[letter] ?? letter);
}
