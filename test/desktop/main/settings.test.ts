import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  agentNeedsRestart,
  applySettingsChange,
  defaultSettings,
  loadSettings,
  saveSettings,
} from '../../../desktop/main/settings.js';
import { temporaryFolder } from './support.js';

describe('desktop settings', () => {
  let folder: Awaited<ReturnType<typeof temporaryFolder>>;
  let file: string;
  beforeEach(async () => {
    folder = await temporaryFolder();
    file = join(folder.path, 'settings.json');
  });
  afterEach(() => folder.remove());

  it('starts on safe defaults: port 4111 on loopback, no CORS, no private network, no model, no Chats', async () => {
    expect(await loadSettings(file)).toEqual({
      settings: {
        port: 4111,
        host: '127.0.0.1',
        corsOrigins: [],
        allowPrivateNetwork: false,
        languageModel: null,
        watchedFolders: [],
        chat: null,
        chatDemoUsed: false,
        plainSecretsAllowed: false,
      },
    });
  });

  it('keeps what was saved across a restart', async () => {
    const changed = applySettingsChange(defaultSettings(), {
      port: 5111,
      corsOrigins: ['https://chat.example.com'],
      languageModel: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' },
      watchedFolders: [{ folder: folder.path, namespace: 'notes' }],
    });
    await saveSettings(file, changed);
    expect((await loadSettings(file)).settings).toEqual(changed);
  });

  it('sets a broken settings file aside and starts on the defaults, saying why', async () => {
    await writeFile(file, '{"port": "not a number"}');
    const loaded = await loadSettings(file);
    expect(loaded.settings).toEqual(defaultSettings());
    expect(loaded.problem).toMatch(/^The settings file could not be read \(port: .*\)/);
    expect(await readFile(`${file}.invalid`, 'utf8')).toBe('{"port": "not a number"}');
  });

  it('refuses a change that is not valid, naming the field at fault', () => {
    const current = defaultSettings();
    expect(() => applySettingsChange(current, { port: 70_000 })).toThrow(/^port: /);
    expect(() => applySettingsChange(current, { host: 'my laptop' })).toThrow(/^host: must be an IP address/);
    expect(() => applySettingsChange(current, { corsOrigins: ['chat.example.com'] })).toThrow(
      /^corsOrigins\.0: /,
    );
    expect(() =>
      applySettingsChange(current, { watchedFolders: [{ folder: 'docs', namespace: 'n' }] }),
    ).toThrow(/^watchedFolders\.0\.folder: must be an absolute folder path/);
    expect(() => applySettingsChange(current, { theme: 'dark' })).toThrow(/theme/);
  });

  it('restarts the agent for a change to what it runs with, not for the consent alone', () => {
    const current = defaultSettings();
    expect(agentNeedsRestart(current, applySettingsChange(current, { port: 5111 }))).toBe(true);
    expect(agentNeedsRestart(current, applySettingsChange(current, { plainSecretsAllowed: true }))).toBe(
      false,
    );
  });

  it('keeps the Chats certificate fingerprint in Electron’s sha256/<base64> form', async () => {
    const fingerprint = 'sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';
    const chat = { appId: 'parley-demo', region: 'us', operatorUid: 'operator', host: 'localhost:4000' };
    const changed = applySettingsChange(defaultSettings(), {
      chat: { ...chat, certificateFingerprint: ` ${fingerprint} ` },
    });
    expect(changed.chat?.certificateFingerprint).toBe(fingerprint);
    await saveSettings(file, changed);
    expect((await loadSettings(file)).settings.chat?.certificateFingerprint).toBe(fingerprint);
    expect(applySettingsChange(defaultSettings(), { chat }).chat?.certificateFingerprint).toBeNull();
  });

  it('refuses a Chats certificate fingerprint that is not sha256/<base64>, naming the field', () => {
    const chat = { appId: 'parley-demo', region: 'us', operatorUid: 'operator', host: 'localhost:4000' };
    for (const malformed of [
      'AB:CD:EF',
      'sha1/2jmj7l5rSw0yVb/vlWAYkK/YBwk=',
      'sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU',
      'sha256/not base64 at all, not base64 at all, not!=',
    ]) {
      expect(() =>
        applySettingsChange(defaultSettings(), { chat: { ...chat, certificateFingerprint: malformed } }),
      ).toThrow(/^chat\.certificateFingerprint: must be a SHA-256 fingerprint/);
    }
  });
});
