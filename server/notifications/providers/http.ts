import { failureOf, retryable, type SendOutcome } from './provider.js';

/**
 * One JSON/form call to a hosted provider's API: the answer's status and JSON (when it has one),
 * or why it failed. Redirects are not followed; the URL and body never reach an error message.
 */
export async function callApi(
  url: string,
  init: { headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<{ status: number; json: unknown } | { failure: string }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { 'user-agent': 'parley-notifications', ...init.headers },
      body: init.body,
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json };
  } catch (error) {
    return { failure: failureOf(error, timeoutMs) };
  }
}

/** A non-2xx answer as an outcome: retried when repeating may help. */
export const refusedBy = (service: string, status: number, detail?: string): SendOutcome => ({
  ok: false,
  retry: retryable(status),
  error: `${service} answered HTTP ${status}${detail === undefined ? '' : ` (${detail})`}`,
});
