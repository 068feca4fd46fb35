import { isAbsolute, join, normalize, sep } from 'node:path';
import type { ChatConnection } from '../../shared/chat-connection.js';
import { BRIDGE_CHANNELS, type AppInfo, type DesktopBridge, type SettingsView } from '../bridge.js';
import type { IpcMain } from './electron-api.js';
import { externalUrl } from './window.js';

/** What the bridge's calls do in this process. */
export interface BridgeServices {
  appInfo(): AppInfo;
  settings(): Promise<SettingsView>;
  saveSettings(change: unknown): Promise<SettingsView>;
  chatConnection(): Promise<ChatConnection | null>;
  useLocalDemoChat(): Promise<SettingsView>;
  pickFolder(): Promise<string | null>;
  revealFile(path: string): void;
  openExternal(url: string): Promise<void>;
}

/**
 * The file a document path names: an absolute path as is, an upload (`uploads/<namespace>/<file>`)
 * inside the data dir's upload folder. Anything else is refused.
 */
export function documentFilePath(value: unknown, dataDir: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError('the path must be a non-empty string');
  if (isAbsolute(value)) return normalize(value);
  const uploads = join(dataDir, 'uploads');
  const path = normalize(join(dataDir, value));
  if (!path.startsWith(uploads + sep))
    throw new TypeError('only uploaded files and absolute paths can be shown');
  return path;
}

/**
 * Answers the window's bridge calls. Every argument comes from the page, so each is checked here
 * before it reaches the services.
 */
export function registerBridgeHandlers(ipcMain: IpcMain, services: BridgeServices, dataDir: string): void {
  const handlers: { [K in keyof DesktopBridge]: (...args: unknown[]) => unknown } = {
    appInfo: () => services.appInfo(),
    settings: () => services.settings(),
    saveSettings: (change) => services.saveSettings(change),
    chatConnection: () => services.chatConnection(),
    useLocalDemoChat: () => services.useLocalDemoChat(),
    pickFolder: () => services.pickFolder(),
    revealFile: (path) => services.revealFile(documentFilePath(path, dataDir)),
    openExternal: (url) => services.openExternal(externalUrl(url)),
  };
  for (const [method, handler] of Object.entries(handlers)) {
    ipcMain.handle(BRIDGE_CHANNELS[method as keyof DesktopBridge], (_event, ...args) => handler(...args));
  }
}
