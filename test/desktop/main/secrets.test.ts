import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretStorageError, SecretStore } from '../../../desktop/main/secrets.js';
import { safeStorageStandIn, temporaryFolder } from './support.js';

describe('secret storage', () => {
  let folder: Awaited<ReturnType<typeof temporaryFolder>>;
  let file: string;
  beforeEach(async () => {
    folder = await temporaryFolder();
    file = join(folder.path, 'secrets.json');
  });
  afterEach(() => folder.remove());

  it('keeps a key encrypted with safeStorage and reads it back', async () => {
    const store = new SecretStore(file, safeStorageStandIn());
    await store.set('languageModelKey', 'sk-test-4c1b9e77', { plainAllowed: false });
    expect(await store.get('languageModelKey')).toBe('sk-test-4c1b9e77');
    expect(await readFile(file, 'utf8')).not.toContain('sk-test-4c1b9e77');
    expect(store.kind(false)).toBe('encrypted');
  });

  it('writes the file readable by this user only', async () => {
    await new SecretStore(file, safeStorageStandIn()).set('agentApiKey', 'key-1', { plainAllowed: false });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses to keep a key without encryption unless the user agreed', async () => {
    const store = new SecretStore(file, safeStorageStandIn(false));
    expect(store.kind(false)).toBe('unavailable');
    await expect(store.set('agentApiKey', 'key-1', { plainAllowed: false })).rejects.toBeInstanceOf(
      SecretStorageError,
    );
    expect(await store.get('agentApiKey')).toBeUndefined();
  });

  it('keeps a key in plain text after the user agreed, where no encryption exists', async () => {
    const store = new SecretStore(file, safeStorageStandIn(false));
    await store.set('agentApiKey', 'key-1', { plainAllowed: true });
    expect(await store.get('agentApiKey')).toBe('key-1');
    expect(store.kind(true)).toBe('plain');
  });

  it('forgets plain-text keys when consent is withdrawn', async () => {
    const plainFile = new SecretStore(file, safeStorageStandIn(false));
    await plainFile.set('agentApiKey', 'key-1', { plainAllowed: true });
    await plainFile.deletePlain();
    expect(await plainFile.get('agentApiKey')).toBeUndefined();
  });

  it('reads no key that was encrypted when the system can no longer decrypt it', async () => {
    await new SecretStore(file, safeStorageStandIn()).set('agentApiKey', 'key-1', { plainAllowed: false });
    expect(await new SecretStore(file, safeStorageStandIn(false)).get('agentApiKey')).toBeUndefined();
  });

  it('deletes a key', async () => {
    const store = new SecretStore(file, safeStorageStandIn());
    await store.set('agentApiKey', 'key-1', { plainAllowed: false });
    await store.delete('agentApiKey');
    expect(await store.has('agentApiKey')).toBe(false);
  });

  it('says the file is damaged rather than guessing at its contents', async () => {
    await writeFile(file, '{"secrets": 42}');
    await expect(new SecretStore(file, safeStorageStandIn()).get('agentApiKey')).rejects.toThrow(
      'the secrets file is damaged: remove it and enter the keys again',
    );
  });
});
