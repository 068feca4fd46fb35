import type { OutboxDelivery } from './outbox.js';
import { IDEMPOTENCY_HEADER, SIGNATURE_HEADER, signWebhookBody } from './signature.js';
import type { Webhook } from './webhooks.js';

/**
 * One attempt at one webhook call: POST the stored body, signed, with its idempotency key (the same
 * on every attempt, so receivers can drop repeats). Only a 2xx answer within the timeout counts as
 * delivered; redirects are not followed. The outcome names what went wrong, never the URL or body.
 */

export const ATTEMPT_HEADER = 'x-parley-delivery-attempt';

/** Undefined when delivered; otherwise why not, for the outbox's `last_error`. */
export type AttemptOutcome = string | undefined;

export function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `timed out after ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return `connection failed: ${cause.code}`;
  return 'request failed';
}

export async function postWebhook(
  webhook: Webhook,
  delivery: OutboxDelivery,
  attempt: number,
  nowSeconds: number,
  timeoutMs: number,
): Promise<AttemptOutcome> {
  try {
    const response = await fetch(webhook.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'parley-notifications',
        [IDEMPOTENCY_HEADER]: delivery.idempotencyKey,
        [SIGNATURE_HEADER]: signWebhookBody(webhook.secret, delivery.body, nowSeconds),
        [ATTEMPT_HEADER]: String(attempt),
      },
      body: delivery.body,
    });
    await response.body?.cancel();
    return response.status >= 200 && response.status < 300 ? undefined : `HTTP ${response.status}`;
  } catch (error) {
    return failureOf(error, timeoutMs);
  }
}
