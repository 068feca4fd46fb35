import type { Citation, SearchHit } from '../../shared/agent.js';
import {
  DEFINITION_MARK,
  indentOf,
  passageBlocks,
  TABLE_ROW_SEPARATOR,
  type PassageBlock,
} from '../structure.js';
import { citationFor, sourcesList } from './citations.js';
import { distinctTerms, joinedTerms } from './terms.js';

export interface ComposeOptions {
  /** Most sentences quoted in an answer. */
  maxSentences?: number;
  /** Share of the question's terms (of at most COVERAGE_TERMS) a passage must contain to count as relevant. */
  minCoverage?: number;
  /** How sentences are scored and which are quoted: SENTENCE_SCORING unless given. */
  scoring?: SentenceScoring;
}

export interface ComposedAnswer {
  /** The answer ending in its `Sources:` list, or the no-answer text. */
  text: string;
  citations: Citation[];
  /** False when nothing relevant was retrieved. */
  answered: boolean;
}

interface Candidate {
  hitIndex: number;
  /** Reading order within the passage. */
  position: number;
  /** Paragraph of the passage the sentence sits in. */
  block: number;
  sentence: string;
  /** A table row, quoted whole: it carries its labels in its text. */
  row: boolean;
  /** The definition term or nothing. */
  label?: string;
  /** The first sentence of its definition, the term above it in the passage: what the entry is or does. */
  opensDefinition?: boolean;
  /** The name the list item holding the sentence opens with, in code. */
  itemName?: string;
  /** The word the list item holding the sentence opens with before a colon (`• resting: the battery is …`). */
  itemLabel?: string;
  /** For an entry of a listing (`PS1 = ">> "`, `` `rand(-1)` resets both seeds ``): the name it opens with. */
  setting?: string;
  /** The heading of the passage's section when it names what the question names (`(5) SQLITE_BUSY`). */
  heading?: string;
  /** The heading is the release the passage's notes are of ("Version 2.12.17 [2008 May 29]"). */
  release?: boolean;
  /** For a table row: its table, which may span several passages of a page. */
  table?: string;
  /** Terms of the sentence and of its label. */
  terms: Set<string>;
  /** The sentence before this one that it points back at ("In this case, …", "They are …"), quoted with it. */
  refersTo?: Candidate;
  /** What it stands on that the question names (`referredText`), read for matching, not quoted again. */
  referred?: string;
  /** The code of the example right above it that the sentence explains. */
  example?: string;
  /** The code (a few lines) a sentence ending in a colon announces, shown after it ("… instead use: `rsyslogd -N3`"). */
  shows?: string;
  /** Terms of what it stands on that the question names (`referredText`). */
  referredTerms?: Set<string>;
  /**
   * The sentences after this one quoted with it: the one holding the value the question asks for,
   * or, after a bare name line, the sentence describing it (and the one holding the value, if
   * that sentence does not).
   */
  neighbours: Candidate[];
  /** What its score weighs, when it holds a question term or literal: set once per question. */
  features?: SentenceFeatures;
  /** Its features weighed, or its place when no sentence has features; 0 when it is not quoted. */
  score: number;
}

const sentences = new Intl.Segmenter('und', { granularity: 'sentence' });
/** A contents line of a PDF ("6.1 Default packages . . . . . 24") points to a page, it says nothing. */
const DOT_LEADERS = /(?:\.\s?){5,}/;
const MAX_SENTENCE_CHARS = 600;
/**
 * Shorter sentences ("See below.") are quoted only as the neighbour of a longer one, or as the
 * definition of an entry the question names by its term or its text. A table row is whole however
 * short (`2.18 | 3.18`).
 */
const MIN_QUOTED_CHARS = 12;
/** A long question is rarely answered by one passage holding half its words: coverage counts at most this many. */
const COVERAGE_TERMS = 5;
/** Most sentences an answer quotes, neighbours included. */
const MAX_ANSWER_SENTENCES = 5;
/** A row scoring at least this share of a better row of its table is a tie, not a sibling. */
const SIBLING_ROW_TIE = 0.9;

/**
 * What a sentence's score weighs, each from 0 to 1. A sentence gets features (and a score) only
 * when it holds a question term or spells one of the question's literals.
 */
export interface SentenceFeatures {
  /** The question terms it holds (with its label, what it points back at and its neighbours), rarer ones weighing more. */
  coverage: number;
  /** The question terms only its passage's title or headings hold, weighed alike. */
  context: number;
  /** Share of the question's literals (`%j`, `work_mem`, `uuid5`) it spells exactly. */
  literal: number;
  /** 1 when the definition, row, list item or section holding it is the entry the question names (`work_mem`, not `hash_mem_multiplier`). */
  entry: number;
  /** 1 when its passage's page documents the one thing the question names (`git-clone(1)` for "git clone --depth"). */
  page: number;
  /**
   * 1 for the first sentence of the definition the question names when it asks what the entry is
   * or does ("What does %h log?"): "This is the IP address of the client" under `127.0.0.1 (%h)`,
   * where the sentences after it qualify it and may share more of the question's words.
   */
  definition: number;
  /** 1 when it (or its neighbour) states the kind of value the question asks for: a default, a limit, a unit. */
  statement: number;
  /** 1 when a question asking for a default meets the entry marking itself the default choice ("(the default)"). */
  defaultChoice: number;
  /** 1 / (1 + the rank of its passage among the relevant ones). */
  rank: number;
  /** Its passage's retrieval score, as a share of the best passage's. */
  retrieval: number;
}

/** How much each feature adds to a sentence's score. */
export type SentenceWeights = Readonly<Record<keyof SentenceFeatures, number>>;

export interface SentenceScoring {
  weights: SentenceWeights;
  /** A sentence scoring below this share of the best one answers something else: it is not quoted. */
  relativeFloor: number;
}

/**
 * The weights of a sentence's features. The first nine were set by hand while tuning on the answer
 * bench's manuals, one manual at a time; then `npx tsx bench/answers/fit.ts --penalty 0.5` fitted
 * them with six general features more on the 38 tuned question sets (coordinate ascent from the
 * hand weights, coverage fixed at 1, each answer the hand weights hit and a weighting loses
 * counting half against it), which kept the hand weights, gave the passage's retrieval share 0.05
 * and left the five other features at 0 (they were removed). Cross-validated over 4
 * folds of manuals, that fit hits 1,292 of 1,485 answers where the hand weights hit 1,289. The
 * relative floor is not fitted (see fit.ts). See "Fitting the sentence weights" in
 * bench/answers/README.md.
 */
export const SENTENCE_SCORING: SentenceScoring = {
  weights: {
    coverage: 1,
    context: 0.3,
    literal: 0.3,
    entry: 0.3,
    page: 0.4,
    definition: 0.3,
    statement: 0.2,
    defaultChoice: 0.2,
    rank: 0.1,
    retrieval: 0.05,
  },
  relativeFloor: 0.5,
};

/** A sentence's score: its features, weighed. */
export function sentenceScore(features: SentenceFeatures, weights: SentenceWeights): number {
  let score = 0;
  for (const name of Object.keys(weights) as (keyof SentenceFeatures)[])
    score += weights[name] * features[name];
  return score;
}
/** "What does X do / mean / log?", "What is X?": asks what an entry is, not for one of its values. */
const ASKS_WHAT_IT_IS = /^\s*what\s+(?:does|do|is|are)\b/i;
/** How far after a sentence its neighbour holding the value asked for may be. */
const NEIGHBOUR_REACH = 3;

/**
 * The term a passage opening with a definition paragraph continues: the chunker ends its heading
 * path with it.
 */
function openTerm(hit: SearchHit): string | undefined {
  return hit.text.startsWith(DEFINITION_MARK) ? hit.source.headingPath?.at(-1) : undefined;
}

/** A block quote's `>` marks (an option's description indented under it) are layout, not text. */
const withoutQuoteMarks = (text: string): string => text.replace(/^(?:[ \t]*>)+[ \t]?/gm, '');

/**
 * A paragraph's sentences. The segmenter ends a sentence after "!" or "?" followed by a closing
 * quote or bracket even when a lowercase word follows (`is "#!" on VMS and "#" otherwise`), and
 * after a "?" inside quotes before a symbol (`The default is ‘?# ’.`), where after "." it does
 * not: a break before a lowercase word or a symbol is inside the sentence; nor is one after a full
 * stop with no space after it.
 */
