import { z } from 'zod';

/**
 * Everything that decides which terms an index holds and how it ranks them. A snapshot stores these
 * settings, so a restored index tokenizes as the one that wrote it; it ranks so too unless given
 * other ranking settings (the engine's namespaces take the current defaults).
 */

export const TokenizerSettings = z.object({
  /** English (Porter) stemming of latin-script words: "aerodynamics" and "aerodynamic" meet. */
  stemming: z.boolean(),
  /** Drop English stop words among latin-script words. */
  stopWords: z.boolean(),
  /** Fold latin, greek and cyrillic diacritics: "Müller" and "Muller" are one term. */
  foldDiacritics: z.boolean(),
  /**
   * Symbol literals as terms of their own beside the words they hold: `%t`, `%>s`, `%-d`, `%~`,
   * `\relative`, `&&`, `->>`, as manuals define them in entries (Apache's log formats, strftime,
   * zsh prompts, LaTeX macros, shell and SQL operators). A snapshot written before this setting
   * existed reads as without them.
   */
  symbols: z.boolean().default(false),
});
export type TokenizerSettings = z.infer<typeof TokenizerSettings>;

export const ProximitySettings = z.object({
  /** Weight of the term-proximity bonus (BM25TP); 0 turns it off. */
  weight: z.number().min(0).max(100),
  /** Query terms further apart than this many terms earn no bonus. */
  window: z.number().int().min(1).max(100),
});

export const FeedbackSettings = z.object({
  /** Top chunks of the first pass the expansion terms come from. */
  documents: z.number().int().min(1).max(100),
  /** Expansion terms added to the query. */
  terms: z.number().int().min(1).max(200),
  /** Share of the final query weight kept by the original terms. */
  originalQueryWeight: z.number().positive().max(1),
  /**
   * Feedback runs only when the first pass's best chunk scores at least this share of what a
   * chunk holding every query term could score; 0 runs it always (and is what a snapshot written
   * before this setting existed reads as).
   */
  minConfidence: z.number().min(0).max(1).default(0),
});

export const RankingSettings = z.object({
  /** BM25 term-frequency saturation. */
  k1: z.number().positive().max(10),
  /** BM25 length normalisation of the body. */
  b: z.number().min(0).max(1),
  /** BM25F weight of the title field (title + heading path) relative to the body's 1. */
  titleWeight: z.number().min(0).max(100),
  /** BM25F length normalisation of the title field. */
  titleB: z.number().min(0).max(1),
  proximity: ProximitySettings,
  /** RM3 pseudo-relevance feedback; null turns it off. */
  feedback: FeedbackSettings.nullable(),
  /** How many of the best chunks the proximity bonus re-ranks. */
  rerankDepth: z.number().int().min(1).max(1000),
});
export type RankingSettings = z.infer<typeof RankingSettings>;

export const IndexSettings = z.object({
  tokenizer: TokenizerSettings,
  /**
   * `title-and-body` keeps the title and headings as their own BM25F field; `single` indexes them
   * as part of the body, which is plain BM25 over title + text.
   */
  fields: z.enum(['title-and-body', 'single']),
  ranking: RankingSettings,
});
export type IndexSettings = z.infer<typeof IndexSettings>;

/** Settings as a caller may give them: any part left out takes its default. */
export interface IndexSettingsInput {
  tokenizer?: Partial<TokenizerSettings>;
  fields?: IndexSettings['fields'];
  ranking?: Partial<Omit<RankingSettings, 'proximity' | 'feedback'>> & {
    proximity?: Partial<RankingSettings['proximity']>;
    feedback?: Partial<NonNullable<RankingSettings['feedback']>> | null;
  };
}

/**
 * Chosen on two collections at once (bench/knowledge/retrieval.ts, `npm run bench:knowledge`):
 * Cranfield and CACM, one file per record, chunked as the engine chunks them, the best chunk
 * standing for its document. Each part stays only because it helps on both (nDCG@10 with the
 * part, against without it):
 * - title field at weight 2 (the title counted once even when the first heading repeats it);
 * - proximity bonus 0.5 within 8 terms;
 * - RM3 with Anserini's 10 feedback documents and 20 terms, 0.7 of the weight kept by the original
 *   query, and only after a confident first pass (the best chunk scores ≥ 0.25 of the query's
 *   ceiling). Run on every query, RM3 (λ 0.5) added about 0.025 nDCG@10 on Cranfield and cost
 *   about 0.04 on CACM, whose queries are long requests whose best first-pass matches are often
 *   weak.
 * The values sit inside a plateau, not on a peak: with 20-30 terms, a confidence of 0.2-0.35, a
 * λ of 0.65-0.75 or a window of 6-12 terms (one changed at a time, or terms and confidence
 * together) the average gain over plain BM25 stays at 6.1-6.6 % and neither collection's falls
 * below 4.4 % (6.5 % chosen; Cranfield +8.1 %, CACM +4.9 %). The settings before (10 terms,
 * confidence 0.3, window 5: +5.0 %) sat at the plateau's edge, where proximity helped CACM only
 * and RM3 Cranfield only; here each part helps both (proximity Cranfield by only 0.0003).
 * Indexing short records whole instead of in 1,000-character chunks, and summing chunk scores per
 * document instead of taking the best, were measured too and do not earn their place.
 */
export const DEFAULT_SETTINGS: IndexSettings = {
  tokenizer: { stemming: true, stopWords: true, foldDiacritics: true, symbols: true },
  fields: 'title-and-body',
  ranking: {
    k1: 1.2,
    b: 0.75,
    titleWeight: 2,
    titleB: 0.75,
    proximity: { weight: 0.5, window: 8 },
    feedback: { documents: 10, terms: 20, originalQueryWeight: 0.7, minConfidence: 0.25 },
    rerankDepth: 100,
  },
};

const DEFAULT_FEEDBACK = DEFAULT_SETTINGS.ranking.feedback as NonNullable<RankingSettings['feedback']>;

/** Plain BM25 (k1 1.2, b 0.75) over title + text as one field: the baseline the ranking must beat. */
export const PLAIN_BM25_SETTINGS: IndexSettings = {
  tokenizer: DEFAULT_SETTINGS.tokenizer,
  fields: 'single',
  ranking: {
    ...DEFAULT_SETTINGS.ranking,
    k1: 1.2,
    b: 0.75,
    proximity: { ...DEFAULT_SETTINGS.ranking.proximity, weight: 0 },
    feedback: null,
  },
};

/** Defaults overlaid with `input`, validated: a bad value is refused with the setting it belongs to. */
export function resolveSettings(
  input: IndexSettingsInput = {},
  base: IndexSettings = DEFAULT_SETTINGS,
): IndexSettings {
  const feedback =
    input.ranking?.feedback === null
      ? null
      : input.ranking?.feedback === undefined
        ? base.ranking.feedback
        : { ...(base.ranking.feedback ?? DEFAULT_FEEDBACK), ...input.ranking.feedback };
  const merged = {
    tokenizer: { ...base.tokenizer, ...input.tokenizer },
    fields: input.fields ?? base.fields,
    ranking: {
      ...base.ranking,
      ...input.ranking,
      proximity: { ...base.ranking.proximity, ...input.ranking?.proximity },
      feedback,
    },
  };
  return parseSettings(merged, 'index settings');
}

/** Validates settings read from anywhere (a caller, a snapshot), naming the first bad field. */
export function parseSettings(value: unknown, what: string): IndexSettings {
  const parsed = IndexSettings.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join('.') || 'settings';
  throw new RangeError(`${what}: ${field}: ${issue?.message ?? 'invalid'}`);
}
