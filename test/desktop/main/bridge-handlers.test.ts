import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BRIDGE_CHANNELS } from '../../../desktop/bridge.js';
import { documentFilePath, registerBridgeHandlers } from '../../../desktop/main/bridge-handlers.js';
import type { IpcMain } from '../../../desktop/main/electron-api.js';

const dataDir = join('/home/ana/.config/Parley', 'data');

function ipcStandIn() {
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  const ipcMain: IpcMain = { handle: (channel, listener) => void handlers.set(channel, listener) };
  const invoke = (channel: string, ...args: unknown[]) => handlers.get(channel)?.({}, ...args);
  return { ipcMain, handlers, invoke };
}

describe('the bridge in the main process', () => {
  const calls: string[] = [];
  const services = {
    appInfo: () => ({
      name: 'Parley',
      version: '0.1.0',
      platform: 'linux',
      agentUrl: 'http://127.0.0.1:4111/api',
      dataDir,
    }),
    settings: async () => {
      throw new Error('not used');
    },
    saveSettings: async () => {
      throw new Error('not used');
    },
    chatConnection: async () => null,
    useLocalDemoChat: async () => {
      throw new Error('not used');
    },
    pickFolder: async () => '/home/ana/notes',
    revealFile: (path: string) => void calls.push(`reveal ${path}`),
    openExternal: async (url: string) => void calls.push(`open ${url}`),
  };

  it('answers on one channel per bridge method', () => {
    const { ipcMain, handlers } = ipcStandIn();
    registerBridgeHandlers(ipcMain, services, dataDir);
    expect([...handlers.keys()].sort()).toEqual(Object.values(BRIDGE_CHANNELS).sort());
  });

  it('checks what the page sends before acting on it', async () => {
    const { ipcMain, invoke } = ipcStandIn();
    registerBridgeHandlers(ipcMain, services, dataDir);
    await invoke(BRIDGE_CHANNELS.openExternal, 'https://example.com/');
    expect(() => invoke(BRIDGE_CHANNELS.openExternal, 'file:///etc/passwd')).toThrow(/only http and https/);
    invoke(BRIDGE_CHANNELS.revealFile, 'uploads/manuals/rotor.pdf');
    expect(calls).toEqual([
      'open https://example.com/',
      `reveal ${join(dataDir, 'uploads', 'manuals', 'rotor.pdf')}`,
    ]);
  });

  it('finds uploaded files in the upload folder and nowhere above it', () => {
    expect(documentFilePath('uploads/notes/a.md', dataDir)).toBe(join(dataDir, 'uploads', 'notes', 'a.md'));
    expect(documentFilePath('/home/ana/notes/a.md', dataDir)).toBe('/home/ana/notes/a.md');
    expect(() => documentFilePath('uploads/../../secrets.json', dataDir)).toThrow(/only uploaded files/);
    expect(() => documentFilePath('', dataDir)).toThrow(/non-empty string/);
  });
});
