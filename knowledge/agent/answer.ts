import {
  DEFAULT_NAMESPACE,
  type Citation,
  type GenerateRequest,
  type SearchHit,
} from '../../shared/agent.js';
import { checkCitations, citationFor, sourcesList } from './citations.js';
import { ASKS_FOR_BOUND, ASKS_FOR_UNIT, composeExtractiveAnswer, UNIT_ASK_WORDS } from './composer.js';
import { askLanguageModel, LanguageModelError, type LanguageModelConfig } from './llm.js';
import { mentionsAgent } from './mention.js';
import { latestUserTurn, resolveQuestion, type ResolvedQuestion } from './question.js';

/** What answering needs from the knowledge engine: ranked passages of a namespace. */
export interface PassageRetriever {
  search(
    namespace: string,
    query: string,
    options: { limit: number; onePerDocument: boolean },
  ): Promise<SearchHit[]> | SearchHit[];
}

export interface AnswerSettings {
  /** Names a user mentions to address the agent (`@agent`, `@knowledge`, …). */
  mentionNames: readonly string[];
  /** Passages retrieved for a question. */
  passages: number;
  /** When set, answers are written by this model from the passages; otherwise composed offline. */
  languageModel?: LanguageModelConfig;
}

export interface ChatAnswer {
  /** False when the latest turn did not mention the agent: the text is then empty. */
  addressed: boolean;
  /** False when nothing relevant was retrieved: the text then says so and names what to ingest. */
  answered: boolean;
  text: string;
  citations: Citation[];
  /** `extractive`, or the language model that wrote the answer. */
  modelId: string;
  inputTokens: number;
  outputTokens: number;
}

/** A generate request that holds no user turn to answer. */
export class NoQuestionError extends Error {
  override readonly name = 'NoQuestionError';
  constructor() {
    super('messages: there is no user turn to answer');
  }
}

export const EXTRACTIVE_MODEL_ID = 'extractive';

const unanswered = (addressed: boolean): ChatAnswer => ({
  addressed,
  answered: false,
  text: '',
  citations: [],
  modelId: EXTRACTIVE_MODEL_ID,
  inputTokens: 0,
  outputTokens: 0,
});

/** How many chunks are searched per passage answered from, to find the other chunks of the same pages. */
const WIDER_SEARCH = 3;

/** A page of a PDF, or a whole document otherwise: what a citation points a reader to. */
const pageKey = (hit: SearchHit): string => `${hit.source.documentId}#${hit.source.page ?? ''}`;

/**
 * The best chunk of each of the first `passages` pages among the ranked chunks, then the other
 * ranked chunks of those pages (as many again at most): the fact asked for is often in the chunk
 * after the one that ranked (the default under an option's description, the row below a
 * table's introduction), where a reader of the page would look next. Chunks of other pages are
 * not read.
 */
function readAround(chunks: readonly SearchHit[], passages: number): SearchHit[] {
  const best = new Map<string, SearchHit>();
  for (const chunk of chunks) {
    if (best.size === passages) break;
    if (!best.has(pageKey(chunk))) best.set(pageKey(chunk), chunk);
  }
  const read = new Set(best.values());
  const around = chunks.filter((chunk) => !read.has(chunk) && best.has(pageKey(chunk)));
  return [...read, ...around.slice(0, passages)];
}

/**
 * Manuals state bounds under "limits" (a table headed "Upper Limit", a section "Limits") while a
 * question asks for "the maximum number of columns" or what an index can have "at most": the
 * retrieval for a question asking for a bound also looks for the word.
 */
const retrievalText = (query: string): string => {
  // "In what unit is MAILCHECK given?": the entry says "The interval in seconds …", never "unit",
  // while the words asking for a unit rank every passage about units above it.
  const subject = ASKS_FOR_UNIT.test(query) ? query.replace(UNIT_ASK_WORDS, ' ').replace(/\s+/g, ' ') : query;
  return ASKS_FOR_BOUND.test(subject) && !/\blimits?\b/i.test(subject) ? `${subject} limit` : subject;
};

/**
 * The passages an answer is composed from: the ranked chunks for the retrieval query, read
 * around the best `passages` pages. The answer bench's weight fit (bench/answers/fit.ts) caches
 * them, since they do not depend on how the composer ranks sentences.
 */
export async function retrievePassages(
  retriever: PassageRetriever,
  namespace: string,
  retrievalQuery: string,
  passages: number,
): Promise<SearchHit[]> {
  const ranked = await retriever.search(namespace, retrievalText(retrievalQuery), {
    limit: passages * WIDER_SEARCH,
    onePerDocument: false,
  });
  return readAround(ranked, passages);
}

/**
 * The generate path: mention gating, follow-up resolution, retrieval on the namespace, then an
 * answer from the retrieved passages only: written by the configured language model (its
 * citations checked), or composed offline, which is also the fallback when the model fails.
 */
export async function answerChat(
  request: GenerateRequest,
  retriever: PassageRetriever,
  settings: AnswerSettings,
): Promise<ChatAnswer> {
  const latest = latestUserTurn(request.messages);
  if (latest < 0) throw new NoQuestionError();
  const requireMention = request.requireMention ?? true;
  if (requireMention && !mentionsAgent(request.messages[latest]?.content ?? '', settings.mentionNames)) {
    return unanswered(false);
  }
  const resolved = resolveQuestion(request.messages, settings.mentionNames) as ResolvedQuestion;
  const namespace = request.toolParams?.namespace ?? DEFAULT_NAMESPACE;
  const hits = await retrievePassages(retriever, namespace, resolved.retrievalQuery, settings.passages);
  const extractive = composeExtractiveAnswer({ ...resolved, namespace, hits });
  const offline: ChatAnswer = { ...unanswered(true), ...extractive };
  if (!settings.languageModel || !extractive.answered) return offline;
  return answerWithLanguageModel(settings.languageModel, resolved, hits, offline);
}

async function answerWithLanguageModel(
  config: LanguageModelConfig,
  resolved: ResolvedQuestion,
  hits: readonly SearchHit[],
  offline: ChatAnswer,
): Promise<ChatAnswer> {
  const withNote = (why: string): ChatAnswer => ({
    ...offline,
    text: `Note: the language model ${why}, so this answer quotes the documents directly.\n\n${offline.text}`,
  });
  try {
    const answer = await askLanguageModel(config, resolved.question, hits, resolved.followsUp);
    const checked = checkCitations(answer.text, hits.length);
    if (checked.cited.length === 0) return withNote('cited none of the passages it was given');
    const citations = [...checked.cited].sort((a, b) => a - b).map((n) => citationFor(hits[n - 1]!, n));
    return {
      addressed: true,
      answered: true,
      text: `${checked.text}\n\n${sourcesList(citations)}`,
      citations,
      modelId: config.model,
      inputTokens: answer.inputTokens,
      outputTokens: answer.outputTokens,
    };
  } catch (error) {
    if (error instanceof LanguageModelError) return withNote(error.message);
    throw error;
  }
}