function sentencesOf(text: string): string[] {
  // Segments as written, spaces included, so that one joined back reads as it did.
  const found: string[] = [];
  for (const { segment } of sentences.segment(text.replace(/\s+/g, ' '))) {
    const previous = found.at(-1)?.trim() ?? '';
    const sentence = segment.trim();
    const afterQuotedMark = /[!?]["'’”)\]]+$/.test(previous) && /^[a-z]/.test(sentence);
    const insideQuote = /[‘“"'][!?]$/.test(previous) && !/^[\p{Lu}\d"'“‘([]/u.test(sentence);
    // A full stop with a letter or digit right after it is inside a name (`USB1.DP`, `os.Stat`),
    // where the segmenter breaks before a capital.
    const insideName = /\.$/.test(found.at(-1) ?? '') && /^[\p{L}\d]/u.test(segment);
    if (found.length > 0 && (afterQuotedMark || insideQuote || insideName))
      found[found.length - 1] += segment;
    else found.push(segment);
  }
  return found.map((sentence) => sentence.trim());
}

/** A code block's text without its fence lines. */
const codeBody = (block: string): string => block.replace(/^```[^\n]*\n?|\n?```$/g, '');

/** A code block this short may finish the sentence before it; a longer one is an example. */
const MAX_COMPLETING_CODE_CHARS = 160;
const MAX_COMPLETING_CODE_LINES = 3;

/**
 * The code that finishes a sentence broken off before it ("The default value is" over a block
 * holding `"# Octave VERSION, %a %b %d …"`), as inline code: a sentence without its closing
 * punctuation, followed at once by a short code block. A sentence that ends (".", ":") is whole,
 * and what follows it an example.
 */
function completingCode(
  sentence: string | undefined,
  next: PassageBlock | undefined,
  maxChars = MAX_COMPLETING_CODE_CHARS,
  maxLines = MAX_COMPLETING_CODE_LINES,
): string | undefined {
  if (sentence === undefined || next?.kind !== 'code' || /[.!?:;)\]"'”’]$/.test(sentence)) return undefined;
  const code = codeBody(next.text).trim();
  if (code === '' || code.length > maxChars || code.includes('`')) return undefined;
  const lines = code.split('\n');
  return lines.length > maxLines ? undefined : `\`${lines.map((line) => line.trim()).join(' ')}\``;
}

/**
 * A block a sentence announces may be a few lines longer than one finishing a sentence: the
 * defines to change ("you increase the magnitude of the following in flexdef.h:" over four
 * `#define` lines) are what the sentence is about, not an example beside it.
 */
const MAX_ANNOUNCED_CODE_CHARS = 320;
const MAX_ANNOUNCED_CODE_LINES = 6;

/**
 * The short code a sentence ending in a colon announces ("If you would like to check just an include
 * file, instead use:" over `$ /path/to/rsyslogd -f/path/to/config-file -N3`), as inline code: shown
 * after the sentence when it is quoted, though not read as its words, since a longer block is an
 * example the sentence may not be about.
 */
function announcedCode(sentence: string | undefined, next: PassageBlock | undefined): string | undefined {
  return sentence !== undefined && ANNOUNCING.test(sentence)
    ? completingCode(sentence.slice(0, -1), next, MAX_ANNOUNCED_CODE_CHARS, MAX_ANNOUNCED_CODE_LINES)
    : undefined;
}

/** A line of a listing that sets a name: `PS1 = ">> "`, `save_default_options = "-mat-binary"`, `timeout: 30`. */
const SETTING_LINE = /^\s*([A-Za-z_][\w.-]*)\s*([=:])\s*(\S.*?)\s*;?\s*$/;
/** A line of a two-column listing: a name, a gap of two spaces or more, what it is (`rand(-1)    resets both seeds …`). */
const COLUMN_LINE = /^(\s*)(\S+(?: \S+)*)\s{2,}(\S.*?)\s*$/;
/** A listing is one of entries when it has this many at least, and they (with the lines continuing them) are nearly all its lines. */
const MIN_LISTING_ENTRIES = 3;
const LISTING_ENTRIES_SHARE = 0.75;

/**
 * The entries of a code block that is a listing of settings ("set initial values for user
 * preferences to the following values" over `PS1 = ">> "`, `PS2 = ""`, …), the gap before each
 * `=` closed, or of names beside what they are or do (`rand(-1)` and "resets both seeds to a
 * standard value.", with the deeper-indented lines continuing it), each with the name it opens
 * with. A listing of a few lines or of code is an example: none.
 */
function listingEntries(code: string): { name: string; line: string }[] {
  const lines = codeBody(code)
    .split('\n')
    .filter((line) => line.trim() !== '');
  const entries: { name: string; line: string }[] = [];
  let column: { name: string; line: string } | undefined;
  let indent = -1;
  let listed = 0;
  for (const line of lines) {
    if (column !== undefined && indentOf(line) > indent) {
      column.line += ` ${line.trim()}`;
      listed++;
      continue;
    }
    column = undefined;
    const setting = SETTING_LINE.exec(line);
    const entry = setting ? undefined : COLUMN_LINE.exec(line);
    if (setting && !setting[3]!.includes('`')) {
      const [, name, mark, value] = setting;
      entries.push({ name: name!, line: `\`${name!}${mark === '=' ? ' =' : ':'} ${value!}\`` });
    } else if (entry && !entry[2]!.includes('`') && (indent < 0 || indentOf(line) === indent)) {
      indent = indentOf(line);
      column = { name: entry[2]!, line: `\`${entry[2]!}\` ${entry[3]!}` };
      entries.push(column);
    } else continue;
    listed++;
  }
  return entries.length >= MIN_LISTING_ENTRIES && listed >= lines.length * LISTING_ENTRIES_SHARE
    ? entries
    : [];
}

/**
 * A row of a table of fields ("Description: | …", "Default: | `IdleWait 15`", "Context: | …"): its
 * first cell is a label ending in a colon, with no header above it. Such a table describes one
 * entry (a directive, a field list's parameters), so its rows are not siblings of which one
 * answers: the row the question's words match and the row stating its default are both quoted.
 */
const isFieldRow = (text: string): boolean => /^[^:|]{1,40}:$/.test(firstCell(text).trim());

/** A table row's first cell, its header's label included ("Name: date"). */
const firstCell = (row: string): string => row.split(TABLE_ROW_SEPARATOR)[0] ?? '';

/**
 * The sentences of a passage in reading order with the term they define. Headings name a passage
 * rather than say something, and code is not prose: neither is quoted. A table row is quoted
 * whole, labels included.
 */
function passageSentences(hitIndex: number, hit: SearchHit): Candidate[] {
  const found: Candidate[] = [];
  const blocks = passageBlocks(hit.text, openTerm(hit));
  let listingTerm: string | undefined;
  blocks.forEach((block, blockIndex) => {
    if (block.kind === 'code') {
      // A listing inside a definition ("set initial values … to the following values" over it) is part of its entry.
      const before = blocks[blockIndex - 1];
      listingTerm =
        before?.kind === 'code' ? listingTerm : before?.kind === 'definition' ? before.term : undefined;
      for (const { name, line } of listingEntries(block.text))
        found.push({
          hitIndex,
          position: found.length,
          block: blockIndex,
          sentence: line,
          row: false,
          setting: name,
          ...(listingTerm ? { label: listingTerm } : {}),
          neighbours: [],
          terms: distinctTerms(`${listingTerm ?? ''} ${line}`),
          score: 0,
        });
      return;
    }
    if (block.kind === 'heading') return;
    const parts = block.kind === 'row' ? [block.text] : sentencesOf(withoutQuoteMarks(block.text));
    // A choice's definition may open with the mark alone ("NONE: Default. No attempt is done to
    // sort packages."): the mark belongs to the sentence after it, not quoted on its own.
    if (block.kind === 'definition' && parts.length > 1 && DEFAULT_MARK.test(parts[0]!))
      parts.splice(0, 2, `${parts[0]!} ${parts[1]!}`);
    // A row is whole without closing punctuation: only a sentence is finished by the code after it.
    const value = block.kind === 'row' ? undefined : completingCode(parts.at(-1), blocks[blockIndex + 1]);
    if (value !== undefined) parts[parts.length - 1] = `${parts.at(-1) as string} ${value}`;
    const shown = block.kind === 'row' ? undefined : announcedCode(parts.at(-1), blocks[blockIndex + 1]);
    // A definition's first paragraph: not a later one, nor one a passage opens inside (its term
    // from the heading path), which may start mid-entry.
    const opening =
      block.kind === 'definition' &&
      block.term !== undefined &&
      !(blockIndex === 0 && openTerm(hit) !== undefined) &&
      !blocks.slice(0, blockIndex).some((before) => before.kind !== 'heading' && before.term === block.term);
    const itemLabel = block.kind === 'text' ? LABELLED_ITEM.exec(block.text)?.[1] : undefined;
    for (const [partIndex, sentence] of parts.entries()) {
      if (sentence === '' || sentence.length > MAX_SENTENCE_CHARS || DOT_LEADERS.test(sentence)) continue;
      found.push({
        hitIndex,
        position: found.length,
        block: blockIndex,
        sentence,
        row: block.kind === 'row',
        ...(block.term ? { label: block.term } : {}),
        ...(opening && partIndex === 0 ? { opensDefinition: true } : {}),
        ...(block.name ? { itemName: block.name } : {}),
        ...(itemLabel ? { itemLabel } : {}),
        ...(block.kind === 'row' && !isFieldRow(block.text)
          ? { table: block.term ? `${hit.source.documentId}\n${block.term}` : `${hitIndex}` }
          : {}),
        neighbours: [],
        terms: distinctTerms(`${block.term ?? ''} ${sentence}`),
        score: 0,
      });
      pointBack(found, blocks, partIndex === 0);
      if (shown !== undefined && partIndex === parts.length - 1) found.at(-1)!.shows = shown;
    }
  });
  return found;
}

/**
 * A sentence opening by pointing back at the one before it: "In this case, the enumerator falls
 * back to MD5 hashes", "These packets can be found with …", "They are maintained for about a year
 * only", "The two are identical except that the latter has rounded corners" (after the sentence
 * naming both), "If this is not set, the value of color is used." (what holds without the attribute
 * the sentence before names), "Setting this will make upsmon drop …", "In addition, the font for the
 * disposition element is set to \bfseries." (what else the option of the sentence before does),
 * or naming "this behavior" the sentence before describes ("The no_root_squash option, which
 * disables this behavior, …"). Alone it does not say what it is about. A bare "This …" is left
 * alone: it opens an entry's sentences about the entry ("This option may be faster …") as often
 * as it points at the sentence before.
 */
const REFERS_BACK =
  /^(?:(?:in|for)\s+(?:this|that|such|these|those)\s+cases?\b|(?:these|those|they)\b|the\s+(?:two|three|former|latter)\b|if\s+(?:this|that|it)\s+(?:also\s+)?is\s+(?:also\s+)?(?:not\s+(?:set|given|specified|defined)|unset|undefined|omitted)\b|(?:setting|using|enabling|disabling)\s+(?:this|that|it)\b|in\s+addition\s*,|additionally\s*,)|\b(?:this|that|such)\s+behaviou?r\b/i;
/** A sentence explaining the example right above it: "This example will result in …", "The example above uses …". */
const EXPLAINS_EXAMPLE =
  /^(?:this|the)\s+(?:examples?|commands?|calls?|expressions?|filters?)\b(?:\s+above\b)?/i;
/** An expression a question quotes: a call with its arguments, a name with its subscript (`substring("123456789", 1, -2)`, `eth.src[1-2]`). */
const QUOTED_EXPRESSION = /[A-Za-z_][\w.]*(?:\([^()]{1,40}\)|\[[^\]\s]{1,20}\])/g;
const withoutSpaces = (text: string): string => text.replace(/\s+/g, '');

/**
 * Ties the last sentence found to what it points back at: the sentence before it in its paragraph
 * or the paragraph above (its own referent carried along), of the same entry ("They are …"
 * opening a definition points at its term, not at the entry above); or, when it explains an
 * example right above it, that example's code ("This example will result in the substring
 * “2345678”." under `substring("123456789", 1, -2)`). The referent sentence is quoted with it; what
 * both say is read when matching the question.
 */
function pointBack(found: Candidate[], blocks: readonly PassageBlock[], opensBlock: boolean): void {
  const candidate = found.at(-1)!;
  if (candidate.row) return;
  const above = opensBlock ? blocks[candidate.block - 1] : undefined;
  const code =
    above?.kind === 'code' && EXPLAINS_EXAMPLE.test(candidate.sentence) ? codeBody(above.text) : undefined;
  const before = found.at(-2);
  const referent =
    code === undefined &&
    REFERS_BACK.test(candidate.sentence) &&
    before !== undefined &&
    !before.row &&
    before.setting === undefined &&
    before.label === candidate.label &&
    before.block >= candidate.block - 1
      ? before
      : undefined;
  if (code !== undefined) candidate.example = code;
  if (referent) candidate.refersTo = referent;
}

/**
 * What a sentence stands on that the question names: the sentence it points back at, and the
 * example it explains when the question quotes that example's expression.
 */
function referredText(candidate: Candidate, asked: AskedFor): string | undefined {
  const expressions = (asked.text.match(QUOTED_EXPRESSION) ?? []).map(withoutSpaces);
  const { refersTo, example } = candidate;
  const quoted =
    example !== undefined && expressions.some((expression) => withoutSpaces(example).includes(expression));
  const text = [
    refersTo?.sentence,
    refersTo ? referredText(refersTo, asked) : undefined,
    quoted ? example : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  return text === '' ? undefined : text;
}

const overlap = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared;
};

const passageContext = (hit: SearchHit): string =>
  [hit.source.title, ...(hit.source.headingPath ?? (hit.source.heading ? [hit.source.heading] : []))].join(
    ' ',
  );

/** A passage is relevant when it (with its title and headings) holds enough of the question's terms. */
function relevantHits(
  hits: readonly SearchHit[],
  questionTerms: ReadonlySet<string>,
  minCoverage: number,
): number[] {
  const needed = Math.max(1, Math.ceil(Math.min(questionTerms.size, COVERAGE_TERMS) * minCoverage));
  const relevant: number[] = [];
  hits.forEach((hit, index) => {
    const terms = distinctTerms(`${passageContext(hit)} ${hit.text}`);
    if (overlap(questionTerms, terms) >= needed) relevant.push(index);
  });
  return relevant;
}

/** Names and numbers ("uuid5", "418", "version 4") single out one entry among its siblings. */
const isExactTerm = (term: string): boolean => /\d/.test(term);

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Options, directives, control keys, escape sequences and wildcards the question names as words of
 * their own ("-n", "--depth", "-0", "%j", "^U", "\a", "?"), alone or in parentheses ("the default spin speed
 * (-spinstep)?"): word search drops them, yet they are what singles out one row or entry. A token
 * must stand between spaces, so the question's closing "?" is not one, nor `-1` in `rand(-1)`.
 */
const SYMBOL_LITERAL =
  /(?<=^|\s|\s\()(-{1,2}[A-Za-z\d][\w-]*|%[A-Za-z]|\^[A-Za-z]|\\[A-Za-z\d]|[^\s\w]{1,3})(?=\s|\)(?:[\s?.,;:!]|$))/g;

/**
 * A one-letter code the question names by what it is: "the letter d", "a first character K", "the
 * modifier m". Word search drops a single letter, yet it is the entry asked for among its siblings
 * (`d: Enable name resolution from captured DNS packets.`, `K : the session was actively killed …`,
 * "A specification of m will be taken as months."). "letters a to z" names a range, not a code.
 */
const NAMED_LETTER =
  /\b(?:letter|character|char|modifier|flag|code|suffix|prefix|specifier|switch)\s+([A-Za-z])(?![\w-])/g;

/**
 * What the question spells exactly and a sibling would spell differently: quoted codes ('H'
 * beside 'h'), dotted names (gc.auto, sys.float_info.dig), names with digits (uuid5), identifiers
 * in snake_case or camelCase (work_mem, DefaultScoringM) and symbol literals (-n, %j).
 */
function questionLiterals(question: string): string[] {
  const quoted = [...question.matchAll(/[`'"‘“]([^\s`'"‘’“”]{1,40})[`'"’”]/g)].map((match) => match[1]!);
  const names =
    question.match(
      /[\w-]*[A-Za-z][\w-]*(?:[.@][\w{}-]+)+|\b(?=[A-Za-z_]*\d)(?=\d*[A-Za-z_])\w+\b|\b[A-Za-z][A-Za-z\d]*(?:_[A-Za-z\d]+)+\b|\b[A-Za-z][a-z\d]+(?:[A-Z][a-z\d]*)+\b/g,
    ) ?? [];
  const symbols = [...question.matchAll(SYMBOL_LITERAL)].map((match) => match[1]!);
  // A call with its argument ("rand(-1)", "rand(0)") names one entry of its function's list of uses.
  const calls = question.match(/\b[A-Za-z_][\w.]*\([^()\s]{1,20}\)/g) ?? [];
  const letters = [...question.matchAll(NAMED_LETTER)].map((match) => match[1]!);
  return [
    ...new Set([
      ...quoted,
      ...names.map((name) => name.replace(/[.-]+$/, '')),
      ...symbols,
      ...calls,
      ...letters,
    ]),
  ];
}

/** A literal as a case-sensitive pattern that a longer name containing it does not match. */
const literalPattern = (literal: string): RegExp =>
  new RegExp(`(?<![\\w-])${escapeRegExp(literal)}(?![\\w])`);

/**
 * The name a definition's term gives its entry: `work_mem` in "work_mem (integer)", `--abbrev` in
 * "--abbrev=<n>", `-F` in "-F format, --format=format" (each spelling of the term).
 */
const entryNames = (label: string): string[] =>
  label.split(/,\s+/).map((spelling) => spelling.trim().split(/[\s(=[]/)[0] ?? '');

/** A table cell without its header and code marks: `serial` in "Name: `serial`". */
const cellValue = (cell: string): string =>
  cell
    .slice(cell.indexOf(': ') + 1)
    .trim()
    .replace(/^[`'"]+|[`'"]+$/g, '');

/** A table row's first cell, without its header and code marks: `serial` in "Name: `serial` | Range: …". */
const rowLabel = (candidate: Candidate): string => cellValue(firstCell(candidate.sentence));

/**
 * Whether a table row is the one the question names: every term of its first cell's value
 * (`Name: date`, `Item: columns per table`) is a question term, as `timestamp`'s row is not for
 * "the highest value of the date type", though it mentions dates.
 */
function rowNamedBy(candidate: Candidate, questionTerms: ReadonlySet<string>): boolean {
  if (!candidate.row) return false;
  const label = distinctTerms(rowLabel(candidate));
  return label.size > 0 && [...label].every((term) => questionTerms.has(term));
}

/**
 * Whether a question literal is the row's first cell (`?` in fnmatch's pattern table), or ends
 * with it: a table of attributes names `dig` where the question says `sys.float_info.dig`; or
 * whether the cell names it before its argument, as an option list's `-level n` does; or whether
 * it is the whole of another cell, as an operator table's C-like column names `===` in the row
 * `Alias: all_eq | C-like: === | Description: …`. A plain word (`sub_type`) in another column is
 * a field every sibling row has, not one row's name.
 */
function rowNamedByLiteral(candidate: Candidate, literal: string): boolean {
  if (!candidate.row) return false;
  const label = rowLabel(candidate);
  return (
    (label !== '' &&
      (literal === label || literal.split('.').at(-1) === label || entryNames(label).includes(literal))) ||
    (/\W/.test(literal) &&
      candidate.sentence.split(TABLE_ROW_SEPARATOR).some((cell) => cellValue(cell) === literal))
  );
}

/**
 * Names in capitals (`TIMEFMT`, `HISTSIZE`: environment variables, shell parameters, constants)
 * that the question spells: they name an entry when a definition's term is one, though as words
 * of a sentence they are often acronyms (`HTTP`, `WAL`) and not literals.
 */
const capitalNames = (question: string): string[] => question.match(/\b[A-Z][A-Z\d_]{2,}\b/g) ?? [];

/**
 * Whether the list item holding a sentence opens with a name the question spells as a word of its
 * own: `9` for "What does exit code 9 mean?", `scheduling` for "Which scheduling strategy …".
 */
const itemNamedBy = (candidate: Candidate, asked: AskedFor): boolean =>
  [candidate.itemName, candidate.label?.match(NUMBER_TERM)?.[0]].some(
    (name) => name !== undefined && literalPattern(name).test(asked.text),
  );
/**
 * A list item opening with one word and a colon, a value and what it means (`• resting: the
 * battery is fully charged`, `- floating: …`), as a PDF or plain list sets them without code marks.
 */
const LABELLED_ITEM = /^\s*(?:[-*+•◦▪●]|\d{1,9}[.)])\s+([A-Za-z][\w.-]{0,39}):\s/u;

/**
 * Whether the question quotes the word a list item opens with ("What does the 'resting' value
 * mean?"), or passes it to a call ("Which ports does leash(half) stop at?" over the list of
 * leash/1's shorthands, `• half: equivalent to [call, redo]`): that item is the one asked about,
 * though a plain word is no literal of its own.
 */
const itemQuotedBy = (candidate: Candidate, asked: AskedFor): boolean => {
  if (candidate.itemLabel === undefined) return false;
  const label = escapeRegExp(candidate.itemLabel);
  return (
    new RegExp(`[\`'"‘“]${label}[\`'"’”]`).test(asked.text) ||
    new RegExp(`\\b[A-Za-z_][\\w.]*\\((?:[^()]*,\\s*)?${label}\\s*(?:,[^()]*)?\\)`).test(asked.text)
  );
};

/** Most terms of what a list item says its name is for (`^` for "subsubsections"): a name, not a description. */
const MAX_ITEM_PURPOSE_TERMS = 2;

/**
 * Whether the question names, by all the words of its description, a list item opening with a
 * name in code and saying in a word or two what it is for: "Which character underlines
 * subsubsections?" over Sphinx's heading convention (`` - `=` for sections ``, `` - `^` for
 * subsubsections ``), as "What is the ISO 639 code for Welsh?" names `‘cy’: Welsh.`. The item is the
 * entry asked about, though its one word weighs little beside a long sentence sharing more of the
 * question's common words.
 */
const itemDescribedBy = (candidate: Candidate, questionTerms: ReadonlySet<string>): boolean => {
  if (candidate.itemName === undefined) return false;
  const named = distinctTerms(candidate.itemName);
  const purpose = [...distinctTerms(candidate.sentence)].filter((term) => !named.has(term));
  return (
    purpose.length > 0 &&
    purpose.length <= MAX_ITEM_PURPOSE_TERMS &&
    purpose.every((term) => questionTerms.has(term))
  );
};

/** A definition this short, one name (`‘cy’: Welsh.`), may be what the question names its entry by. */
const MAX_NAME_DEFINITION_CHARS = 40;

/**
 * Whether the question spells a short definition whole, as the name of what it asks the term of:
 * "What is the ISO 639 code for Welsh?" over a list of codes, `‘cy’: Welsh.`. Such a definition is
 * the entry asked about, though it is too short to be quoted as a sentence of its own.
 */
const definitionNamedBy = (candidate: Candidate, asked: AskedFor): boolean => {
  const name = candidate.sentence.replace(/\.$/, '').trim();
  return (
    candidate.label !== undefined &&
    candidate.opensDefinition === true &&
    /\w{3}/.test(name) &&
    candidate.sentence.length <= MAX_NAME_DEFINITION_CHARS &&
    literalPattern(name).test(asked.text)
  );
};

/** A definition term that is a number (CXX_STANDARD's `23`): named when the question spells it as a word. */
const NUMBER_TERM = /^\d+(?:\.\d+)*$/;

/** Whether the definition holding a sentence is the entry the question names, not a sibling that mentions it. */
const namesEntry = (candidate: Candidate, names: readonly string[]): boolean =>
  candidate.label !== undefined && entryNames(candidate.label).some((name) => names.includes(name));

/**
 * An API entry's signature (`gzip.open(filename, compresslevel=9)`) states its parameters'
 * defaults as `name=value`, where the text under it often never says "default". A value in angle
 * brackets that ends the term is a placeholder (`--prefix=<prefix>`): it names what to give, where
 * a key's term goes on with its default after it (`numbersep=〈dimension〉 10pt`).
 */
const SIGNATURE_DEFAULT = /\w=(?![<〈][^<>〈〉]*[>〉](?:$|[,)[]))[^=\s,)]/;
const DEFAULT_TERMS = distinctTerms('default');
const statesDefault = (candidate: Candidate): boolean =>
  candidate.label !== undefined && SIGNATURE_DEFAULT.test(candidate.label);

/**
 * Whether a question asking for a default names, as a word of its own, a parameter that the
 * signature the sentence describes gives a value (`strength` in `def __init__(self, strength=40):`):
 * the entry asked about, though a parameter in lower case is no literal. `protocol=None` gives
 * none: the value is chosen elsewhere (`pickle.DEFAULT_PROTOCOL`), which the entry does not say.
 */
function namesDefaultedParameter(candidate: Candidate, asked: AskedFor): boolean {
  if (!statesDefault(candidate) || !asked.default) return false;
  const parameters = [
    ...candidate.label!.matchAll(/(?:^|[(,])\s*([A-Za-z_]\w{2,})\s*=(?!=)\s*(?!None\b)[^\s,)]/g),
  ];
  return parameters.some((match) => literalPattern(match[1]!).test(asked.text));
}

/**
 * Share of the question's literals a sentence (or the term it defines, the row it labels, or the
 * heading of the section it sits in when that names the entry) spells exactly.
 */
function literalShare(
  candidate: Candidate,
  literals: readonly string[],
  patterns: readonly RegExp[],
  sectionName?: string,
): number {
  if (literals.length === 0) return 0;
  const text = `${candidate.label ?? ''} ${candidate.heading ?? sectionName ?? ''} ${candidate.sentence} ${candidate.referred ?? ''}`;
  const spelled = (literal: string, i: number): boolean =>
    patterns[i]!.test(text) || rowNamedByLiteral(candidate, literal);
  return literals.filter(spelled).length / literals.length;
}

/**
 * The name a page's title leads with when the page documents one thing: `git-clone` in
 * "git-clone(1)", `tarfile` in "`tarfile` — Read and write tar archive files". A title of plain
 * words ("8.17. Range Types") names a topic, not a thing, and is not one.
 */
function titleName(title: string): string | undefined {
  const match = /^(`?)([A-Za-z][\w.-]*\w)`?(?:\(\d\w*\))?(?=\s|$)/.exec(title.trim());
  if (!match) return undefined;
  const [, code, name] = match;
  return code || /[-_.]/.test(name!) ? name : undefined;
}

/** Words of a name or question, separators (`-`, `_`, `.`, spaces, quotes) alike. */
const spelledAlike = (text: string): string =>
  ` ${text
    .toLowerCase()
    .replace(/[^a-z\d]+/g, ' ')
    .trim()} `;

/** Whether the question names the thing the passage's page documents. */
function pageNamedBy(hit: SearchHit, asked: AskedFor): boolean {
  const name = titleName(hit.source.title);
  return name !== undefined && spelledAlike(asked.text).includes(spelledAlike(name));
}

/**
 * The heading of a passage's own section; none for a passage that opens inside a definition, which
 * sits under that definition's term instead.
 */
const ownHeading = (hit: SearchHit): string | undefined =>
  openTerm(hit) !== undefined ? undefined : (hit.source.headingPath?.at(-1) ?? hit.source.heading);

/** A heading longer than this is a title of prose, not the name of one entry. */
const MAX_NAMING_HEADING_CHARS = 80;

/** Most terms of a heading that names one thing ("Pdfcairo", "Set style circle"), not a topic. */
const MAX_NAMING_HEADING_TERMS = 3;

/**
 * The heading of a passage's own section when it names what the question asks about: manuals put
 * an entry's name, and often its value, in the heading above its description (`(5) SQLITE_BUSY`
 * over "The SQLITE_BUSY result code indicates…"; a page titled "Pdfcairo" over "The default size
 * for the output is 5 inches x 3 inches."), where no sentence repeats it. It names it when it
 * spells one of the question's literals, or when all of its few terms, besides words of what is
 * asked ("maximum", "number"), are terms of what the question asks about.
 * A passage that opens inside a definition sits under that definition's term instead.
 */
function namingHeading(
  hit: SearchHit,
  literals: readonly RegExp[],
  questionTerms: ReadonlySet<string>,
): string | undefined {
  const heading = ownHeading(hit);
  if (!heading || heading.length > MAX_NAMING_HEADING_CHARS) return undefined;
  if (literals.some((literal) => literal.test(heading))) return heading;
  // "Maximum Number Of Tables In A Join" names joins' tables; "maximum number" is what is asked.
  const terms = new Set(
    [...distinctTerms(heading)].filter((term) => !ASK_WORDS.has(term) && !BOUND_WORDS.has(term)),
  );
  return terms.size > 0 &&
    terms.size <= MAX_NAMING_HEADING_TERMS &&
    [...terms].every((term) => questionTerms.has(term))
    ? heading
    : undefined;
}

/**
 * The line of an option's entry that gives its values and default after its name in the margin
 * (`=〈integer〉 default: 3` under `maxnames`): it reads as the rest of the name.
 */
const OPTION_VALUES = /^=\S/;

/** An entry's name as a heading: one word in lower case or spelled as code (`ids`, `\pno`, `--threshold`, `gc.auto`). */
const ENTRY_HEADING = /^(?:[\\@%-]{0,2}[a-z_][\w.:@-]*|[\\@%-]{0,2}[A-Za-z_]*[_.:@\d\\][\w.:@\\-]*)$/;

/**
 * The heading of a passage's own section when it is the name of the entry the passage describes
 * (LaTeX and Texinfo manuals set an entry's name in the margin beside its description, which the
 * PDF loader makes a heading): quoted beside a sentence of the entry when the question asks for a
 * name, it is the answer ("biburlnumpenalty: If this counter is set …").
 */
function entryHeading(hit: SearchHit): string | undefined {
  const heading = ownHeading(hit);
  return heading !== undefined && ENTRY_HEADING.test(heading) ? heading : undefined;
}

/**
 * The sentences of the relevant passages, each holding a question term or literal with its
 * features: the question terms it (with the term it defines and the neighbour holding the value
 * asked for) holds, rarer terms weighing more and names with digits twice, the question's
 * literals it spells exactly, the terms only the passage's title or headings hold, whether it is
 * the entry the question names or states what it asks for, and the passage's rank.
 */
function sentenceFeatures(
  hits: readonly SearchHit[],
  relevant: readonly number[],
  queryTerms: ReadonlySet<string>,
  asked: AskedFor,
  questionTerms: ReadonlySet<string>,
): Candidate[] {
  const candidates = relevant.flatMap((hitIndex) => passageSentences(hitIndex, hits[hitIndex]!));
  const literalNames = questionLiterals(asked.text);
  const literals = literalNames.map(literalPattern);
  const entryNamesAsked = [...literalNames, ...capitalNames(asked.text)];
  const namingHeadings = new Map(
    relevant.map((hitIndex) => [hitIndex, namingHeading(hits[hitIndex]!, literals, queryTerms)]),
  );
  for (const [index, candidate] of candidates.entries()) {
    candidate.neighbours =
      candidate.setting === undefined ? neighbours(candidates, index, asked, questionTerms) : [];
    if (candidate.refersTo) candidate.neighbours.unshift(candidate.refersTo);
    const referred = referredText(candidate, asked);
    if (referred !== undefined) {
      candidate.referred = referred;
      candidate.referredTerms = distinctTerms(referred);
    }
    const heading =
      candidate.label === undefined
        ? (namingHeadings.get(candidate.hitIndex) ??
          (asked.name || OPTION_VALUES.test(candidate.sentence)
            ? entryHeading(hits[candidate.hitIndex]!)
            : undefined))
        : undefined;
    // A heading named by its words, not by a literal, lends them only to a sentence that says
    // something asked of its own: "The SQL query in the following example is one solution." under
    // "Joins" answers nothing about joins.
    const spelled = heading !== undefined && literals.some((literal) => literal.test(heading));
    if (heading !== undefined && (spelled || overlap(candidate.terms, queryTerms) > 0)) {
      candidate.heading = heading;
      for (const term of distinctTerms(heading)) candidate.terms.add(term);
    }
    // A release note says what its release added, not which release that was: its heading does.
    const release =
      asked.since && candidate.label === undefined ? releaseHeading(hits[candidate.hitIndex]!) : undefined;
    if (release !== undefined) {
      candidate.heading = release;
      candidate.release = true;
    }
  }
  // "Red Hat" in the question, "RedHat" in the manual: the joined word holds both terms.
  const holds = (terms: ReadonlySet<string>, term: string): boolean =>
    terms.has(term) || (asked.joinedAs.get(term)?.some((joined) => terms.has(joined)) ?? false);
  const has = (candidate: Candidate, term: string): boolean =>
    holds(candidate.terms, term) ||
    (candidate.referredTerms !== undefined && holds(candidate.referredTerms, term)) ||
    candidate.neighbours.some((neighbour) => holds(neighbour.terms, term)) ||
    (DEFAULT_TERMS.has(term) && statesDefault(candidate));
  const frequency = new Map<string, number>();
  for (const candidate of candidates)
    for (const term of queryTerms)
      if (has(candidate, term)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const weight = (term: string): number =>
    Math.log(1 + candidates.length / (frequency.get(term) ?? candidates.length)) *
    (isExactTerm(term) ? 2 : 1);
  let total = 0;
  for (const term of queryTerms) total += weight(term);
  const contextTerms = new Map(
    relevant.map((hitIndex) => [hitIndex, distinctTerms(passageContext(hits[hitIndex]!))]),
  );
  const statement = asked.statement;
  const rank = (candidate: Candidate): number => 1 / (1 + relevant.indexOf(candidate.hitIndex));
  const namedPages = new Set(relevant.filter((hitIndex) => pageNamedBy(hits[hitIndex]!, asked)));
  const bestRetrieval = Math.max(0, ...relevant.map((hitIndex) => hits[hitIndex]!.score));
  for (const candidate of candidates) {
    // A short definition is a whole entry: the answer when the question names its term ("-0:
    // CORRECT" for "-0") or spells the definition ("-4: GLOB_DOTS" for GLOB_DOTS).
    // An entry of a listing answers only a question naming it.
    // An option's entry names it before its argument (`-separator SEP`).
    if (
      candidate.setting !== undefined &&
      !entryNamesAsked.includes(candidate.setting) &&
      !entryNamesAsked.includes(candidate.setting.split(' ')[0]!)
    )
      continue;
    const wholeEntry =
      candidate.setting !== undefined ||
      namesEntry(candidate, entryNamesAsked) ||
      definitionNamedBy(candidate, asked) ||
      (candidate.label !== undefined && literals.some((literal) => literal.test(candidate.sentence)));
    if (candidate.sentence.length < MIN_QUOTED_CHARS && !wholeEntry && !candidate.row) continue;
    let matched = 0;
    let context = 0;
    for (const term of queryTerms) {
      if (has(candidate, term)) matched += weight(term);
      else if (contextTerms.get(candidate.hitIndex)?.has(term)) context += weight(term);
    }
    // A sentence spelling the question's literal ("%j", "-n") answers it even with no other word in common.
    // A definition in a section named by a literal (a value of the `CXX_STANDARD` property) spells it too.
    const literal = literalShare(candidate, literalNames, literals, namingHeadings.get(candidate.hitIndex));
    if (matched === 0 && literal === 0) continue;
    candidate.features = {
      coverage: matched / (total || 1),
      context: context / (total || 1),
      literal,
      entry: Number(
        namesEntry(candidate, entryNamesAsked) ||
          (candidate.heading !== undefined && literals.some((literal) => literal.test(candidate.heading!))) ||
          rowNamedBy(candidate, queryTerms) ||
          itemNamedBy(candidate, asked) ||
          itemQuotedBy(candidate, asked) ||
          itemDescribedBy(candidate, queryTerms) ||
          definitionNamedBy(candidate, asked) ||
          namesDefaultedParameter(candidate, asked) ||
          literalNames.some((literal) => rowNamedByLiteral(candidate, literal)),
      ),
      page: Number(namedPages.has(candidate.hitIndex)),
      definition: Number(
        candidate.opensDefinition === true &&
          asked.whatItIs &&
          (namesEntry(candidate, entryNamesAsked) ||
            literals.some((literal) => literal.test(candidate.label!))),
      ),
      statement: Number(
        statement !== undefined &&
          (candidate.release === true ||
            [candidate, ...candidate.neighbours].some((quoted) => statement.test(quoted.sentence))),
      ),
      defaultChoice: Number(
        asked.default &&
          ((candidate.label !== undefined &&
            ([candidate, ...candidate.neighbours].some((quoted) => DEFAULT_CHOICE.test(quoted.sentence)) ||
              DEFAULT_CHOICE.test(candidate.label))) ||
            (LIST_ITEM.test(candidate.sentence) && DEFAULT_CHOICE.test(candidate.sentence))),
      ),
      rank: rank(candidate),
      retrieval: bestRetrieval > 0 ? Math.max(0, hits[candidate.hitIndex]!.score) / bestRetrieval : 0,
    };
  }
  return candidates;
}

/**
 * Scores the sentences by their features weighed. When no sentence has features (the passages
 * matched through their titles, as in "summarize <title>"), each passage offers its opening
 * sentences instead, in the passages' order.
 */
function scoreCandidates(
  candidates: readonly Candidate[],
  relevant: readonly number[],
  weights: SentenceWeights,
): void {
  const featured = candidates.some((candidate) => candidate.features !== undefined);
  for (const candidate of candidates) {
    if (featured) candidate.score = candidate.features ? sentenceScore(candidate.features, weights) : 0;
    else
      candidate.score =
        candidate.position < 2 &&
        candidate.sentence.length >= MIN_QUOTED_CHARS &&
        candidate.setting === undefined
          ? 0.1 / (1 + relevant.indexOf(candidate.hitIndex)) - candidate.position * 0.01
          : 0;
  }
}

/**
 * A sentence that states a default: "The default is 4MB", "defaults to a4", "Default settings: set
 * history size 500", "The default value of render is -1", "(the default)", "[default: yes]".
 */
const DEFAULT_STATEMENT =
  /\bdefaults?\b(?:\s+(?:values?|settings?))?(?:\s+of\s+[\w.-]+)?\s*(?:is|was|are|to|:|=)|\(\s*(?:the\s+)?default\b|\bis\s+the\s+default\b|\bby\s+default\b|\[default\b(?!\])|\bdefault\s+(?:[a-z-]+\s+){1,3}(?:is|to)\s+[^\s,;]*\d|\bdefault\s+of\s+\.?\d|\bat\s+start-?up(?:\s+time)?\b.*\b(?:is|are)\s+(?:set|initiali[sz]ed)\s+to\b/i;
/**
 * A sentence marking its entry as the default choice among its siblings: "p, plain: Output a
 * plain-text SQL script file (the default).", "lifo: … This is the default.": the entry's name is
 * the default asked for, where "This format is also compressed by default." says what a choice does.
 * The entry's term may carry the mark itself (Octave's `"nofill" (default)`), the mark may be
 * the sentence after the one naming the choice ("-m: Use MD5 hashing for passwords. This is the
 * default."), quoted with it as its neighbour, and the definition may open with it (CMake's
 * "NONE: Default. No attempt is done to sort packages.").
 */
const DEFAULT_CHOICE =
  /\(\s*(?:the\s+)?default\s*\)|\b(?:this|that|which|it) is the default\b|^\s*default\.\s/i;
/**
 * A list item: one choice among its siblings, as a definition is ("– always save on exit
 * (default): the current state of the proof session is saved on exit", a preference's policies).
 */
const LIST_ITEM = /^\s*(?:[-–—*+•◦▪●]|\d{1,9}[.)])\s+/u;
/** A definition's opening sentence that only marks its entry as the default choice: "Default.". */
const DEFAULT_MARK = /^\s*default\.\s*$/i;

/** A sentence that states a bound with a number: "must be at least 128 kilobytes", "up to 32 columns", a row's "Upper Limit: 1,600". */
const LIMIT_STATEMENT =
  /(?:\b(?:at (?:least|most)|minimum|maximum|up to|no (?:more|less|fewer) than|limit(?:ed)? (?:is|of|to))\b|\blimit:)[^.;]*?\d|\d\s+or\s+(?:higher|later|newer|greater|above|more|less|lower|fewer|below)\b/i;

/**
 * A question asking for the unit a value is given in: "In what unit is KEYTIMEOUT measured?",
 * "What is the default unit of a value given to the limit builtin?", "Which units does it take?".
 */
export const ASKS_FOR_UNIT = /\b(?:what|which)\s+(?:\w+\s+){0,3}units?\b|\bmeasured\s+in\s+(?:what|which)\b/i;
/**
 * The words of such a question that say what is asked, not what about: a manual states the unit
 * ("The interval in seconds between checks for new mail.") without saying "unit" or "measured".
 */
export const UNIT_ASK_WORDS = /\b(?:units?|measured|measure|given|expressed|specified)\b/gi;
const UNIT_ASK_TERMS = distinctTerms('unit units measured measure given expressed specified');
/** The units values are given in: of time, of size, of length on a page or screen, of text. */
const UNIT =
  '(?:(?:milli|micro|nano|centi|kilo|mega|giga|tera)?(?:seconds?|bytes?|met(?:er|re)s?)|minutes?|hours?|days?|weeks?|' +
  '(?:kilo|mega|giga)?bits?|[kKMGT]i?B|pixels?|points?|inch(?:es)?|characters?|columns?|lines?|blocks?|pages?|sectors?|' +
  'percent|degrees?|radians?|ticks?|jiffies)';
/**
 * A sentence stating the unit of a value: "in hundredths of seconds", "in kilobytes", "measured
 * in seconds", "(in bytes)", an option's "kilobytes (default)".
 */
const UNIT_STATEMENT = new RegExp(
  `\\b(?:in|as)\\s+(?:(?:hundredths|tenths|thousandths|millionths|units|multiples)\\s+of\\s+(?:an?\\s+)?)?${UNIT}\\b|` +
    `\\bmeasured\\s+in\\b|\\b${UNIT}\\s*\\(\\s*(?:the\\s+)?default\\s*\\)`,
  'i',
);

/**
 * A question asking in which version something appeared: "In which CMake version was 23 added as
 * a supported value of CXX_STANDARD?", "Since which version is X available?".
 */
const ASKS_SINCE_WHEN =
  /\b(?:which|what)\s+(?:\w+\s+)?(?:version|release)\b.*\b(?:added|introduced|new|first|available|supported)\b|\bsince\s+(?:which|what)\s+(?:\w+\s+)?(?:version|release)\b/i;
/**
 * A sentence dating an entry: Sphinx's "New in version 3.20.", "Added in 2.4", "Available since
 * version 1.2", or a release number of three parts after "Since" alone ("Since 6.5.0 it is
 * possible to enable NAT with IPv6 networking."), as libvirt dates its features.
 */
const SINCE_STATEMENT =
  /\b(?:new|added|introduced|available)\s+(?:in|since)\s+(?:\w+\s+)?(?:version\s+|v)?\d|\bsince\s+(?:version\s+|v)\d|\bsince\s+\d+\.\d+\.\d+\b/i;

/**
 * The heading of a release's notes: "Version 2.12.17 [2008 May 29 …]" (Gri's news, with its
 * section number), "Release 3.1", "Changes in version 2.0", "v1.4.0", "2.12.5 (2003-05-19)".
 */
const RELEASE_HEADING =
  /^(?:\d+(?:\.\d+)*\.?\s+)?(?:(?:(?:changes\s+in\s+)?(?:version|release)|what'?s\s+new\s+in)\s+v?\d+(?:\.\d+)+\b|v?\d+\.\d+(?:\.\d+)*\s*(?:$|[[(:–—-]))/i;

/**
 * The innermost heading over a passage that names a release, when a question asks which version
 * added something: release notes list what each release added under its heading ("Version
 * 2.12.17" over "New Features" over "• Add GNU readline support …"), where no note repeats it.
 */
function releaseHeading(hit: SearchHit): string | undefined {
  const path = hit.source.headingPath ?? (hit.source.heading ? [hit.source.heading] : []);
  return [...path].reverse().find((heading) => RELEASE_HEADING.test(heading.trim()));
}

/**
 * A question asking where something is kept: "Where is a user's crontab stored?", "On Windows,
 * where in the registry does it look for its settings?". "where" opening a clause of the question
 * ("continue the numbers where the previous listing stopped") asks for no place.
 */
const ASKS_WHERE =
  /(?:^|[,:;]\s*)where\s+(?:in\s+(?:the\s+)?\w+\s+)?(?:is|are|was|were|does|do|did|can|will|would|should)\b/i;
/**
 * A sentence saying where something is kept: "The keys are stored in HKEY_CURRENT_USER\Software\…",
 * "The configuration files are located in /etc/ups".
 */
const PLACE_STATEMENT =
  /\b(?:stored|located|kept|placed|saved|installed|resides?|lives?)\s+(?:in(?:to|side)?|under|at|on|below)\b/i;

/**
 * A question asking which option of a command does something: "Which gplc option produces a WAM
 * file for byte-code?", "Which configure option turns on caching?". Not "What does the option -p
 * do?", which names the option it asks about.
 */
const ASKS_FOR_OPTION = /\b(?:which|what)\s+(?:[\w-]+\s+){0,2}(?:command[- ]line\s+)?options?\b/i;
/**
 * A sentence naming a command-line option: "To generate a WAM file for byte-code use the
 * --wam-for-byte-code option.", a row "-w, --wam-for-byte-code | stop after producing WAM for
 * byte-code file(s)". The sentence the question's words match best may only say that "a specific
 * option" does it.
 */
const OPTION_STATEMENT = /(?:^|[\s(“"‘'`])--?[A-Za-z][\w-]*/;

/** "Which counter …", "What field …": a name is asked for (not "what is/does …", a description). */
const ASKS_FOR_NAME =
  /\b(?:which|what)\s+(?!(?:is|are|was|were|does|do|did|can|could|should|would|will|happens|if)\b)[a-z]/i;
/** A question asking in what order things happen: "In what order do the goals run?", "in which order?". */
const ASKS_FOR_ORDER = /\b(?:what|which)\s+order\b/i;
/**
 * A sentence ordering things: "all init goals are executed before all entry goals", "first …, then
 * …", "in alphabetical order". The sentence sharing the question's words may only say that there
 * is an order ("The above order is the order in which each kind of goal is executed.").
 */
const ORDER_STATEMENT =
  /\b(?:before|after|then|followed\s+by|in\s+(?:alphabetical|reverse|lexical|numerical|ascending|descending)\s+order)\b/i;

/**
 * A question asking in which version a default or a behaviour changed: "Since which version does
 * autodoc drop the module names from type hints by default?", "In which version did X go back to
 * being enabled by default?". Such a change is dated by the entry's later note, not by the one
 * dating the entry: Sphinx's and Python's "Changed in version 5.0: The default setting was changed
 * to 'short'", "Deprecated since version 3.4", Qt's "changed in 2.1".
 */
const ASKS_WHEN_CHANGED =
  /\b(?:in|since|from)\s+(?:which|what)\s+(?:\w+\s+)?(?:version|release)\b.*\b(?:defaults?|changed?|changes|became|become|go(?:es)?\s+back|went\s+back|switch(?:ed)?|no\s+longer|deprecated|removed|renamed)\b/i;
/** A note dating a change: "Changed in version 4.0.2: …", "Deprecated since version 3.4", "changed in 2.1". */
const CHANGE_STATEMENT = /\b(?:changed|deprecated|removed|renamed)\s+(?:in|since)\s+(?:version\s+|v)?\d/i;

/** A question asking for a bound: "the maximum number of columns", what an index can have "at most". */
export const ASKS_FOR_BOUND =
  /\b(?:max(?:imum)?|min(?:imum)?|at (?:most|least)|largest|smallest|longest|limits?)\b/i;

/**
 * The kind of statement that answers the question, when it asks for a default or a bound: what
 * such a sentence says ("The default is 128MB") rather than the words it shares with the question.
 */
function statementAsked(asked: Omit<AskedFor, 'statement'>): RegExp | undefined {
  if (asked.action) return ACTION_STATEMENTS[asked.action];
  if (asked.unit) return UNIT_STATEMENT;
  if (asked.changed) return CHANGE_STATEMENT;
  if (asked.since) return SINCE_STATEMENT;
  if (asked.default) return DEFAULT_STATEMENT;
  if (asked.bound) return LIMIT_STATEMENT;
  if (asked.place) return PLACE_STATEMENT;
  if (asked.option) return OPTION_STATEMENT;
  if (asked.order) return ORDER_STATEMENT;
  return undefined;
}

/** A question asking for a default: "What is the default of X?", "What does X default to?". */
const ASKS_FOR_DEFAULT = /\bdefaults?\b/i;
/**
 * A question asking for a default by what holds when the user gives none: "What shape does it give
 * a node when I don't specify one?", "What font does it use unless told otherwise?", "Which mode
 * does it use if I don't choose one?", "Which style does it produce unless I ask for another one?",
 * "What does it count when I pass no option at all?". The manual
 * says "by default" where the question speaks of the user; "If PS3 is not set, …" or "when no
 * option is given" speaks the manual's own words ("If PS3 is not set, select prompts …").
 */
const ASKS_WHEN_UNSET =
  /\bunless\s+(?:told\s+otherwise|(?:I|you|we)\s+(?:(?:ask|say)\s+(?:for\s+)?(?:another|otherwise|something\s+else)|change\s+(?:it|them|that|this)\b))\b|\b(?:if|when)\s+(?:I|you|we)\s+(?:(?:don['’]t|do\s+not|haven['’]t|have\s+not)\s+(?:give|given|specify|specified|set|pass|passed|choose|chosen|pick|picked|select|selected|name|named)\b|(?:give|specify|set|pass|choose|pick|select|name)\s+no\b)/i;
/** The words of such a phrase that say what is asked ("specify", "told", "choose"), not what about. */
const UNSET_WORDS = distinctTerms(
  'give given specify specified set pass passed choose chosen pick picked select selected name named unless told otherwise ask say another change',
);

/** Questions that ask for a value: a default, a limit, a size, a count, a port, a version. */
const ASKS_FOR_VALUE =
  /\b(default|defaults|value|values|how (many|much|long|large|big|often)|max(imum)?|min(imum)?|limits?|size|number|port|level|width|height|depth|length|precision|timeout|range|version)\b/i;
const VALUE_WORDS = /\b(defaults?|defaulting|maximum|minimum|limit(ed)?|at (most|least)|always|currently)\b/i;

/** "value", "number", "setting": in "the default value of X" they say what is asked, not what about. */
const ASK_WORDS = distinctTerms('value values setting settings number');
/** "maximum", "minimum": in "the maximum number of columns" they say what is asked, and a limits table says "Upper Limit". */
const BOUND_WORDS = distinctTerms('maximum minimum max min');

/** The terms that name what a question asks about: without its ask words when it asks for a value and names something else. */
function withoutAskWords(terms: ReadonlySet<string>, asked: AskedFor): ReadonlySet<string> {
  if (asked.unit) terms = withoutUnitWords(terms);
  // "unless told otherwise" asks what "by default" would: the manual's word for it stands in.
  if (asked.unsetWords.size > 0) terms = new Set([...withoutUnsetWords(terms, asked), ...DEFAULT_TERMS]);
  if (!asked.value) return terms;
  const subject = new Set(
    [...terms].filter(
      (term) => !ASK_WORDS.has(term) && !asked.measures.has(term) && !(asked.bound && BOUND_WORDS.has(term)),
    ),
  );
  return subject.size > 0 ? subject : terms;
}

/** What a question asking for a default by "when I don't specify one" is about: its terms without those words. */
function withoutUnsetWords(terms: ReadonlySet<string>, asked: AskedFor): ReadonlySet<string> {
  const subject = new Set([...terms].filter((term) => !asked.unsetWords.has(term)));
  return subject.size > 0 ? subject : terms;
}

/** What a question asking for a unit is about: its terms without the words asking for a unit. */
function withoutUnitWords(terms: ReadonlySet<string>): ReadonlySet<string> {
  const subject = new Set([...terms].filter((term) => !UNIT_ASK_TERMS.has(term)));
  return subject.size > 0 ? subject : terms;
}

/** A question asking for an amount: "How many months back does it go by default?", "How long is the timeout?". */
const ASKS_FOR_AMOUNT = /\bhow\s+(?:many|much|long|large|big|often)\b/i;
/** Number words a manual may spell an amount with ("six months", "twice"). */
const NUMBER_WORDS = distinctTerms(
  'zero one two three four five six seven eight nine ten eleven twelve twice',
);

/** Whether a sentence holds a number the question does not already hold, in digits or, for an amount asked for, in words. */
const holdsNewNumber = (candidate: Candidate, questionTerms: ReadonlySet<string>, inWords = false): boolean =>
  [...distinctTerms(candidate.sentence)].some(
    (term) => (/\d/.test(term) || (inWords && NUMBER_WORDS.has(term))) && !questionTerms.has(term),
  );

/**
 * Whether a sentence states a value the question does not already name (a unit, when it asks for
 * one). An amount asked for is a number: "(Default) Dates will be completed…" marks a default but
 * does not say how many months; "… in a range of 0…11 with 6 as default" does.
 */
function holdsValue(
  candidate: Candidate,
  questionTerms: ReadonlySet<string>,
  wanted: Pick<AskedFor, 'default' | 'unit' | 'amount' | 'changed'> & { place?: boolean },
): boolean {
  if (wanted.unit) return UNIT_STATEMENT.test(candidate.sentence);
  if (wanted.place) return PLACE_STATEMENT.test(candidate.sentence);
  // "Since which version … by default?" asks for the version a note dates the change by, not the default.
  if (wanted.changed) return CHANGE_STATEMENT.test(candidate.sentence);
  if (wanted.amount && !holdsNewNumber(candidate, questionTerms, true)) return false;
  if (wanted.default)
    return (
      DEFAULT_STATEMENT.test(candidate.sentence) ||
      (/\bdefault/i.test(candidate.sentence) && /\d/.test(candidate.sentence)) ||
      statesDefault(candidate)
    );
  if (VALUE_WORDS.test(candidate.sentence)) return true;
  return holdsNewNumber(candidate, questionTerms);
}

/**
 * What is quoted after a sentence: the next one holding the value asked for; else, after a bare
 * name line (`SQLITE_MINIMUM_FILE_DESCRIPTOR=N`), the sentence describing it and, when that one
 * does not hold the value asked for, the sentence after it that does ("The default value of N is 3.").
 */
function neighbours(
  candidates: readonly Candidate[],
  index: number,
  asked: AskedFor,
  questionTerms: ReadonlySet<string>,
): Candidate[] {
  const value = valueNeighbour(candidates, index, asked, questionTerms);
  if (value) return [value];
  const next =
    continuation(candidates, index, asked, questionTerms) ??
    instruction(candidates, index, asked) ??
    description(candidates, index);
  if (!next) return [];
  const nextValue = valueNeighbour(candidates, candidates.indexOf(next, index + 1), asked, questionTerms);
  return nextValue ? [next, nextValue] : [next];
}

/**
 * A question asking how to do something: "How do I enable trading accounts?", "How can I make the
 * invoice numbers start at 100?", "How to resize a figure?", also after what the user did ("I
 * linked my own top-level with gplc; how do I make it accept --init-goal?").
 */
const ASKS_HOW_TO =
  /(?:^|[;:,]\s)\s*how\s+(?:do|can|should|could|would|may)\s+(?:i|you|we|one)\b|^\s*how\s+to\b/i;
/**
 * A sentence telling what to do: it follows a menu path (`File → Properties`) or opens, perhaps
 * after its purpose ("To change it, …"), with a verb of doing ("Use", "Select", "Click", "Run"), or
 * says how what the sentence before wants is done ("This can be achieved passing the
 * --new-top-level to gplc:", "This is done by setting …").
 */
const INSTRUCTION =
  /→|^(?:[-•*]\s*)?(?:to\s[^,]{1,80},\s*)?(?:use|select|click|choose|go\s+to|open|run|type|press|enter|set|check|uncheck|enable|disable|add|remove|navigate|pick|tick|invoke|install|specify|pass|write)\b|^(?:this|that|it)\s+(?:can|may|could|is)\s+(?:be\s+)?(?:achieved|done|obtained|accomplished)\s+(?:by|using|with|via|through|passing|setting|adding|calling|giving)\b/i;

/** A question asking for a key: "Which keyboard shortcut saves the file?", "Which accelerator opens the panel?". */
const ASKS_FOR_KEY =
  /\b(?:(?:keyboard\s+)?short-?cuts?|accelerators?|key\s*bindings?|keystrokes?|hot\s*keys?|(?:which|what)\s+keys?)\b/i;
/** A sentence naming a key combination: "Ctrl+S", "Shift+Ctrl+S", "Meta-K", Emacs's "C-x". */
const KEY_STATEMENT = /\b(?:ctrl|control|shift|alt|meta|cmd|command|super)\s*[-+]\s*\S|\b[CM]-\S/i;

/** A question asking for a command: "What command does the support section give for …?", "Which command cancels a job?". */
const ASKS_FOR_COMMAND = /^\s*(?:what|which)\s+(?:\w+\s+)?commands?\b(?!-)/i;
/**
 * A sentence giving a command after announcing it: "You can obtain the latter using the following
 * command, running as root: /path/to/driver -DD -a <upsname>" (a PDF sets the command on the
 * line under the sentence, which reads on as its end).
 */
const COMMAND_STATEMENT = /\b(?:command|run|type|execute)\b[^.!?]*:\s+\S/i;

/** The kind of sentence a question asking how to do something, for a key or for a command, is answered by. */
const ACTION_STATEMENTS = {
  instruction: INSTRUCTION,
  key: KEY_STATEMENT,
  command: COMMAND_STATEMENT,
} as const;

/**
 * What a question asks for, read once from its wording: the helpers that rank and extend the
 * sentences of an answer consult this, not the question's text.
 */
export interface AskedFor {
  /** The question as written: the names, literals and parameters it spells are matched against it. */
  text: string;
  /** A default: "What is the default of X?", "What does X default to?". */
  default: boolean;
  /** A value of some kind: a default, a limit, a size, a count, a port, a version. */
  value: boolean;
  /** An amount, a number: "How many months …", "How long is the timeout?". */
  amount: boolean;
  /** A bound: "the maximum number of columns", what an index can have "at most". */
  bound: boolean;
  /** The unit a value is given in: "In what unit is KEYTIMEOUT measured?". */
  unit: boolean;
  /** The version something appeared in: "Since which version is X available?". */
  since: boolean;
  /** Where something is kept ("Where is a user's crontab stored?"), when it does not ask for a default place. */
  place: boolean;
  /** Which command-line option does something: "Which gplc option produces a WAM file for byte-code?". */
  option: boolean;
  /** In what order things happen: "In what order do the goals run?". */
  order: boolean;
  /** The version a default or a behaviour changed in: "In which version did X go back to being on by default?". */
  changed: boolean;
  /** What an entry is or does ("What does %h log?"), not one of its values. */
  whatItIs: boolean;
  /** The name of something: "Which counter lets biblatex break URLs after numbers?". */
  name: boolean;
  /** What to do ("How do I enable …?": an instruction), the key doing it ("Which shortcut saves …?") or the command. */
  action?: keyof typeof ACTION_STATEMENTS;
  /** A summary of what the passages say: "summarize X". */
  summary: boolean;
  /** The measures "how …" asks for ("many", "long"): what is asked, not what about. */
  measures: ReadonlySet<string>;
  /** The words asking for a default by what holds when none is given ("don't specify"): what is asked, not what about. */
  unsetWords: ReadonlySet<string>;
  /** Per term of the question, the words a manual may join it into with its neighbour ("red" → "redhat"). */
  joinedAs: ReadonlyMap<string, readonly string[]>;
  /** The kind of sentence stating what is asked ("The default is 128MB"), when the question asks for one. */
  statement?: RegExp;
}

/** Per term of a text, the joined words (`joinedTerms`) it is one half of. */
function joinedAs(text: string): Map<string, string[]> {
  const joinedBy = new Map<string, string[]>();
  for (const [joined, parts] of joinedTerms(text))
    for (const part of parts) joinedBy.set(part, [...(joinedBy.get(part) ?? []), joined]);
  return joinedBy;
}

/** Classifies a question by what it asks for; done once per answer. */
export function classifyQuestion(question: string): AskedFor {
  const unset = ASKS_WHEN_UNSET.exec(question)?.[0];
  // What holds when the user gives none is a default, a value: its neighbour stating it is quoted.
  const value = ASKS_FOR_VALUE.test(question) || unset !== undefined;
  const action = ASKS_HOW_TO.test(question)
    ? 'instruction'
    : ASKS_FOR_KEY.test(question)
      ? 'key'
      : ASKS_FOR_COMMAND.test(question)
        ? 'command'
        : undefined;
  const asksDefault = ASKS_FOR_DEFAULT.test(question) || unset !== undefined;
  const asked: Omit<AskedFor, 'statement'> = {
    text: question,
    default: asksDefault,
    value,
    amount: ASKS_FOR_AMOUNT.test(question),
    bound: ASKS_FOR_BOUND.test(question),
    unit: ASKS_FOR_UNIT.test(question),
    since: ASKS_SINCE_WHEN.test(question),
    place: ASKS_WHERE.test(question) && !asksDefault,
    option: ASKS_FOR_OPTION.test(question) && !ASKS_WHAT_IT_IS.test(question),
    order: ASKS_FOR_ORDER.test(question),
    changed: ASKS_WHEN_CHANGED.test(question),
    whatItIs: ASKS_WHAT_IT_IS.test(question) && !value,
    name: ASKS_FOR_NAME.test(question) && !value,
    ...(action ? { action } : {}),
    summary: SUMMARY_REQUEST.test(question),
    // "many" in "how many columns", "long" in "how long": the measure asked for, not the subject.
    measures: distinctTerms([...question.matchAll(/\bhow\s+(\w+)/gi)].map((match) => match[1]).join(' ')),
    joinedAs: joinedAs(question),
    unsetWords: new Set([...distinctTerms(unset ?? '')].filter((term) => UNSET_WORDS.has(term))),
  };
  const statement = statementAsked(asked);
  return statement ? { ...asked, statement } : asked;
}

/**
 * For a question asking how to do something (or for the key or command doing it), the sentence after
 * `picked` (in its paragraph or the next, a step) telling what to do (or naming the key), when
 * `picked` only says it can be done ("You can change the starting invoice number if it is
 * important to you." before "Use File → Properties, …").
 */
function instruction(
  candidates: readonly Candidate[],
  index: number,
  asked: AskedFor,
): Candidate | undefined {
  const picked = candidates[index]!;
  if (asked.action === undefined) return undefined;
  const telling = ACTION_STATEMENTS[asked.action];
  if (telling.test(picked.sentence)) return undefined;
  for (const next of candidates.slice(index + 1, index + 1 + NEIGHBOUR_REACH)) {
    if (next.hitIndex !== picked.hitIndex || next.block > picked.block + 1) break;
    if (!next.row && next.setting === undefined && telling.test(next.sentence)) return next;
  }
  return undefined;
}

/** A sentence of four words or more ending in a colon; a heading's "TEXT DATA FILES:" names, it does not announce. */
const ANNOUNCING = /^(?=.*\p{Ll})\S+(?:\s+\S+){3,}:$/u;
/** How many sentences after one announcing a list its continuation may be. */
const CONTINUATION_REACH = 4;
/** A list item this short names a value and says in a few words what it means ("- EINVAL Invalid argument."). */
const MAX_VALUE_ITEM_CHARS = 60;

/**
 * What a sentence announcing what follows it introduces ("It can assume one of the following
 * values:", "This is the procedure:"), quoted with it, since alone it says nothing: the sentence
 * right after it (a list item, a step, a definition), the later item of the list the question's
 * words name better, or, when the question asks for a default, the first of the next few marking
 * itself the default ("DEC: Default. Ordering is done in descending mode."). A table's rows are
 * ranked as siblings of their own: none continues it.
 */
function continuation(
  candidates: readonly Candidate[],
  index: number,
  asked: AskedFor,
  questionTerms: ReadonlySet<string>,
): Candidate | undefined {
  const picked = candidates[index]!;
  if (picked.row || !ANNOUNCING.test(picked.sentence)) return undefined;
  const sentence = (next: Candidate | undefined): next is Candidate =>
    next?.hitIndex === picked.hitIndex && !next.row && next.setting === undefined;
  const following = candidates.slice(index + 1, index + 1 + CONTINUATION_REACH);
  const marked = asked.default
    ? following.find((next) => sentence(next) && DEFAULT_CHOICE.test(next.sentence))
    : undefined;
  const next = following[0];
  if (marked || !sentence(next) || next.block > picked.block + 1) return marked;
  // Of the list announced ("errno is set to one of the following values:" over "ENOMEM Memory
  // allocation error." and "EINVAL Invalid argument."), the item sharing more of the question's
  // words than the first, when the question asks about one of them ("… which errno value means I
  // passed it a bad argument?").
  // Only a list of values, each a name and a few words: a list of longer items (unit files, steps)
  // is read in its order.
  if (!LIST_ITEM.test(next.sentence) || next.sentence.length > MAX_VALUE_ITEM_CHARS) return next;
  return following
    .filter(
      (item) =>
        sentence(item) && LIST_ITEM.test(item.sentence) && item.sentence.length <= MAX_VALUE_ITEM_CHARS,
    )
    .reduce(
      (best, item) => (overlap(item.terms, questionTerms) > overlap(best.terms, questionTerms) ? item : best),
      next,
    );
}

/**
 * The sentence after `picked` (within NEIGHBOUR_REACH, in the same paragraph or the same
 * definition) that holds the value the question asks for, when `picked` itself does not.
 */
function valueNeighbour(
  candidates: readonly Candidate[],
  index: number,
  asked: AskedFor,
  questionTerms: ReadonlySet<string>,
): Candidate | undefined {
  const picked = candidates[index]!;
  if (!asked.value && !asked.unit && !asked.place) return undefined;
  if (holdsValue(picked, questionTerms, asked)) return undefined;
  const following: Candidate[] = [];
  for (const next of candidates.slice(index + 1, index + 1 + NEIGHBOUR_REACH)) {
    const together =
      next.hitIndex === picked.hitIndex &&
      (next.block === picked.block || (picked.label !== undefined && next.label === picked.label));
    if (!together) break;
    if (next.setting === undefined) following.push(next);
  }
  // The sentence stating the kind of value asked ("The default value is haut=2") beats an earlier
  // one that merely holds a number ("See Section 6.7.2 for details."); "The default format for
  // creating archives." is followed by "This is currently PAX_FORMAT.", which says no "default".
  // Of an entry's change notes, the one about what the question asks ("Changed in version 4.0:
  // Enabled by default.") beats an earlier one about something else ("Changed in version 2.3: Emits
  // autodoc-skip-member event as autodoc does.").
  const changeNote = asked.changed
    ? following
        .filter((next) => holdsValue(next, questionTerms, asked))
        .reduce<Candidate | undefined>(
          (best, next) =>
            best === undefined || overlap(next.terms, questionTerms) > overlap(best.terms, questionTerms)
              ? next
              : best,
          undefined,
        )
    : undefined;
  return (
    changeNote ??
    following.find((next) => holdsValue(next, questionTerms, asked)) ??
    (asked.default && !asked.unit
      ? following.find((next) =>
          holdsValue(next, questionTerms, {
            default: false,
            unit: false,
            amount: asked.amount,
            changed: false,
          }),
        )
      : undefined) ??
    entryRow(candidates, index, (row) => holdsValue(row, questionTerms, asked))
  );
}

/**
 * The row of the picked sentence's own entry, above it, that states the value asked for: a
 * parameter's attributes open its entry ("confirmTimeout", then "type: integer | default: 10000 |
 * mandatory: no", then "Specifies how long rsyslog must wait …"), before the sentence the
 * question's words match.
 */
function entryRow(
  candidates: readonly Candidate[],
  index: number,
  states: (row: Candidate) => boolean,
): Candidate | undefined {
  const picked = candidates[index]!;
  if (picked.label === undefined) return undefined;
  for (const before of candidates.slice(Math.max(0, index - NEIGHBOUR_REACH), index).reverse()) {
    if (before.hitIndex !== picked.hitIndex || before.label !== picked.label) break;
    if (before.row && states(before)) return before;
  }
  return undefined;
}

/** A line that only names something is short and ends without a sentence's punctuation. */
const MAX_NAME_LINE_CHARS = 120;

/**
 * The sentence that says what a bare name line is (`gen_random_uuid () → uuid`, a signature or a
 * caption written as a paragraph of its own, with no definition list to tie them): the first
 * sentence of the next paragraph. Quoted alone, the line would answer nothing.
 */
function description(candidates: readonly Candidate[], index: number): Candidate | undefined {
  const picked = candidates[index]!;
  if (picked.row || picked.label !== undefined || picked.sentence.length > MAX_NAME_LINE_CHARS)
    return undefined;
  if (/[.!?:;]["'’”)\]]*$/.test(picked.sentence)) return undefined;
  const next = candidates[index + 1];
  const alone =
    candidates[index - 1]?.block !== picked.block || candidates[index - 1]?.hitIndex !== picked.hitIndex;
  return alone &&
    next?.hitIndex === picked.hitIndex &&
    next.block === picked.block + 1 &&
    !next.row &&
    next.setting === undefined
    ? next
    : undefined;
}

/**
 * Whether a better row of the same table was already picked: rows of one table are siblings, and
 * the one that answers holds the question's distinguishing term; a near tie (a question about
 * two rows) keeps both. A table inside a definition is one table across the passages of its page.
 */
function outranksSiblingRow(candidate: Candidate, picked: readonly Candidate[]): boolean {
  return (
    candidate.table !== undefined &&
    picked.some((other) => other.table === candidate.table && candidate.score < other.score * SIBLING_ROW_TIE)
  );
}

/** The version a note dates its change or its entry by: "4.0.2" in "Changed in version 4.0.2: …". */
const DATED_VERSION =
  /\b(?:changed|deprecated|removed|renamed|new|added|introduced|available)\s+(?:in|since)\s+(?:version\s+|v)?(\d+(?:\.\d+)*)/i;

/**
 * Whether two notes date changes of different versions: "Changed in version 4.0: The default is
 * changed to False from True." and "Changed in version 4.0.2: The default is changed to True from
 * False again." share nearly all their words, yet each says what the other does not.
 */
function datedApart(one: Candidate, other: Candidate): boolean {
  const version = DATED_VERSION.exec(one.sentence)?.[1];
  const otherVersion = DATED_VERSION.exec(other.sentence)?.[1];
  return version !== undefined && otherVersion !== undefined && version !== otherVersion;
}

/**
 * Picks the best sentences, skipping ones that say nearly the same as one already picked on its
 * own, each with its neighbour when that neighbour holds the value asked for, at most
 * MAX_ANSWER_SENTENCES in all. A neighbour quoted for another's sake ("• charging: battery is
 * charging," after the sentence announcing the list) makes a repeat only of a sentence saying
 * little more than it, not of one that holds its words and more ("• resting: the battery is fully
 * charged, and not charging nor discharging.").
 */
function selectSentences(
  candidates: readonly Candidate[],
  maxSentences: number,
  relativeFloor: number,
): Candidate[] {
  const picked: Candidate[] = [];
  // The sentences picked on their own, not as another's neighbour.
  const own: Candidate[] = [];
  const repeats = (candidate: Candidate): boolean =>
    picked.some(
      (other) =>
        other === candidate ||
        (!datedApart(other, candidate) &&
          overlap(other.terms, candidate.terms) /
            Math.max(
              1,
              own.includes(other) ? Math.min(other.terms.size, candidate.terms.size) : candidate.terms.size,
            ) >
            0.8),
    );
  let chosen = 0;
  const ranked = candidates.filter((c) => c.score > 0).sort((a, b) => b.score - a.score);
  const floor = (ranked[0]?.score ?? 0) * relativeFloor;
  for (const candidate of ranked) {
    if (candidate.score < floor) break;
    if (chosen >= maxSentences || picked.length >= MAX_ANSWER_SENTENCES) break;
    if (repeats(candidate) || outranksSiblingRow(candidate, picked)) continue;
    const adding = [candidate, ...candidate.neighbours.filter((neighbour) => !picked.includes(neighbour))];
    if (picked.length + adding.length > MAX_ANSWER_SENTENCES) continue;
    picked.push(...adding);
    own.push(candidate);
    chosen++;
  }
  return picked;
}

/**
 * A sentence opening with an option, a control key, a format code or an escape ("-q be quiet.",
 * "^W delete the previous word.") starts an entry of a list written as one paragraph.
 */
const OPENS_ENTRY = /^(?:-{1,2}[A-Za-z\d]|%[A-Za-z]|\^[A-Za-z]|\\[A-Za-z\d])\S*\s/;

/**
 * The picked sentences and, when the answer has room, the sentence after the best one in its
 * paragraph: it often completes what the best one starts ("Each record is appended to the journal."
 * then "It is written to txn.journal beside the data files."). Not a sibling entry (a table's next
 * row, a list's next option), nor when the best sentence or its neighbour already holds the value
 * asked for.
 */
function withNextSentence(
  picked: Candidate[],
  candidates: readonly Candidate[],
  asked: AskedFor,
  questionTerms: ReadonlySet<string>,
): Candidate[] {
  const best = picked[0];
  if (best === undefined || best.row || picked.length >= MAX_ANSWER_SENTENCES) return picked;
  const next = candidates[candidates.indexOf(best) + 1];
  if (
    next === undefined ||
    next.hitIndex !== best.hitIndex ||
    next.block !== best.block ||
    next.row ||
    next.setting !== undefined ||
    OPENS_ENTRY.test(next.sentence) ||
    picked.includes(next)
  )
    return picked;
  const answered =
    (asked.value || asked.unit) &&
    [best, ...best.neighbours].some((quoted) => holdsValue(quoted, questionTerms, asked));
  return answered ? picked : [...picked, next];
}

/** "summarize X", "give an overview of X": the relevant passages retold in reading order, best passage first. */
const SUMMARY_REQUEST = /\b(summari[sz]e|summary|overview|tl;?dr)\b/i;

function summarySentences(
  hits: readonly SearchHit[],
  relevant: readonly number[],
  maxSentences: number,
): Candidate[] {
  return relevant
    .flatMap((hitIndex) => passageSentences(hitIndex, hits[hitIndex]!))
    .filter((candidate) => candidate.sentence.length >= MIN_QUOTED_CHARS && candidate.setting === undefined)
    .slice(0, maxSentences);
}

/** Passages in the order of their best sentence; within a passage, sentences in reading order. */
function orderForReading(picked: Candidate[]): Candidate[] {
  const passageOrder = [...new Set(picked.map((candidate) => candidate.hitIndex))];
  return [...picked].sort(
    (a, b) => passageOrder.indexOf(a.hitIndex) - passageOrder.indexOf(b.hitIndex) || a.position - b.position,
  );
}

/**
 * A definition's first quoted sentence names the term it defines ("gc.auto: … "), or the heading
 * naming its section ("(5) SQLITE_BUSY: … "), unless it already does: quoted alone, "This
 * defaults to 250." would not say what does.
 */
function withLabel(candidate: Candidate, previous: Candidate | undefined): string {
  const { sentence } = candidate;
  const label = candidate.label ?? candidate.heading;
  if (!label || sentence.includes(label)) return sentence;
  if (previous?.hitIndex === candidate.hitIndex && (previous.label ?? previous.heading) === label)
    return sentence;
  return OPTION_VALUES.test(sentence) ? `${label}${sentence}` : `${label}: ${sentence}`;
}

export function noAnswerText(question: string, namespace: string): string {
  const topic = question.trim() ? `“${question.trim()}”` : 'this question';
  return (
    `I found nothing about ${topic} in the knowledge namespace “${namespace}”, so I cannot answer from it. ` +
    `Ingest documents that cover it into “${namespace}” (for example with POST /api/tools/ingestSources ` +
    `or \`parley ingest <files> --namespace ${namespace}\`) and ask again.`
  );
}

/**
 * The offline answer: the most relevant sentences of the retrieved passages, each followed by the
 * `[n]` of its passage, then the `Sources:` list. `questionTerms` decide relevance (the latest
 * question); `queryTerms` rank sentences (the question with what it follows up on).
 */
export function composeExtractiveAnswer(
  input: { question: string; retrievalQuery: string; namespace: string; hits: readonly SearchHit[] },
  options: ComposeOptions = {},
): ComposedAnswer {
  return prepareExtractiveAnswer(input, options).compose(options.scoring ?? SENTENCE_SCORING);
}

/** A sentence an answer may quote, as the composer weighed it. */
export interface ScoredSentence {
  /** The retrieved passage it is read from. */
  hitIndex: number;
  sentence: string;
  /** The definition term it is quoted under. */
  label?: string;
  features?: SentenceFeatures;
  /** Its score in the answer composed last. */
  score: number;
}

/** An answer read up to the weighing of its sentences' features. */
export interface PreparedAnswer {
  compose(scoring: SentenceScoring): ComposedAnswer;
  /** The sentences weighed, in reading order; none for a summary, which quotes passages in order. */
  sentences: readonly ScoredSentence[];
}

/**
 * The offline answer up to the weighing of its sentences' features, composed with given weights
 * on demand. Reading the passages and the features of their sentences does not depend on the
 * weights, so the answer bench's fit (bench/answers/fit.ts) prepares each answer once and
 * composes it with every weighting it tries.
 */
export function prepareExtractiveAnswer(
  input: { question: string; retrievalQuery: string; namespace: string; hits: readonly SearchHit[] },
  options: Omit<ComposeOptions, 'scoring'> = {},
): PreparedAnswer {
  const { maxSentences = 4, minCoverage = 0.5 } = options;
  const asked = classifyQuestion(input.question);
  const questionTerms = distinctTerms(input.question);
  const queryTerms = withoutAskWords(distinctTerms(input.retrievalQuery), asked);
  // A manual states a unit ("The interval in seconds between checks") without the words asking for it.
  const subjectTerms = withoutUnsetWords(asked.unit ? withoutUnitWords(questionTerms) : questionTerms, asked);
  const relevanceTerms = subjectTerms.size > 0 ? subjectTerms : queryTerms;
  const relevant = relevanceTerms.size > 0 ? relevantHits(input.hits, relevanceTerms, minCoverage) : [];
  const candidates =
    asked.summary && relevant.length > 0
      ? undefined
      : sentenceFeatures(input.hits, relevant, queryTerms, asked, relevanceTerms);
  if (!candidates) {
    const summary = quote(input, summarySentences(input.hits, relevant, maxSentences));
    return { compose: () => summary, sentences: [] };
  }
  const compose = (scoring: SentenceScoring): ComposedAnswer => {
    scoreCandidates(candidates, relevant, scoring.weights);
    return quote(
      input,
      orderForReading(
        withNextSentence(
          selectSentences(candidates, maxSentences, scoring.relativeFloor),
          candidates,
          asked,
          relevanceTerms,
        ),
      ),
    );
  };
  return { compose, sentences: candidates };
}

/**
 * Quoted text shown as it reads in its source once the answer is read as Markdown: the loaders
 * write no backslash escapes, so a backslash before punctuation (`\s-\v\$`) is the character
 * itself, and so is a PDF's asterisk (`(*)`, `[0:2*pi]`), which is plain text where an HTML
 * page's may be emphasis. Escaped outside code spans.
 */
function asWritten(text: string, plain: boolean): string {
  return text.replace(/(`+)[\s\S]*?\1|\\(?=[!-/:-@[-`{-~])|\*/g, (match) =>
    match === '\\' || (match === '*' && plain) ? `\\${match}` : match,
  );
}

/** The picked sentences, each followed by the `[n]` of its passage, then the `Sources:` list. */
function quote(
  input: { question: string; namespace: string; hits: readonly SearchHit[] },
  picked: readonly Candidate[],
): ComposedAnswer {
  if (picked.length === 0) {
    return { text: noAnswerText(input.question, input.namespace), citations: [], answered: false };
  }
  const numbers = new Map<number, number>();
  const citations: Citation[] = [];
  const quoted = picked.map((candidate, i) => {
    let n = numbers.get(candidate.hitIndex);
    if (n === undefined) {
      n = citations.length + 1;
      numbers.set(candidate.hitIndex, n);
      citations.push(citationFor(input.hits[candidate.hitIndex]!, n));
    }
    const sentence = withLabel(candidate, picked[i - 1]);
    const text = asWritten(sentence, input.hits[candidate.hitIndex]!.source.page !== undefined);
    return `${text}${candidate.shows ? ` ${candidate.shows}` : ''} [${n}]`;
  });
  return { text: `${quoted.join(' ')}\n\n${sourcesList(citations)}`, citations, answered: true };
}
