import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../desktop/bridge.js';
import { launchChromium } from '../../support/browser.js';
import { startWindowServer, type WindowServer } from './support.js';

const ARTIFACTS = join(import.meta.dirname, '..', '..', '.artifacts', 'desktop');

/** What the stand-in's main process finds at the local demo once `localDemoRuns` is set. */
const LOCAL_DEMO = {
  appId: 'local-demo-app',
  region: 'eu',
  operatorUid: 'operator',
  host: 'localhost:4100',
  certificateFingerprint: 'sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
};

/**
 * The parts of the window that exist only in the desktop app, with the preload bridge played by
 * a stand-in in the page (Electron is not installed here): it records every call and keeps the
 * settings in memory as the main process would. `useLocalDemoChat` fails as Electron relays a
 * main-process error until the page sets `localDemoRuns`.
 */
function installBridgeStandIn({ initial, demo }: { initial: SettingsView; demo: typeof LOCAL_DEMO }): void {
  const calls: unknown[][] = [];
  let settings = initial;
  const record =
    <T>(name: string, answer: (...args: unknown[]) => T) =>
    async (...args: unknown[]) => {
      calls.push([name, ...args]);
      return answer(...args);
    };
  Object.assign(window, {
    bridgeCalls: calls,
    parleyDesktop: {
      appInfo: record('appInfo', () => ({
        name: 'Parley',
        version: '0.1.0',
        platform: 'linux',
        agentUrl: `${location.origin}/api`,
        dataDir: '/home/ana/.config/Parley/data',
      })),
      settings: record('settings', () => settings),
      saveSettings: record('saveSettings', (change) => {
        const { agentApiKey, languageModelKey, chatAuthKey, chatAuthToken, ...rest } = change as Record<
          string,
          unknown
        >;
        settings = {
          ...settings,
          ...rest,
          ...(agentApiKey !== undefined ? { agentApiKeySet: agentApiKey !== null } : {}),
          ...(languageModelKey !== undefined ? { languageModelKeySet: languageModelKey !== null } : {}),
          ...(chatAuthKey !== undefined ? { chatAuthKeySet: chatAuthKey !== null } : {}),
          ...(chatAuthToken !== undefined ? { chatAuthTokenSet: chatAuthToken !== null } : {}),
        } as SettingsView;
        return settings;
      }),
      chatConnection: record('chatConnection', () => null),
      useLocalDemoChat: record('useLocalDemoChat', () => {
        if (!(window as unknown as { localDemoRuns?: boolean }).localDemoRuns) {
          throw new Error(
            "Error invoking remote method 'parley:use-local-demo-chat': DemoConnectionError: No local demo answers at http://127.0.0.1:4111/: start it with `parley start`, then try again.",
          );
        }
        settings = { ...settings, chat: demo, chatAuthKeySet: true, chatAuthTokenSet: false };
        return settings;
      }),
      pickFolder: record('pickFolder', () => '/home/ana/notes'),
      revealFile: record('revealFile', () => undefined),
      openExternal: record('openExternal', () => undefined),
    },
  });
}

const INITIAL_SETTINGS: SettingsView = {
  port: 4111,
  host: '127.0.0.1',
  corsOrigins: [],
  allowPrivateNetwork: false,
  languageModel: null,
  watchedFolders: [],
  agentApiKeySet: false,
  languageModelKeySet: false,
  chat: null,
  chatAuthKeySet: false,
  chatAuthTokenSet: false,
  secretStorage: 'unavailable',
  plainSecretsAllowed: false,
};

