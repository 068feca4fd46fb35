import { isIP } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';

/** Host names that always name this machine; `*.localhost` too, which browsers resolve to loopback themselves. */
const LOCAL_HOST_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The host name of a `Host` header, lower case and without its port; IPv6 keeps its brackets. */
function hostName(host: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]/\s]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match?.[1]?.toLowerCase().replace(/\.$/, '');
}

/**
 * Whether a host name may be served: this machine's names, an IP address (DNS rebinding needs a
 * name the attacker controls, so an address cannot carry it), or a configured name.
 */
export function isServedHost(name: string, allowedHosts: ReadonlySet<string>): boolean {
  return (
    LOCAL_HOST_NAMES.has(name) ||
    name.endsWith('.localhost') ||
    isIP(name.replace(/^\[|\]$/g, '')) !== 0 ||
    allowedHosts.has(name)
  );
}

const refuse = (c: Context, message: string) => c.json({ error: message }, 403);

/**
 * Serves only requests whose `Host` names this machine (or a configured name): a web page that
 * points its own host name at 127.0.0.1 (DNS rebinding) is refused on every route.
 */
export function serveOnlyThisMachine(allowedHosts: readonly string[]): MiddlewareHandler {
  const allowed = new Set(allowedHosts.map((host) => hostName(host) ?? host.toLowerCase()));
  return async (c, next) => {
    // Browsers always send Host; a request made in-process (`app.request`) has only its URL.
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    const name = hostName(host);
    if (name === undefined || !isServedHost(name, allowed)) {
      return refuse(
        c,
        `host "${host.slice(0, 100)}" is not served: this agent answers localhost, 127.0.0.1, [::1] ` +
          'and the names in AGENT_ALLOWED_HOSTS',
      );
    }
    await next();
  };
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ACCEPTED_BODY = /^(application\/json|multipart\/form-data)\s*(;|$)/i;

const hasBody = (c: Context): boolean =>
  c.req.header('transfer-encoding') !== undefined || Number(c.req.header('content-length') ?? 0) > 0;

/**
 * Writes (POST, PUT, PATCH, DELETE) only from this agent's own pages, the configured origins, or
 * servers: a request with an `Origin` must come from this agent's origin or one in `CORS_ORIGINS`;
 * one without must not be a browser's cross-site request. A body must be JSON or multipart, types a
 * page can send to another site only after a CORS preflight, or with an `Origin` that is checked.
 */
export function acceptWritesFromOwnPagesAndServers(corsOrigins: readonly string[]): MiddlewareHandler {
  const listed = new Set(corsOrigins.map((origin) => origin.replace(/\/+$/, '')));
  return async (c, next) => {
    if (!STATE_CHANGING.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      if (origin !== new URL(c.req.url).origin && !listed.has(origin)) {
        return refuse(
          c,
          `${c.req.method} from origin "${origin.slice(0, 200)}" refused: only this agent's own pages ` +
            'and the origins in CORS_ORIGINS may change it',
        );
      }
    } else {
      // Only browsers send Sec-Fetch-Site (pages cannot set it; Node's fetch sends Sec-Fetch-Mode only).
      const site = c.req.header('sec-fetch-site');
      if (site !== undefined && site !== 'same-origin') {
        return refuse(
          c,
          `${c.req.method} refused: a browser request from another site (Sec-Fetch-Site: ${site.slice(0, 40)})`,
        );
      }
    }
    const type = c.req.header('content-type');
    if (hasBody(c) && !ACCEPTED_BODY.test(type ?? '')) {
      return c.json(
        {
          error: `Content-Type "${(type ?? 'none').slice(0, 100)}" refused: send application/json or multipart/form-data`,
        },
        415,
      );
    }
    await next();
  };
}
