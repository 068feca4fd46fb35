import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Secrets at rest (providers' keys and passwords): AES-256-GCM with a 96-bit random nonce per
 * value, bound to where the value belongs (its `context`, as additional data), so a sealed value
 * copied to another row or field does not open. The key is `PARLEY_SECRET_KEY` or, without it,
 * `<data dir>/secret.key`, created on first start. Several processes must share the same key.
 */

const VERSION = 'v1';
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_FILE = 'secret.key';

/** The key does not open what is stored: a changed or wrong key, or a damaged value. */
export class SecretKeyMismatch extends Error {
  override name = 'SecretKeyMismatch';
}

/** 32 bytes written as 64 hex digits or in base64; undefined for anything else. */
export function parseSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed, 'base64');
  return bytes.length === KEY_BYTES ? bytes : undefined;
}

export class SecretBox {
  private constructor(
    private readonly key: Buffer,
    /** Where the key came from, to name in errors (never the key). */
    readonly source: string,
  ) {}

  static withKey(key: Buffer, source: string): SecretBox {
    if (key.length !== KEY_BYTES) throw new Error(`${source}: the key must be ${KEY_BYTES} bytes`);
    return new SecretBox(key, source);
  }

  /** The given key, else the data dir's, created (readable by this user only) if there is none. */
  static async load(dataDir: string, key?: Buffer): Promise<SecretBox> {
    if (key !== undefined) return SecretBox.withKey(key, 'PARLEY_SECRET_KEY');
    const path = join(dataDir, SECRET_KEY_FILE);
    await mkdir(dataDir, { recursive: true });
    // `wx`: of two processes starting at once on one data dir, one writes and both read its key.
    await writeFile(path, randomBytes(KEY_BYTES).toString('base64'), { flag: 'wx', mode: 0o600 }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      },
    );
    const stored = parseSecretKey(await readFile(path, 'utf8'));
    if (stored === undefined) throw new Error(`${path} does not hold a ${KEY_BYTES}-byte key`);
    return SecretBox.withKey(stored, path);
  }

  static isSealed(value: unknown): value is string {
    return typeof value === 'string' && value.startsWith(`${VERSION}.`);
  }

  seal(plaintext: string, context: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce).setAAD(Buffer.from(context));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  open(sealed: string, context: string): string {
    const bytes = Buffer.from(sealed.slice(VERSION.length + 1), 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, NONCE_BYTES))
        .setAAD(Buffer.from(context))
        .setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretKeyMismatch(
        `a stored secret (${context}) does not open with the key from ${this.source}: ` +
          "start with the key it was stored with (PARLEY_SECRET_KEY or the data dir's secret.key)",
      );
    }
  }
}
