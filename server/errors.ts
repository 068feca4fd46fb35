import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ChatErrorEnvelope } from '../shared/errors.js';
import { RequestProblem } from '../shared/server-kit/index.js';

/**
 * A refusal the API answers with CometChat's error envelope. Thrown by repositories and services;
 * the HTTP layer turns it into `{"error": {code, message, details}}` with `status`.
 */
export class ChatError extends RequestProblem {
  override name = 'ChatError';
  constructor(
    status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(status, message, details);
  }

  /** A refusal from the shared toolkit (a body, a query, a rate limit) in CometChat's terms. */
  static of(problem: RequestProblem): ChatError {
    if (problem instanceof ChatError) return problem;
    const code = problem.status === 429 ? 'ERR_TOO_MANY_REQUESTS' : 'ERR_BAD_REQUEST';
    return new ChatError(problem.status, code, problem.message, problem.details);
  }

  toEnvelope(): ChatErrorEnvelope {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

export const badRequest = (field: string, message: string, code = 'ERR_BAD_REQUEST'): ChatError =>
  new ChatError(400, code, `${field}: ${message}`, { field });

export const uidNotFound = (uid: string): ChatError =>
  new ChatError(404, 'ERR_UID_NOT_FOUND', `The UID ${uid} does not exist.`, { uid });

export const guidNotFound = (guid: string): ChatError =>
  new ChatError(404, 'ERR_GUID_NOT_FOUND', `The GUID ${guid} does not exist.`, { guid });

export const conversationNotFound = (conversationId: string): ChatError =>
  new ChatError(404, 'ERR_CONVERSATION_NOT_FOUND', `The conversation ${conversationId} does not exist.`, {
    conversationId,
  });

export const messageNotFound = (id: string): ChatError =>
  new ChatError(404, 'ERR_MESSAGE_ID_NOT_FOUND', `The message with id ${id} does not exist.`, { id });

export const notAMember = (uid: string, guid: string): ChatError =>
  new ChatError(403, 'ERR_NOT_A_MEMBER', `The user ${uid} is not a member of the group ${guid}.`, {
    uid,
    guid,
  });
