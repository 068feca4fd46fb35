import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DesktopSettingsService } from '../../../desktop/main/desktop-settings.js';
import { desktopPaths, type DesktopPaths } from '../../../desktop/main/paths.js';
import { safeStorageStandIn, temporaryFolder } from './support.js';

describe('desktop settings with their keys', () => {
  let folder: Awaited<ReturnType<typeof temporaryFolder>>;
  let paths: DesktopPaths;
  beforeEach(async () => {
    folder = await temporaryFolder();
    paths = desktopPaths(folder.path);
  });
  afterEach(() => folder.remove());

  it('shows the window whether keys are set, never the keys themselves', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn());
    await service.save({ agentApiKey: 'agent-key-93ab17f2' });
    const view = await service.view();
    expect(view).toMatchObject({
      agentApiKeySet: true,
      languageModelKeySet: false,
      secretStorage: 'encrypted',
    });
    expect(JSON.stringify(view)).not.toContain('agent-key-93ab17f2');
    expect(await readFile(paths.settingsFile, 'utf8')).not.toContain('agent-key-93ab17f2');
    expect(await service.agentKeys()).toEqual({ agentApiKey: 'agent-key-93ab17f2' });
  });

  it('restarts the agent when a key changes or is removed, and not for nothing', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn());
    expect(await service.save({ agentApiKey: 'agent-key-93ab17f2' })).toEqual({ restart: true });
    expect(await service.save({ port: 4111 })).toEqual({ restart: false });
    expect(await service.save({ agentApiKey: null })).toEqual({ restart: true });
    expect(await service.agentKeys()).toEqual({});
  });

  it('refuses a key it cannot keep safely, and saves nothing of that change', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn(false));
    await expect(service.save({ port: 5000, languageModelKey: 'sk-1' })).rejects.toThrow(/no encryption/);
    expect(service.settings.port).toBe(4111);
  });

  it('keeps a key in plain text once the user agrees, and drops it when they withdraw', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn(false));
    await service.save({ plainSecretsAllowed: true, languageModelKey: 'sk-1' });
    expect(await service.view()).toMatchObject({ secretStorage: 'plain', languageModelKeySet: true });
    await service.save({ plainSecretsAllowed: false });
    expect(await service.view()).toMatchObject({ secretStorage: 'unavailable', languageModelKeySet: false });
  });

  it('reopens with what was saved', async () => {
    const first = await DesktopSettingsService.open(paths, safeStorageStandIn());
    await first.save({ host: '0.0.0.0', corsOrigins: ['https://chat.example.com'] });
    const reopened = await DesktopSettingsService.open(paths, safeStorageStandIn());
    expect(reopened.settings).toMatchObject({ host: '0.0.0.0', corsOrigins: ['https://chat.example.com'] });
  });

  const CHAT = {
    appId: 'parley-demo',
    region: 'us',
    operatorUid: 'operator',
    host: 'localhost:4000',
    certificateFingerprint: 'sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
  };

  it('keeps the Chats auth key in the secret store and gives it only to the Chats connection', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn());
    await service.save({ chat: CHAT, chatAuthKey: 'chat-auth-key-5be0' });
    const view = await service.view();
    expect(view).toMatchObject({ chat: CHAT, chatAuthKeySet: true, chatAuthTokenSet: false });
    expect(JSON.stringify(view)).not.toContain('chat-auth-key-5be0');
    expect(await readFile(paths.settingsFile, 'utf8')).not.toContain('chat-auth-key-5be0');
    expect(await readFile(paths.secretsFile, 'utf8')).not.toContain('chat-auth-key-5be0');
    expect(await service.chatConnection()).toEqual({ ...CHAT, authKey: 'chat-auth-key-5be0' });
  });

  it('signs Chats in with an auth token instead of a key, and without a host uses the cloud', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn());
    await service.save({ chat: { ...CHAT, host: null }, chatAuthToken: 'operator_token_77' });
    expect(await service.chatConnection()).toEqual({ ...CHAT, host: null, authToken: 'operator_token_77' });
  });

  it('has no Chats connection until both the settings and a key or token are set', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn());
    expect(await service.chatConnection()).toBeNull();
    await service.save({ chat: CHAT });
    expect(await service.chatConnection()).toBeNull();
  });

  it('does not restart the agent for a change to Chats', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn());
    expect(await service.save({ chat: CHAT, chatAuthKey: 'chat-auth-key-5be0' })).toEqual({ restart: false });
    expect(await service.save({ chatAuthKey: null })).toEqual({ restart: false });
    expect(await service.chatConnection()).toBeNull();
  });

  it('refuses the Chats auth key where it cannot be kept safely, saving none of the change', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn(false));
    await expect(service.save({ chat: CHAT, chatAuthKey: 'chat-auth-key-5be0' })).rejects.toThrow(
      /no encryption/,
    );
    expect(service.settings.chat).toBeNull();
  });

  const DEMO = { ...CHAT, authKey: 'demo-auth-key-0c41' };
  const demoAnswers = async () => DEMO;
  const noDemo = async () => {
    throw new Error('No local demo answers');
  };

  it('sets Chats up from the local demo: its settings to the file, its auth key to the secret store', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn());
    await service.save({ chat: { ...CHAT, appId: 'other' }, chatAuthToken: 'old-token-3f' });
    await service.useDemoConnection(DEMO);
    const view = await service.view();
    expect(view).toMatchObject({ chat: CHAT, chatAuthKeySet: true, chatAuthTokenSet: false });
    expect(JSON.stringify(view)).not.toContain('demo-auth-key-0c41');
    expect(await readFile(paths.settingsFile, 'utf8')).not.toContain('demo-auth-key-0c41');
    expect(await service.chatConnection()).toEqual(DEMO);
  });

  it('fills Chats from the local demo the first time it is asked with nothing set up', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn());
    expect(await service.chatConnectionOrDemo(demoAnswers)).toEqual(DEMO);
    const reopened = await DesktopSettingsService.open(paths, safeStorageStandIn());
    expect(reopened.settings.chat).toEqual(CHAT);
  });

  it('leaves Chats as set up when it already has a connection', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn());
    const own = { ...CHAT, appId: 'own-app', host: null, certificateFingerprint: null };
    await service.save({ chat: own, chatAuthKey: 'own-key-91' });
    expect(await service.chatConnectionOrDemo(demoAnswers)).toEqual({ ...own, authKey: 'own-key-91' });
  });

  it('fills Chats from the demo only once: settings cleared afterwards stay cleared', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn());
    await service.chatConnectionOrDemo(demoAnswers);
    await service.save({ chat: null, chatAuthKey: null });
    expect(await service.chatConnectionOrDemo(demoAnswers)).toBeNull();
    expect(service.settings.chat).toBeNull();
  });

  it('tries the demo again on a later visit when it did not answer the first time', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn());
    expect(await service.chatConnectionOrDemo(noDemo)).toBeNull();
    expect(await service.chatConnectionOrDemo(demoAnswers)).toEqual(DEMO);
  });

  it('does not fill Chats from the demo where its key cannot be kept safely, writing nothing', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn(false));
    expect(await service.chatConnectionOrDemo(demoAnswers)).toBeNull();
    expect(service.settings).toMatchObject({ chat: null, chatDemoUsed: false });
    await expect(service.useDemoConnection(DEMO)).rejects.toThrow(/no encryption/);
    expect(service.settings.chat).toBeNull();
  });

  it('never lets the window mark Chats as filled from the demo', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn());
    await expect(service.save({ chatDemoUsed: true })).rejects.toThrow(/Unrecognized key/i);
    expect(await service.view()).not.toHaveProperty('chatDemoUsed');
  });

  it('names the Chats field at fault', async () => {
    const service = await DesktopSettingsService.open(paths, safeStorageStandIn());
    await expect(service.save({ chat: { ...CHAT, host: 'https://localhost:4000' } })).rejects.toThrow(
      /chat\.host: must be a host name/,
    );
    await expect(service.save({ chat: { ...CHAT, operatorUid: 'not a uid' } })).rejects.toThrow(
      /chat\.operatorUid/,
    );
  });
});
