import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook calls carry `X-Parley-Signature: t=<epoch seconds>,v1=<hex HMAC-SHA256>` computed with
 * the webhook's secret over `<t>.<raw body>`. Receivers recompute it to know the call came from
 * this service, and check `t` to refuse replays of an old call.
 */
export const SIGNATURE_HEADER = 'x-parley-signature';
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** How far a signature's time may be from the receiver's clock by default. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function digest(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export function signWebhookBody(secret: string, body: string, timestampSeconds: number): string {
  return `t=${timestampSeconds},v1=${digest(secret, timestampSeconds, body)}`;
}

/** Whether `header` is a valid signature of `body` with `secret`, made within the tolerance of `nowSeconds`. */
export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string | null | undefined,
  nowSeconds: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  if (header === null || header === undefined) return false;
  const parts = new Map(
    header.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get('t'));
  const signature = parts.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(digest(secret, timestamp, body), 'hex');
  const given = Buffer.from(/^[0-9a-f]+$/i.test(signature) ? signature : '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
