/**
 * The preload script: the only code that sees both the page and Electron. It exposes the typed
 * bridge, one IPC call per method, and nothing else. It runs sandboxed, bundled as CommonJS.
 */
import { BRIDGE_CHANNELS, type DesktopBridge } from '../bridge.js';

interface PreloadElectron {
  contextBridge: { exposeInMainWorld(key: string, api: unknown): void };
  ipcRenderer: { invoke(channel: string, ...args: unknown[]): Promise<unknown> };
}

// A sandboxed preload script loads Electron's own modules with its `require`; typed above, so the
// project type-checks without the optional package, and called through a name so the per-file
// ESM build of desktop/ does not flag it (only the CommonJS bundle runs).
const loadElectron = require as (id: 'electron') => PreloadElectron;
const { contextBridge, ipcRenderer } = loadElectron('electron');

const call =
  <T>(channel: string) =>
  (...args: unknown[]): Promise<T> =>
    ipcRenderer.invoke(channel, ...args) as Promise<T>;

const bridge: DesktopBridge = {
  appInfo: call(BRIDGE_CHANNELS.appInfo),
  settings: call(BRIDGE_CHANNELS.settings),
  saveSettings: call(BRIDGE_CHANNELS.saveSettings),
  chatConnection: call(BRIDGE_CHANNELS.chatConnection),
  useLocalDemoChat: call(BRIDGE_CHANNELS.useLocalDemoChat),
  pickFolder: call(BRIDGE_CHANNELS.pickFolder),
  revealFile: call(BRIDGE_CHANNELS.revealFile),
  openExternal: call(BRIDGE_CHANNELS.openExternal),
};

contextBridge.exposeInMainWorld('parleyDesktop', bridge);
