import { describe, expect, it } from 'vitest';
import { reconnectDelay } from '../../../shared/chat-client/index.js';

const options = { initialDelayMs: 500, maxDelayMs: 10_000 };

describe('reconnect delay', () => {
  it('doubles with each failed attempt', () => {
    const ceiling = (attempt: number) => reconnectDelay(attempt, options, () => 1);
    expect([0, 1, 2, 3].map(ceiling)).toEqual([500, 1000, 2000, 4000]);
  });

  it('never exceeds the maximum', () => {
    expect(reconnectDelay(50, options, () => 1)).toBe(10_000);
  });

  it('waits at least half of the ceiling, so clients cut off together spread out', () => {
    expect(reconnectDelay(2, options, () => 0)).toBe(1000);
  });
});
