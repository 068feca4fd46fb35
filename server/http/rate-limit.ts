import type { MiddlewareHandler } from 'hono';
import { limitRequests, perMinuteInMemory, perMinuteInRedis } from '../../shared/server-kit/index.js';
import { ChatError } from '../errors.js';
import type { ChatEnv } from './context.js';

/** Requests per minute per app, as CometChat documents them; `false` turns limiting off. */
export interface RateLimits {
  corePerMinute: number;
  standardPerMinute: number;
}

/** Where several processes keep their common counts: Redis, under the deployment's key prefix. */
export interface SharedRateLimitStore {
  redis: unknown;
  prefix: string;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { corePerMinute: 10_000, standardPerMinute: 20_000 };

/** CometChat's core operations: creating and deleting users, creating and joining groups. */
function isCoreOperation(method: string, path: string): boolean {
  if (method === 'POST' && /\/v3\/(users|groups)\/?$/.test(path)) return true;
  if (method === 'DELETE' && /\/v3\/users\/[^/]+\/?$/.test(path)) return true;
  return method === 'POST' && /\/v3\/groups\/[^/]+\/members\/?$/.test(path);
}

/**
 * Counts each app's requests per minute and answers ERR_TOO_MANY_REQUESTS (429) past the limit.
 * With a shared store the count is the app's across every process, as behind a load balancer.
 */
export function rateLimit(limits: RateLimits, shared?: SharedRateLimitStore): MiddlewareHandler<ChatEnv> {
  const limitOf = (perMinute: number, name: string) =>
    shared === undefined
      ? perMinuteInMemory(perMinute, name)
      : perMinuteInRedis(perMinute, `${shared.prefix}ratelimit:${name}`, shared.redis);
  const core = limitOf(limits.corePerMinute, 'core');
  const standard = limitOf(limits.standardPerMinute, 'standard');
  return limitRequests<ChatEnv>({
    limitFor: (c) => (isCoreOperation(c.req.method, c.req.path) ? core : standard),
    keyOf: (c) => c.get('actor').app.appId,
    refusal: ({ limit, retryAfter }) =>
      new ChatError(
        429,
        'ERR_TOO_MANY_REQUESTS',
        `Rate limit of ${limit} requests per minute reached; retry in ${retryAfter}s.`,
        { limit, retryAfter },
      ),
  });
}
