import type { Context, Env, MiddlewareHandler } from 'hono';

/**
 * Structured logs: one JSON line per event, `{time, level, event, …fields}`, on standard error.
 * Callers pass identifiers and counts, never keys, tokens or message bodies.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

type Level = 'info' | 'warn' | 'error';

export function createLogger(write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const emit = (level: Level, event: string, fields: LogFields = {}): void => {
    write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`);
  };
  return {
    info: (event, fields) => emit('info', event, fields),
    warn: (event, fields) => emit('warn', event, fields),
    error: (event, fields) => emit('error', event, fields),
  };
}

/** For tests and embedders that want a server quiet. */
export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * One `request` line per answered request: method, route pattern (not the path, which can carry
 * tokens or names), status and milliseconds, plus what `fields` adds (the chat service's app id).
 */
export function requestLines<E extends Env>(
  logger: Logger,
  fields: (c: Context<E>) => LogFields = () => ({}),
): MiddlewareHandler<E> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    logger.info('request', {
      method: c.req.method,
      route: c.req.routePath,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ...fields(c),
    });
  };
}
