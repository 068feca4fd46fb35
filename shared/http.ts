import type { z } from 'zod';

/** What a typed client needs from `fetch`; injectable so browsers, Node and tests share one code path. */
export type Fetch = typeof globalThis.fetch;

export type QueryValue = string | number | boolean | undefined | ReadonlyArray<string | number>;

export interface JsonRequest<T> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string | undefined>;
  /** Validates the parsed response body; a mismatch is an error of the server, not of the caller. */
  schema: z.ZodType<T>;
}

export function joinUrl(base: string, path: string, query?: Record<string, QueryValue>): string {
  const url = new URL(base.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
    else url.searchParams.set(key, String(value));
  }
  return url.toString();
}

/**
 * Sends one JSON request and returns the validated body. Non-2xx answers are handed to
 * `toError`, which turns the service's error body into the client's typed error.
 */
export async function requestJson<T>(
  fetchImpl: Fetch,
  baseUrl: string,
  request: JsonRequest<T>,
  toError: (status: number, body: unknown) => Error,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [name, value] of Object.entries(request.headers ?? {}))
    if (value !== undefined) headers[name] = value;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetchImpl(joinUrl(baseUrl, request.path, request.query), {
    method: request.method,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const text = await response.text();
  let body: unknown = undefined;
  if (text.length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (!response.ok) throw toError(response.status, body);
  const parsed = request.schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'body';
    throw new TypeError(
      `unexpected response from ${request.method} ${request.path}: ${where}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}
