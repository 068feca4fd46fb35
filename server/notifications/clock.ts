/** Epoch milliseconds. Tests pass a clock they move by hand, so schedules and throttles are exact. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
