import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { refusalOf } from '../../shared/server-kit/index.js';
import { NoQuestionError } from '../agent/answer.js';
import { KnowledgeError } from '../store/errors.js';
import { sanitizeMessage } from './sanitize.js';

const KNOWLEDGE_STATUS: Record<KnowledgeError['kind'], ContentfulStatusCode> = {
  invalid: 400,
  busy: 409,
  'not-found': 404,
};

export interface ErrorReply {
  status: ContentfulStatusCode;
  message: string;
}

/**
 * What an error becomes in the agent's envelope `{"error": message}`: refusals keep their status
 * and message, everything else is a 500 whose message is sanitized (no stack, no path, no
 * environment value, no secret).
 */
export function errorReply(error: unknown, secrets: readonly string[]): ErrorReply {
  const refusal = refusalOf(error);
  if (refusal) return { status: refusal.status, message: sanitizeMessage(refusal.message, secrets) };
  if (error instanceof KnowledgeError) {
    return { status: KNOWLEDGE_STATUS[error.kind], message: sanitizeMessage(error.message, secrets) };
  }
  if (error instanceof NoQuestionError) return { status: 400, message: error.message };
  const message = error instanceof Error ? sanitizeMessage(error.message, secrets) : '';
  return { status: 500, message: message || 'internal error' };
}
