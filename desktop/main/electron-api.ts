/**
 * The part of Electron's API the main process uses, typed here so the project type-checks and
 * tests without the `electron` package (an optional dependency whose installer downloads a
 * binary). `main.ts` hands the real modules in; tests hand in small stand-ins.
 */

export interface ElectronApp {
  whenReady(): Promise<void>;
  requestSingleInstanceLock(): boolean;
  getPath(name: 'userData' | 'home' | 'documents'): string;
  getName(): string;
  getVersion(): string;
  quit(): void;
  on(event: 'second-instance' | 'window-all-closed' | 'activate', listener: () => void): void;
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): void;
  on(
    event: 'certificate-error',
    listener: (
      event: { preventDefault(): void },
      webContents: WebContents,
      url: string,
      error: string,
      certificate: { fingerprint: string },
      callback: (isTrusted: boolean) => void,
    ) => void,
  ): void;
}

/** Electron's `safeStorage`: strings encrypted with the OS keychain (Keychain, DPAPI, libsecret). */
export interface SafeStorage {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

export interface WebContents {
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' | 'allow' }): void;
  on(event: 'will-navigate', listener: (event: { preventDefault(): void }, url: string) => void): void;
}

export interface BrowserWindowInstance {
  readonly webContents: WebContents;
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  once(event: 'ready-to-show', listener: () => void): void;
}

export interface BrowserWindowOptions {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  title: string;
  show: boolean;
  backgroundColor: string;
  icon?: string;
  webPreferences: {
    preload: string;
    contextIsolation: true;
    nodeIntegration: false;
    sandbox: true;
    webSecurity: true;
    spellcheck: boolean;
  };
}

export type BrowserWindowConstructor = new (options: BrowserWindowOptions) => BrowserWindowInstance;

export interface NativeImage {
  resize(options: { width: number; height: number }): NativeImage;
}

export interface TrayInstance {
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  destroy(): void;
}

export interface MenuItemOptions {
  label?: string;
  enabled?: boolean;
  type?: 'separator' | 'normal';
  click?: () => void;
}

export interface IpcMain {
  handle(channel: string, listener: (event: unknown, ...args: unknown[]) => unknown): void;
}

export interface Dialog {
  showOpenDialog(options: {
    properties: Array<'openDirectory' | 'openFile' | 'multiSelections' | 'createDirectory'>;
    title?: string;
  }): Promise<{ canceled: boolean; filePaths: string[] }>;
  showErrorBox(title: string, content: string): void;
}

export interface Shell {
  openExternal(url: string): Promise<void>;
  showItemInFolder(path: string): void;
}

/** Everything `main.ts` takes from the `electron` module. */
export interface ElectronModules {
  app: ElectronApp;
  BrowserWindow: BrowserWindowConstructor;
  Tray: new (image: NativeImage) => TrayInstance;
  Menu: { buildFromTemplate(items: MenuItemOptions[]): unknown };
  nativeImage: { createFromPath(path: string): NativeImage };
  ipcMain: IpcMain;
  dialog: Dialog;
  shell: Shell;
  safeStorage: SafeStorage;
}
