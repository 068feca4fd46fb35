import { describe, expect, it } from 'vitest';
import { spendFrame, type FrameBudget } from '../../server/realtime/frames.js';
import { normaliseReceiverType } from '../../shared/realtime.js';

describe('the frame budget of a socket', () => {
  it('lets the first frames of a second through and drops the rest of that second', () => {
    const budget: FrameBudget = { second: 0, spent: 0 };
    const passed = Array.from({ length: 5 }, () => spendFrame(budget, 10_000, 3));
    expect(passed).toEqual([true, true, true, false, false]);
  });

  it('starts afresh in the next second', () => {
    const budget: FrameBudget = { second: 0, spent: 0 };
    for (let index = 0; index < 4; index += 1) spendFrame(budget, 10_999, 3);
    expect(spendFrame(budget, 11_000, 3)).toBe(true);
  });
});

describe('receiver types of typing frames', () => {
  it('reads the SDK’s chat and groupchat as user and group, and refuses anything else', () => {
    expect(['user', 'chat', 'group', 'groupchat', 'room'].map(normaliseReceiverType)).toEqual([
      'user',
      'user',
      'group',
      'group',
      undefined,
    ]);
  });
});
