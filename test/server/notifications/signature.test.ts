import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhookBody, verifyWebhookSignature } from '../../../server/notifications/signature.js';

const SECRET = 'whsec-0123456789abcdef';
const BODY = '{"id":"push:after_message:1:bob","data":{}}';
const NOW = 1_795_000_000;

describe('webhook signatures', () => {
  it('is HMAC-SHA256 with the secret over "<timestamp>.<body>", as a receiver computes it', () => {
    const expected = createHmac('sha256', SECRET).update(`${NOW}.${BODY}`).digest('hex');
    expect(signWebhookBody(SECRET, BODY, NOW)).toBe(`t=${NOW},v1=${expected}`);
  });

  it('verifies a signature made with the same secret', () => {
    expect(verifyWebhookSignature(SECRET, BODY, signWebhookBody(SECRET, BODY, NOW), NOW + 10)).toBe(true);
  });

  it('refuses another secret', () => {
    expect(
      verifyWebhookSignature('another-secret-value', BODY, signWebhookBody(SECRET, BODY, NOW), NOW),
    ).toBe(false);
  });

  it('refuses a changed body', () => {
    expect(verifyWebhookSignature(SECRET, `${BODY} `, signWebhookBody(SECRET, BODY, NOW), NOW)).toBe(false);
  });

  it('refuses a signature older than the tolerance (a replay)', () => {
    expect(verifyWebhookSignature(SECRET, BODY, signWebhookBody(SECRET, BODY, NOW), NOW + 301)).toBe(false);
  });

  it('refuses a timestamp changed after signing', () => {
    const forged = signWebhookBody(SECRET, BODY, NOW).replace(`t=${NOW}`, `t=${NOW + 5}`);
    expect(verifyWebhookSignature(SECRET, BODY, forged, NOW + 5)).toBe(false);
  });

  it.each([undefined, null, '', 'v1=abc', `t=${NOW}`, `t=${NOW},v1=zz`, `t=soon,v1=00`])(
    'refuses a malformed header %j',
    (header) => {
      expect(verifyWebhookSignature(SECRET, BODY, header, NOW)).toBe(false);
    },
  );
});
