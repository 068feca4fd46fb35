import type { Hono } from 'hono';
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
export function readinessRoute(checks: ReadinessChecks): (app: Hono<ChatEnv>) => void {
  return (app) => {
    app.get('/readyz', async (c) => {
      const names = Object.keys(checks);
      const results = await Promise.all(names.map((name) => passes(checks[name]!)));
      const status = Object.fromEntries(names.map((name, i) => [name, results[i] ? 'ok' : 'unavailable']));
      const ready = results.every(Boolean);
      return c.json({ status: ready ? 'ok' : 'unavailable', checks: status }, ready ? 200 : 503);
    });
  };
}
