export { answerChat, EXTRACTIVE_MODEL_ID, NoQuestionError } from './answer.js';
export type { AnswerSettings, ChatAnswer, PassageRetriever } from './answer.js';
export { DEFAULT_MENTION_NAMES, mentionsAgent, withoutMention } from './mention.js';
export type { LanguageModelConfig } from './llm.js';
