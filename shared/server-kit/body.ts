import type { HonoRequest } from 'hono';
import { RequestProblem } from './problem.js';

/**
 * What an empty body means: `refuse` answers 400 (the agent's tools and answers always need an
 * input); `empty-object` reads it as `{}` (CometChat's API, where a POST such as joining a group
 * or a DELETE may carry no body and a schema decides whether that is enough).
 */
export type EmptyBody = 'refuse' | 'empty-object';

/** The parsed JSON body; a body that is not JSON is a 400 naming `body`. */
export async function readJson(c: { req: HonoRequest }, empty: EmptyBody): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') {
    if (empty === 'refuse') throw new RequestProblem(400, 'body: a JSON body is required', { field: 'body' });
    return {};
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RequestProblem(400, 'body: not valid JSON', { field: 'body' });
  }
}

/** Whether the request says its body is `multipart/form-data` (file uploads). */
export function isMultipart(c: { req: HonoRequest }): boolean {
  return (c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');
}

/** The `multipart/form-data` body (file uploads); a body that is not one is a 400 naming `body`. */
export async function readForm(c: { req: HonoRequest }): Promise<FormData> {
  try {
    return await c.req.raw.formData();
  } catch {
    throw new RequestProblem(400, 'body: not valid multipart form data', { field: 'body' });
  }
}
