import type { HonoRequest } from 'hono';
import type { z } from 'zod';
import { parseWith, readJson } from '../../shared/server-kit/index.js';
import { badRequest } from '../errors.js';
import { EntityId } from '../validation.js';

/** What reading a request needs; the server API and the client API contexts both have it. */
interface WithRequest {
  req: HonoRequest;
}

/**
 * The JSON body validated by `schema`. As in CometChat's API, a missing body counts as `{}`: the
 * schema decides whether that is enough (joining a group needs nothing, a message needs fields).
 */
export async function jsonBody<T extends z.ZodType>(c: WithRequest, schema: T): Promise<z.output<T>> {
  return parseWith(schema, await readJson(c, 'empty-object'));
}

/** Query parameters validated by `schema`; repeated keys arrive as arrays. */
export function queryOf<T extends z.ZodType>(c: WithRequest, schema: T): z.output<T> {
  const raw: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(c.req.queries())) {
    raw[key] = values.length === 1 && values[0] !== undefined ? values[0] : values;
  }
  return parseWith(schema, raw);
}

/** A UID or GUID from the path, validated and lower-cased. */
export function pathId(c: WithRequest, name: string): string {
  const parsed = EntityId.safeParse(c.req.param(name));
  if (!parsed.success) throw badRequest(name, parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data;
}
