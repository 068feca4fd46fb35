import type { Context, Env, MiddlewareHandler } from 'hono';
import pino, { destination, type DestinationStream, type Logger as PinoLogger } from 'pino';

/**
 * Structured logs: one JSON line per event, `{level, time, event, …fields}`, on standard error.
 * Callers pass identifiers and counts, never keys, tokens or message bodies.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

/**
 * Standard error, written asynchronously: a line costs the request an append to a buffer, and the
 * lines logged while a write is under way leave together in the next one (a synchronous write per
 * line was a tenth of a message send's CPU time). What is buffered is flushed when the process exits.
 */
let standardError: DestinationStream | undefined;
const stderrDestination = (): DestinationStream => (standardError ??= destination({ dest: 2, sync: false }));

/** pino, configured for our one line format: ISO time, the level's name, the event as `event`. */
function lineLogger(destination: DestinationStream): PinoLogger {
  return pino(
    {
      base: null,
      messageKey: 'event',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** A logger writing to standard error, or handing each line (with its newline) to `write`. */
export function createLogger(write?: (line: string) => void): Logger {
  const lines = lineLogger(write === undefined ? stderrDestination() : { write });
  return {
    info: (event, fields) => lines.info(fields, event),
    warn: (event, fields) => lines.warn(fields, event),
    error: (event, fields) => lines.error(fields, event),
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
