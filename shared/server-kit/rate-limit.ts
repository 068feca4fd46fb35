import type { Context, Env, MiddlewareHandler } from 'hono';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/** A count of requests per minute: rate-limiter-flexible's limiter (in memory; a Redis one joins processes). */
export interface PerMinuteLimit {
  perMinute: number;
  limiter: RateLimiterAbstract;
}

export function perMinuteInMemory(perMinute: number, keyPrefix: string): PerMinuteLimit {
  return { perMinute, limiter: new RateLimiterMemory({ keyPrefix, points: perMinute, duration: 60 }) };
}

/**
 * A count shared by every process given the same Redis client's server and prefix. While Redis
 * cannot be reached each process counts alone in memory (rate-limiter-flexible's insurance
 * limiter), so a Redis outage never refuses or fails requests by itself.
 */
export function perMinuteInRedis(perMinute: number, keyPrefix: string, storeClient: unknown): PerMinuteLimit {
  return {
    perMinute,
    limiter: new RateLimiterRedis({
      storeClient,
      keyPrefix,
      points: perMinute,
      duration: 60,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points: perMinute, duration: 60 }),
    }),
  };
}

export interface Refused {
  limit: number;
  /** Whole seconds until the caller may try again (also sent as `Retry-After`). */
  retryAfter: number;
}

export interface LimitRequestsOptions<E extends Env> {
  /** The limit this request counts against. */
  limitFor: (c: Context<E>) => PerMinuteLimit;
  /** Whose requests are counted together (an app, a client address). */
  keyOf: (c: Context<E>) => string;
  /** The error thrown past the limit; the server's error handler renders it (429). */
  refusal: (refused: Refused) => Error;
}

/**
 * Counts each request and refuses it past the limit with `Retry-After` and the draft-6
 * `RateLimit-*` headers. Answers within the limit get no header: set before the handler, a header
 * costs every response of the chat service's hot path a Headers object.
 */
export function limitRequests<E extends Env>(options: LimitRequestsOptions<E>): MiddlewareHandler<E> {
  return async (c, next) => {
    const { perMinute, limiter } = options.limitFor(c);
    try {
      await limiter.consume(options.keyOf(c));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      c.header('Retry-After', String(retryAfter));
      c.header('RateLimit-Limit', String(perMinute));
      c.header('RateLimit-Remaining', '0');
      c.header('RateLimit-Reset', String(retryAfter));
      throw options.refusal({ limit: perMinute, retryAfter });
    }
    await next();
  };
}
