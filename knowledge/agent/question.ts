import type { ChatTurn } from '../../shared/agent.js';
import { contentTerms, wordsOf } from './terms.js';
import { withoutMention } from './mention.js';

export interface ResolvedQuestion {
  /** The latest user turn without the mention: what is answered. */
  question: string;
  /** What retrieval runs on: the question, joined with the earlier question it follows up on. */
  retrievalQuery: string;
  /** The earlier user question this one continues, when it is a follow-up. */
  followsUp?: string;
}

/** Words that point back at something named in an earlier turn ("its limits", "what about them"). */
const BACK_REFERENCES = new Set([
  'it',
  'its',
  'they',
  'them',
  'their',
  'theirs',
  'this',
  'that',
  'these',
  'those',
  'there',
  'he',
  'she',
  'his',
  'her',
  'him',
  'one',
  'ones',
  'former',
  'latter',
  'same',
]);
const CONTINUATION = /^(and|also|but|so|then|what about|how about|and what about)\b/i;

function pointsBack(question: string): boolean {
  if (CONTINUATION.test(question)) return true;
  for (const word of wordsOf(question.toLowerCase())) {
    if (BACK_REFERENCES.has(word)) return true;
  }
  return false;
}

export function latestUserTurn(messages: readonly ChatTurn[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role === 'user') return index;
  }
  return -1;
}

/**
 * The question a chat asks: the latest user turn without its mention. A turn that points back at
 * an earlier one ("and what about its limits?") or names nothing on its own is a follow-up: the
 * nearest earlier user question that names something is joined to it for retrieval.
 */
export function resolveQuestion(
  messages: readonly ChatTurn[],
  mentionNames: readonly string[],
): ResolvedQuestion | undefined {
  const latest = latestUserTurn(messages);
  if (latest < 0) return undefined;
  const question = withoutMention(messages[latest]?.content ?? '', mentionNames);
  const isFollowUp = pointsBack(question) || contentTerms(question).length === 0;
  if (isFollowUp) {
    for (let index = latest - 1; index >= 0; index--) {
      const turn = messages[index];
      if (turn?.role !== 'user') continue;
      const earlier = withoutMention(turn.content, mentionNames);
      if (contentTerms(earlier).length === 0) continue;
      return { question, retrievalQuery: `${earlier} ${question}`, followsUp: earlier };
    }
  }
  return { question, retrievalQuery: question };
}
