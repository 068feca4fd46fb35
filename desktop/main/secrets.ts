import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { SecretStorageKind } from '../bridge.js';
import type { SafeStorage } from './electron-api.js';
import { writePrivateFile } from './file-write.js';

export type SecretName = 'agentApiKey' | 'languageModelKey' | 'chatAuthKey' | 'chatAuthToken';

const SecretsFile = z.object({
  version: z.literal(1),
  secrets: z.record(z.string(), z.object({ encoding: z.enum(['safeStorage', 'plain']), value: z.string() })),
});
type SecretsFile = z.infer<typeof SecretsFile>;

export class SecretStorageError extends Error {
  override readonly name = 'SecretStorageError';
}

/**
 * Keys kept on disk: encrypted with Electron's `safeStorage` (the OS keychain) when the system
 * offers it, and in plain text only when it does not and the user agreed. The file is readable by
 * this user only either way.
 */
export class SecretStore {
  constructor(
    private readonly file: string,
    private readonly safeStorage: SafeStorage,
  ) {}

  kind(plainAllowed: boolean): SecretStorageKind {
    if (this.safeStorage.isEncryptionAvailable()) return 'encrypted';
    return plainAllowed ? 'plain' : 'unavailable';
  }

  /** The secret, or undefined when it is not set or can no longer be decrypted on this system. */
  async get(name: SecretName): Promise<string | undefined> {
    const entry = (await this.read()).secrets[name];
    if (!entry) return undefined;
    if (entry.encoding === 'plain') return entry.value;
    if (!this.safeStorage.isEncryptionAvailable()) return undefined;
    try {
      return this.safeStorage.decryptString(Buffer.from(entry.value, 'base64'));
    } catch {
      return undefined;
    }
  }

  async has(name: SecretName): Promise<boolean> {
    return (await this.get(name)) !== undefined;
  }

  async set(name: SecretName, value: string, options: { plainAllowed: boolean }): Promise<void> {
    const file = await this.read();
    if (this.safeStorage.isEncryptionAvailable()) {
      const encrypted = this.safeStorage.encryptString(value).toString('base64');
      file.secrets[name] = { encoding: 'safeStorage', value: encrypted };
    } else if (options.plainAllowed) {
      file.secrets[name] = { encoding: 'plain', value };
    } else {
      throw new SecretStorageError(
        'this system offers no encryption for keys: agree to keep them unencrypted in a file only your user can read, or leave the key empty',
      );
    }
    await this.write(file);
  }

  async delete(name: SecretName): Promise<void> {
    const file = await this.read();
    if (!(name in file.secrets)) return;
    delete file.secrets[name];
    await this.write(file);
  }

  /** Deletes every secret kept in plain text: the user withdrew consent to keep them so. */
  async deletePlain(): Promise<void> {
    const file = await this.read();
    const plain = Object.entries(file.secrets).filter(([, entry]) => entry.encoding === 'plain');
    if (plain.length === 0) return;
    for (const [name] of plain) delete file.secrets[name];
    await this.write(file);
  }

  /** The file's contents; no file holds no secrets. */
  private async read(): Promise<SecretsFile> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, secrets: {} };
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = SecretsFile.safeParse(json);
    if (!parsed.success) {
      throw new SecretStorageError('the secrets file is damaged: remove it and enter the keys again');
    }
    return parsed.data;
  }

  private async write(file: SecretsFile): Promise<void> {
    await writePrivateFile(this.file, `${JSON.stringify(file, null, 2)}\n`);
  }
}
