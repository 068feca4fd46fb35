import type { HonoRequest } from 'hono';
import type { z } from 'zod';
import { zodErrorToEnvelope } from '../../shared/errors.js';
import { ChatError, badRequest } from '../errors.js';
import { EntityId } from '../validation.js';

/** What reading a request needs; the server API and the client API contexts both have it. */
interface WithRequest {
  req: HonoRequest;
}

function invalid(error: z.ZodError, prefix?: string): ChatError {
  const envelope = zodErrorToEnvelope(error);
  const message = prefix === undefined ? envelope.error.message : `${prefix}.${envelope.error.message}`;
  return new ChatError(400, envelope.error.code, message, envelope.error.details);
}

/** The JSON body validated by `schema`; a missing body counts as `{}` for schemas that allow it. */
export async function jsonBody<T extends z.ZodType>(c: WithRequest, schema: T): Promise<z.output<T>> {
  const text = await c.req.text();
  let body: unknown = {};
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw badRequest('body', 'not valid JSON');
    }
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data;
}

/** Query parameters validated by `schema`; repeated keys arrive as arrays. */
export function queryOf<T extends z.ZodType>(c: WithRequest, schema: T): z.output<T> {
  const raw: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(c.req.queries())) {
    raw[key] = values.length === 1 && values[0] !== undefined ? values[0] : values;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data;
}

/** A UID or GUID from the path, validated and lower-cased. */
export function pathId(c: WithRequest, name: string): string {
  const parsed = EntityId.safeParse(c.req.param(name));
  if (!parsed.success) throw badRequest(name, parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data;
}
