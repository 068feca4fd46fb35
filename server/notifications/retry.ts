/** When failed webhook calls are tried again, and when they are given up on. */
export interface RetryPolicy {
  /** Attempts in all, the first included; after the last failure the delivery is dead-lettered. */
  maxAttempts: number;
  /** Delay after the first failure; each further failure doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 10,
  baseDelayMs: 5_000,
  maxDelayMs: 3_600_000,
};

/**
 * The wait before attempt `failedAttempts + 1`: exponential, with "equal jitter" (half fixed, half
 * random) so receivers coming back up are not hit by every retry at the same instant.
 */
export function retryDelay(policy: RetryPolicy, failedAttempts: number, random: () => number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failedAttempts - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}
