import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { issuePath } from '../../shared/errors.js';
import { NoQuestionError } from '../agent/answer.js';
import { KnowledgeError } from '../store/errors.js';
import { sanitizeMessage } from './sanitize.js';

/** A request the server refuses, with the status and a message naming what is wrong. */
export class RequestProblem extends Error {
  override readonly name = 'RequestProblem';
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
  ) {
    super(message);
  }
}

const KNOWLEDGE_STATUS: Record<KnowledgeError['kind'], ContentfulStatusCode> = {
  invalid: 400,
  busy: 409,
  'not-found': 404,
};

/** Validates a body against its schema; the error names the first field at fault. */
export function parseWith<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new RequestProblem(400, `${issuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid input'}`);
}

export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') throw new RequestProblem(400, 'body: a JSON body is required');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RequestProblem(400, 'body: not valid JSON');
  }
}

export interface ErrorReply {
  status: ContentfulStatusCode;
  message: string;
}

/**
 * What an error becomes on the wire: refusals keep their status and message, everything else is a
 * 500 whose message is sanitized (no stack, no path, no environment value, no secret).
 */
export function errorReply(error: unknown, secrets: readonly string[]): ErrorReply {
  if (error instanceof RequestProblem)
    return { status: error.status, message: sanitizeMessage(error.message, secrets) };
  if (error instanceof KnowledgeError) {
    return { status: KNOWLEDGE_STATUS[error.kind], message: sanitizeMessage(error.message, secrets) };
  }
  if (error instanceof NoQuestionError) return { status: 400, message: error.message };
  if (error instanceof HTTPException && error.status < 500) {
    return {
      status: error.status as ContentfulStatusCode,
      message: sanitizeMessage(error.message || 'bad request', secrets),
    };
  }
  const message = error instanceof Error ? sanitizeMessage(error.message, secrets) : '';
  return { status: 500, message: message || 'internal error' };
}
