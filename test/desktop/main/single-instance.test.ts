import { describe, expect, it } from 'vitest';
import type { ElectronApp } from '../../../desktop/main/electron-api.js';
import { claimSingleInstance } from '../../../desktop/main/single-instance.js';

/** Electron's `app` as far as the single-instance logic uses it. */
function appStandIn(lockGranted: boolean) {
  const listeners = new Map<string, () => void>();
  let quit = false;
  const app = {
    requestSingleInstanceLock: () => lockGranted,
    quit: () => {
      quit = true;
    },
    on: (event: string, listener: () => void) => listeners.set(event, listener),
  } as unknown as ElectronApp;
  return { app, listeners, quitCalled: () => quit };
}

describe('single instance', () => {
  it('runs the first instance and shows its window when a second one starts', () => {
    const { app, listeners, quitCalled } = appStandIn(true);
    let shown = 0;
    expect(claimSingleInstance(app, () => (shown += 1))).toBe(true);
    listeners.get('second-instance')?.();
    expect(shown).toBe(1);
    expect(quitCalled()).toBe(false);
  });

  it('quits a second instance, which leaves the first one to show itself', () => {
    const { app, listeners, quitCalled } = appStandIn(false);
    expect(claimSingleInstance(app, () => undefined)).toBe(false);
    expect(quitCalled()).toBe(true);
    expect(listeners.size).toBe(0);
  });
});
