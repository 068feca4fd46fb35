import type { BrowserWindowOptions, WebContents } from './electron-api.js';

/**
 * The window's options: the page cannot reach Node or Electron (context isolation on, Node
 * integration off, sandboxed); only the preload script's bridge connects it to this process.
 */
export function windowOptions(preloadPath: string, iconPath: string): BrowserWindowOptions {
  return {
    width: 1200,
    height: 820,
    minWidth: 820,
    minHeight: 560,
    title: 'Parley Knowledge',
    show: false,
    backgroundColor: '#f6f5f2',
    icon: iconPath,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      spellcheck: true,
    },
  };
}

/** An address people may open outside the app: web pages only, never file: or custom schemes. */
export function externalUrl(value: unknown): string {
  if (typeof value !== 'string') throw new TypeError('the address must be a string');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`not a web address: ${value.slice(0, 100)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`only http and https addresses open in the browser, not ${url.protocol}`);
  }
  return url.href;
}

/**
 * Keeps the window on the app's own pages: links elsewhere open in the browser instead, and no
 * page can open new Electron windows.
 */
export function keepWindowOnApp(
  webContents: WebContents,
  appOrigin: () => string,
  openExternal: (url: string) => void,
): void {
  const openOutside = (url: string) => {
    try {
      openExternal(externalUrl(url));
    } catch {
      // Not a web address (file:, javascript:, custom schemes): it opens nowhere.
    }
  };
  webContents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
  webContents.on('will-navigate', (event, url) => {
    if (new URL(url).origin === appOrigin()) return;
    event.preventDefault();
    openOutside(url);
  });
}
