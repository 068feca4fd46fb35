import type { ElectronApp } from './electron-api.js';

/**
 * Keeps one app per user: a second start hands over to the first (which shows its window) and
 * quits. Returns whether this process is the one that runs.
 */
export function claimSingleInstance(app: ElectronApp, showExistingWindow: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', showExistingWindow);
  return true;
}
