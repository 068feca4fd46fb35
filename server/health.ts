import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { ChatEnv } from './http/context.js';

/** A dependency the service cannot answer without, and how to tell it answers. */
export type ReadinessChecks = Record<string, () => Promise<unknown>>;

/** A check that has not answered by then counts as failed: a balancer must not wait on it. */
const CHECK_TIMEOUT_MS = 2_000;

async function passes(check: () => Promise<unknown>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>(
    (resolve) => (timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS)),
  );
  try {
    return await Promise.race([check().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /readyz` for a load balancer: 200 when every dependency (the database, Redis when configured)
 * answers, 503 naming the ones that do not. `/healthz` (liveness) only says the process serves HTTP.
 */
export function readinessRoute(checks: ReadinessChecks): (app: OpenAPIHono<ChatEnv>) => void {
  const Readiness = z.object({
    status: z.enum(['ok', 'unavailable']),
    checks: z.record(z.string(), z.enum(['ok', 'unavailable'])),
  });
  const readiness = createRoute({
    method: 'get',
    path: '/readyz',
    summary: 'Readiness for a load balancer (no authentication)',
    responses: {
      200: {
        description: 'Every dependency answers.',
        content: { 'application/json': { schema: Readiness } },
      },
      503: {
        description: 'A dependency does not answer.',
        content: { 'application/json': { schema: Readiness } },
      },
    },
  });
  return (app) => {
    app.openapi(readiness, async (c) => {
      const names = Object.keys(checks);
      const results = await Promise.all(names.map((name) => passes(checks[name]!)));
      const status: Record<string, 'ok' | 'unavailable'> = Object.fromEntries(
        names.map((name, i) => [name, results[i] ? 'ok' : 'unavailable']),
      );
      const ready = results.every(Boolean);
      return ready
        ? c.json({ status: 'ok' as const, checks: status }, 200)
        : c.json({ status: 'unavailable' as const, checks: status }, 503);
    });
  };
}
