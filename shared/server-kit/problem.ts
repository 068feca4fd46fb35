import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { zodErrorToEnvelope } from '../errors.js';

/**
 * A request a server refuses: the status and a message naming what is wrong. Each server renders
 * it in its own envelope (the chat service's `{"error": {code, message, details}}`, the agent's
 * `{"error": "<message>"}`).
 */
export class RequestProblem extends Error {
  override name = 'RequestProblem';
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A zod failure as a 400 naming the first field at fault (`data.text: …`); `details.fields` lists them all. */
export function invalidInput(error: z.ZodError): RequestProblem {
  const { message, details } = zodErrorToEnvelope(error).error;
  return new RequestProblem(400, message, details);
}

/** A value validated by `schema`, or a 400 naming the first field at fault. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidInput(parsed.error);
  return parsed.data;
}

/**
 * What an error thrown by a handler or middleware refuses, if it is a refusal: a `RequestProblem`
 * as it is, or one of Hono's own 4xx exceptions (a body over the limit, malformed input). Anything
 * else is a failure of the server, which each server logs and answers as a 500 without details.
 */
export function refusalOf(error: unknown): RequestProblem | undefined {
  if (error instanceof RequestProblem) return error;
  if (error instanceof HTTPException && error.status < 500) {
    return new RequestProblem(error.status as ContentfulStatusCode, error.message || 'bad request');
  }
  return undefined;
}
