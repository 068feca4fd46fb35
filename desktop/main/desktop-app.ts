import type { AppInfo } from '../bridge.js';
import { AgentHost, type RunningAgent } from './agent-host.js';
import { trustChatCertificate } from './certificate-trust.js';
import { registerBridgeHandlers } from './bridge-handlers.js';
import { fetchDemoConnection } from './demo-connection.js';
import { DesktopSettingsService } from './desktop-settings.js';
import type { BrowserWindowInstance, ElectronModules, TrayInstance } from './electron-api.js';
import { desktopPaths } from './paths.js';
import { claimSingleInstance } from './single-instance.js';
import { trayStatusText, type AgentStatus } from './tray-status.js';
import { keepWindowOnApp, windowOptions } from './window.js';

export interface DesktopAssets {
  preloadPath: string;
  iconPath: string;
}

/**
 * The desktop app: one instance per user; the agent hosted in this process; a tray icon with its
 * status; the window loading the agent's own page; a quit that commits every namespace first.
 * Electron comes in as `electron`, so this composition is the only place that touches it.
 */
export async function runDesktopApp(electron: ElectronModules, assets: DesktopAssets): Promise<void> {
  const { app, BrowserWindow, Tray, Menu, nativeImage, ipcMain, dialog, shell, safeStorage } = electron;
  let window: BrowserWindowInstance | undefined;
  let running: RunningAgent | undefined;
  let quitting = false;

  const showWindow = () => {
    if (!window || window.isDestroyed()) {
      openWindow();
      return;
    }
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };
  if (!claimSingleInstance(app, showWindow)) return;
  await app.whenReady();

  const paths = desktopPaths(app.getPath('userData'));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const settings = await DesktopSettingsService.open(paths, safeStorage);
  if (settings.problem) log(JSON.stringify({ event: 'settings.reset', problem: settings.problem }));

  const tray: TrayInstance = new Tray(
    nativeImage.createFromPath(assets.iconPath).resize({ width: 18, height: 18 }),
  );
  const showStatus = (status: AgentStatus) => {
    tray.setToolTip(`Parley Knowledge: ${trayStatusText(status)}`);
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: trayStatusText(status), enabled: false },
        { type: 'separator' },
        { label: 'Open Parley Knowledge', click: showWindow },
        { label: 'Quit', click: () => app.quit() },
      ]),
    );
  };
  const host = new AgentHost(paths.dataDir, showStatus, log);
  showStatus(host.status);

  const startAgent = async () => {
    running = await host.start(settings.settings, await settings.agentKeys());
    if (running.portNote) log(JSON.stringify({ event: 'agent.port', note: running.portNote }));
  };

  function openWindow(hash = ''): void {
    if (!running) return;
    const agent = running;
    const created = new BrowserWindow(windowOptions(assets.preloadPath, assets.iconPath));
    keepWindowOnApp(
      created.webContents,
      () => new URL(running?.windowUrl ?? agent.windowUrl).origin,
      (url) => void shell.openExternal(url),
    );
    created.once('ready-to-show', () => created.show());
    void created.loadURL(`${agent.windowUrl}${hash}`);
    window = created;
  }

  const appInfo = async (): Promise<AppInfo> => {
    const keys = await settings.agentKeys();
    return {
      name: app.getName(),
      version: app.getVersion(),
      platform: process.platform,
      agentUrl: running?.apiUrl ?? '',
      dataDir: paths.dataDir,
      ...(running?.portNote ? { portNote: running.portNote } : {}),
      ...(keys.agentApiKey ? { agentApiKey: keys.agentApiKey } : {}),
    };
  };
  let info: AppInfo = await appInfo();

  registerBridgeHandlers(
    ipcMain,
    {
      appInfo: () => info,
      settings: () => settings.view(),
      saveSettings: async (change) => {
        const { restart } = await settings.save(change);
        if (restart) {
          await host.stop();
          await startAgent();
          info = await appInfo();
          // The address or the key may have changed: the window starts over on the new agent.
          void window?.loadURL(`${running?.windowUrl ?? ''}#/settings`);
        }
        return settings.view();
      },
      // The first time Chats opens with nothing set up, the local demo's connection when it runs.
      chatConnection: () => settings.chatConnectionOrDemo(() => fetchDemoConnection()),
      useLocalDemoChat: async () => {
        await settings.useDemoConnection(await fetchDemoConnection());
        return settings.view();
      },
      pickFolder: async () => {
        const picked = await dialog.showOpenDialog({
          properties: ['openDirectory'],
          title: 'Choose a folder to watch',
        });
        return picked.canceled ? null : (picked.filePaths[0] ?? null);
      },
      revealFile: (path) => shell.showItemInFolder(path),
      openExternal: (url) => shell.openExternal(url),
    },
    paths.dataDir,
  );

  // The chat host's self-signed certificate, by the fingerprint in the Chats settings; nothing else.
  trustChatCertificate(
    app,
    () => (window && !window.isDestroyed() ? window.webContents : undefined),
    () => {
      const { chat } = settings.settings;
      return chat?.host && chat.certificateFingerprint
        ? { host: chat.host, fingerprint: chat.certificateFingerprint }
        : undefined;
    },
  );
  app.on('activate', showWindow);
  // The agent keeps serving chat products with the window closed; Quit in the tray ends it.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (event) => {
    if (quitting) return;
    event.preventDefault();
    quitting = true;
    void host.stop().finally(() => {
      tray.destroy();
      app.quit();
    });
  });

  try {
    await startAgent();
    info = await appInfo();
  } catch (error) {
    dialog.showErrorBox(
      'The knowledge agent could not start',
      `${error instanceof Error ? error.message : String(error)}\n\nCheck the port and address in the settings file: ${paths.settingsFile}`,
    );
    app.quit();
    return;
  }
  openWindow();
}
