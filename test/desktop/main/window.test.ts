import { describe, expect, it } from 'vitest';
import type { WebContents } from '../../../desktop/main/electron-api.js';
import { externalUrl, keepWindowOnApp, windowOptions } from '../../../desktop/main/window.js';

/** A window's webContents as far as navigation handling uses it. */
function webContentsStandIn() {
  let openHandler: ((details: { url: string }) => { action: 'deny' | 'allow' }) | undefined;
  let navigate: ((event: { preventDefault(): void }, url: string) => void) | undefined;
  const webContents: WebContents = {
    setWindowOpenHandler: (handler) => void (openHandler = handler),
    on: (_event, listener) => void (navigate = listener),
  };
  const navigateTo = (url: string) => {
    let prevented = false;
    navigate?.({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  };
  return { webContents, open: (url: string) => openHandler?.({ url }), navigateTo };
}

describe('the window', () => {
  it('runs its page isolated: no Node, sandboxed, only the preload bridge', () => {
    expect(windowOptions('/app/preload.cjs', '/app/icon.png').webPreferences).toEqual({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      spellcheck: true,
    });
  });

  it('opens web links in the browser and never in a new app window', () => {
    const opened: string[] = [];
    const standIn = webContentsStandIn();
    keepWindowOnApp(
      standIn.webContents,
      () => 'http://127.0.0.1:4111',
      (url) => opened.push(url),
    );
    expect(standIn.open('https://example.com/guide')).toEqual({ action: 'deny' });
    expect(standIn.open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/guide']);
  });

  it('stays on the agent’s own pages, sending other addresses to the browser', () => {
    const opened: string[] = [];
    const standIn = webContentsStandIn();
    keepWindowOnApp(
      standIn.webContents,
      () => 'http://127.0.0.1:4111',
      (url) => opened.push(url),
    );
    expect(standIn.navigateTo('http://127.0.0.1:4111/#/connect')).toBe(false);
    expect(standIn.navigateTo('https://example.com/')).toBe(true);
    expect(opened).toEqual(['https://example.com/']);
  });

  it('opens only http and https addresses outside the app', () => {
    expect(externalUrl('https://example.com/a b')).toBe('https://example.com/a%20b');
    expect(() => externalUrl('javascript:alert(1)')).toThrow(/only http and https/);
    expect(() => externalUrl('not a url')).toThrow(/not a web address/);
    expect(() => externalUrl(42)).toThrow(/must be a string/);
  });
});
