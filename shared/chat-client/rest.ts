import { joinUrl, type Fetch, type QueryValue } from '../http.js';
import { ChatClientError } from './client-error.js';

export type Credential = { authToken: string } | { apiKey: string };

export interface RestCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Base URL of the API, e.g. `http://localhost:4000/v3`. */
  base: string;
  path: string;
  credential?: Credential;
  query?: Record<string, QueryValue>;
  body?: unknown;
}

/** CometChat's success envelope: the SDK resolves on a `data` key whatever the HTTP status (§2.1). */
export interface Envelope<T> {
  data: T;
  meta?: Record<string, unknown>;
}

/** `/users/alice%40x/messages`: each segment encoded, so an id can never change the path. */
export function apiPath(...segments: string[]): string {
  return segments.map((segment) => `/${encodeURIComponent(segment)}`).join('');
}

/** The envelope of an answer, or the service's error it carries (any HTTP status: the SDK resolves on `data`). */
export function envelopeOf<T>(status: number, body: unknown): Envelope<T> {
  const data = (body as { data?: unknown } | null)?.data;
  if (data === undefined || data === null || typeof data !== 'object') throw errorFrom(status, body);
  return body as Envelope<T>;
}

function errorFrom(status: number, body: unknown): ChatClientError {
  const error = (body as { error?: unknown } | null)?.error;
  if (error !== null && typeof error === 'object') {
    const { code, message, details } = error as { code?: unknown; message?: unknown; details?: unknown };
    if (typeof code === 'string') {
      const info =
        details !== null && typeof details === 'object' ? (details as Record<string, unknown>) : {};
      return new ChatClientError(code, typeof message === 'string' ? message : code, status, info);
    }
  }
  return new ChatClientError(
    'ERR_BAD_RESPONSE',
    `chat service answered HTTP ${status} without a result`,
    status,
  );
}

/**
 * Sends one call of the client protocol with the headers the SDK sends (§2.1): `appId`, the session
 * id as `resource`, and the credential as `authToken` (client calls) or `apiKey` (admin calls).
 */
export class RestTransport {
  constructor(
    private readonly appId: string,
    private readonly sessionId: string,
    private readonly fetchImpl: Fetch,
  ) {}

  /** The protocol's headers of a call with `credential`. */
  headers(credential?: Credential): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      appid: this.appId,
      resource: this.sessionId,
    };
    if (credential && 'authToken' in credential) headers.authtoken = credential.authToken;
    if (credential && 'apiKey' in credential) headers.apikey = credential.apiKey;
    return headers;
  }

  async call<T>(call: RestCall): Promise<Envelope<T>> {
    const headers = this.headers(call.credential);
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetchImpl(joinUrl(call.base, call.path, call.query), {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new ChatClientError('ERR_NETWORK', `chat service unreachable: ${reason}`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      // A proxy's 502 page while the service restarts is an outage, worth retrying; anything else is not.
      throw new ChatClientError(
        response.status >= 500 ? 'ERR_NETWORK' : 'ERR_BAD_RESPONSE',
        `chat service answered HTTP ${response.status} with a body that is not JSON`,
        response.status,
      );
    }
    return envelopeOf<T>(response.status, body);
  }
}
