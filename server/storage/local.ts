import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import type { ByteRange, FileStore } from './files.js';

/**
 * Files under a folder of the data dir (`<data dir>/media`), the embedded default. A file is
 * written beside its place and renamed into it, so a failed or interrupted write leaves no part of
 * it where a reader looks.
 */
export class LocalFileStore implements FileStore {
  readonly describe: string;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.describe = `local:${this.root}`;
  }

  /** The file's path; a key that would leave the root is a programming error, refused loudly. */
  private pathOf(key: string): string {
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error('file key outside the media folder');
    return path;
  }

  async put(key: string, body: Uint8Array): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const partial = join(dirname(path), `.${randomBytes(8).toString('hex')}.part`);
    try {
      await writeFile(partial, body, { flag: 'wx' });
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? info.size : undefined;
    } catch {
      return undefined;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    return createReadStream(this.pathOf(key), range === undefined ? {} : range);
  }

  async deleteFolder(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix), { recursive: true, force: true });
  }

  close(): void {}
}
