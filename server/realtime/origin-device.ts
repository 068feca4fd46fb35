import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The SDK session (device) a request came from, kept for the duration of the request. The realtime
 * fan-out stamps frames of what that request caused with it, so the SDK that sent a message does
 * not receive it back as someone else's (its echo suppression compares `deviceId`).
 */
const originDevice = new AsyncLocalStorage<string>();

export function withOriginDevice<T>(deviceId: string | undefined, run: () => T): T {
  return deviceId === undefined || deviceId === '' ? run() : originDevice.run(deviceId, run);
}

export const currentOriginDevice = (): string | undefined => originDevice.getStore();

/** Runs work that no request's device caused (the agent bridge's answers), so no frame of it is stamped as an echo. */
export const outsideOriginDevice = <T>(run: () => T): T => originDevice.exit(run);
