import { createHash, timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { limitRequests, perMinuteInMemory, RequestProblem } from '../../shared/server-kit/index.js';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Compares digests so the time taken says nothing about how much of the key was right. */
function sameKey(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

function presentedKey(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const bearer = header?.match(/^Bearer\s+(.+)$/i)?.[1];
  return bearer?.trim() ?? c.req.header('x-api-key')?.trim();
}

/** With a key configured, a request must carry it as a bearer token or in `x-api-key`. */
export function requireApiKey(apiKey: string): MiddlewareHandler {
  return async (c, next) => {
    const given = presentedKey(c);
    if (given === undefined || !sameKey(given, apiKey)) {
      return c.json(
        { error: 'missing or wrong API key: send Authorization: Bearer <key> or x-api-key' },
        401,
        {
          'WWW-Authenticate': 'Bearer',
        },
      );
    }
    await next();
  };
}

/**
 * CORS for the configured origins only. The agent's own pages are same-origin and need none; other
 * origins get no CORS headers, so browsers keep their pages from reading the answers.
 */
export function corsFor(origins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(origins.map((origin) => origin.replace(/\/+$/, '')));
  const withOrigin = cors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    allowHeaders: ['Content-Type', 'Authorization', 'x-api-key'],
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    maxAge: 600,
  });
  return (c, next) => {
    if (c.req.header('origin') !== undefined) return withOrigin(c, next);
    // Without an Origin there is nothing to allow, only `Vary: Origin` to send. Set before the
    // handler, it joins the response as it is built; Hono's cors appends it afterwards, which turns
    // the finished response into a web stream that is then copied out chunk by chunk.
    c.header('Vary', 'Origin', { append: true });
    return next();
  };
}

/** The client's address as the socket sees it (forwarded-for headers are not trusted). */
function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** At most `perMinute` requests per client IP in a one-minute window; then 429 with Retry-After. */
export function rateLimit(perMinute: number): MiddlewareHandler {
  const limit = perMinuteInMemory(perMinute, 'agent');
  return limitRequests({
    limitFor: () => limit,
    keyOf: clientAddress,
    refusal: () =>
      new RequestProblem(
        429,
        `too many requests: at most ${perMinute} per minute, retry after the time in Retry-After`,
      ),
  });
}

const describeBytes = (bytes: number): string =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;

/**
 * Refuses a body over `maxBytes` with 413. A declared Content-Length is checked from the header
 * (Node's parser never reads past it); a chunked body is counted as it is read by Hono's bodyLimit,
 * which needs the request as a web stream, so the common case is kept off that slower path.
 */
export function limitBody(maxBytes: number): MiddlewareHandler {
  const tooLarge = (c: Context) =>
    c.json({ error: `request body too large: the limit is ${describeBytes(maxBytes)}` }, 413);
  const counted = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async (c, next) => {
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) return counted(c, next);
    if (Number.parseInt(length, 10) > maxBytes) return tooLarge(c);
    await next();
  };
}
