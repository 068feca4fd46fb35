import { describe, expect, it } from 'vitest';
import { retryDelay, type RetryPolicy } from '../../../server/notifications/retry.js';

const POLICY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 1_000, maxDelayMs: 30_000 };

describe('retry delays', () => {
  const cases = [
    { failed: 1, low: 500, high: 1_000 },
    { failed: 2, low: 1_000, high: 2_000 },
    { failed: 3, low: 2_000, high: 4_000 },
    { failed: 5, low: 8_000, high: 16_000 },
    { failed: 6, low: 15_000, high: 30_000 },
    { failed: 20, low: 15_000, high: 30_000 },
  ];

  it.each(cases)('after $failed failures waits between $low and $high ms', ({ failed, low, high }) => {
    expect(retryDelay(POLICY, failed, () => 0)).toBe(low);
    expect(retryDelay(POLICY, failed, () => 0.999_999)).toBe(high);
  });

  it('spreads retries by jitter', () => {
    const delays = new Set([0.1, 0.4, 0.7].map((r) => retryDelay(POLICY, 3, () => r)));
    expect(delays.size).toBe(3);
  });
});
