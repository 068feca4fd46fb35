import type { DesktopBridge } from '../bridge.js';

declare global {
  interface Window {
    /** Set by the preload script when the window runs in the desktop app. */
    parleyDesktop?: DesktopBridge;
  }
}

export function desktopBridge(): DesktopBridge | undefined {
  return window.parleyDesktop;
}