describe('knowledge app window in the desktop app', () => {
  let server: WindowServer;
  let browser: Browser;
  let page: Page;
  const bridgeCalls = () =>
    page.evaluate(() => (window as unknown as { bridgeCalls: unknown[][] }).bridgeCalls);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWindowServer(), launchChromium()]);
    await fetch(`${server.apiUrl}/namespaces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'notes' }),
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    await page.addInitScript(installBridgeStandIn, { initial: INITIAL_SETTINGS, demo: LOCAL_DEMO });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('offers Settings, which says plainly that keys cannot be encrypted here and asks before keeping them', async () => {
    await page.goto(`${server.url}#/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByText('This system offers no encryption.').waitFor();
    await page.getByLabel('Model', { exact: true }).fill('llama3.1');
    await page.getByLabel('Base URL').fill('http://127.0.0.1:11434/v1');
    await page
      .getByLabel(/^API key \(none\)$/)
      .first()
      .fill('agent-key-5e1d');
    await page.getByLabel('Keep keys unencrypted in a file only my user can read').check();
    await page.locator('.main').evaluate((main) => main.scrollTo(0, 0));
    await page.screenshot({ path: join(ARTIFACTS, '12-settings.png') });
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Settings saved.').waitFor();
    const saved = (await bridgeCalls()).find((call) => call[0] === 'saveSettings');
    expect(saved?.[1]).toMatchObject({
      port: 4111,
      host: '127.0.0.1',
      languageModel: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' },
      agentApiKey: 'agent-key-5e1d',
      plainSecretsAllowed: true,
    });
    await page.getByLabel('API key (set; type to replace)').first().waitFor();
  });

  it('watches a folder chosen in the system dialog for a namespace', async () => {
    await page.goto(`${server.url}#/ns/notes/sources`);
    await page.getByRole('button', { name: 'Watch a folder…' }).click();
    await page.getByText('/home/ana/notes').waitFor();
    const saved = (await bridgeCalls()).filter((call) => call[0] === 'saveSettings').at(-1);
    expect(saved?.[1]).toEqual({ watchedFolders: [{ folder: '/home/ana/notes', namespace: 'notes' }] });
    await page.screenshot({ path: join(ARTIFACTS, '13-watched-folders.png') });
  });

  it('sends Chats to Settings while it has no connection', async () => {
    await page.goto(`${server.url}#/chats`);
    await page.getByRole('heading', { name: 'Set up Chats' }).waitFor();
    await page.getByRole('link', { name: 'Settings', exact: true }).last().click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  });

  it('saves the Chats connection in Settings, its auth key as a key the bridge keeps', async () => {
    await page.getByLabel('App ID').fill('parley-demo');
    await page.getByLabel('Operator UID').fill('operator');
    await page.getByLabel('Host (optional)').fill('localhost:4000');
    await page.getByLabel('Auth key (none)').fill('chat-auth-key-77');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Settings saved.').waitFor();
    const saved = (await bridgeCalls()).filter((call) => call[0] === 'saveSettings').at(-1);
    expect(saved?.[1]).toMatchObject({
      chat: { appId: 'parley-demo', region: 'us', operatorUid: 'operator', host: 'localhost:4000' },
      chatAuthKey: 'chat-auth-key-77',
    });
    await page.getByLabel('Auth key (set; type to replace)').waitFor();
    expect(await page.getByLabel('Auth key (set; type to replace)').inputValue()).toBe('');
  });

  it('says what to do when "Use the local demo" finds no demo running', async () => {
    await page.getByRole('button', { name: 'Use the local demo' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'No local demo answers at http://127.0.0.1:4111/: start it with `parley start`, then try again.',
    );
  });

  it('fills the Chats settings from the local demo, its auth key kept by the bridge, never shown', async () => {
    await page.evaluate(() => Object.assign(window, { localDemoRuns: true }));
    await page.getByRole('button', { name: 'Use the local demo' }).click();
    await page.getByRole('status').getByText('Chats set up from the local demo.').waitFor();
    const calls = (await bridgeCalls()).filter((call) => call[0] === 'useLocalDemoChat');
    expect(calls.at(-1)).toEqual(['useLocalDemoChat']);
    expect(await page.getByLabel('App ID').inputValue()).toBe(LOCAL_DEMO.appId);
    expect(await page.getByLabel('Region').inputValue()).toBe(LOCAL_DEMO.region);
    expect(await page.getByLabel('Operator UID').inputValue()).toBe(LOCAL_DEMO.operatorUid);
    expect(await page.getByLabel('Host (optional)').inputValue()).toBe(LOCAL_DEMO.host);
    expect(await page.getByLabel('Certificate fingerprint (self-signed hosts)').inputValue()).toBe(
      LOCAL_DEMO.certificateFingerprint,
    );
    expect(await page.getByLabel('Auth key (set; type to replace)').inputValue()).toBe('');
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, '14-chats-local-demo.png') });
  });
});
