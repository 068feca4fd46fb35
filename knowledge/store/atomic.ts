import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Suffix of half-written files; whatever carries it after a crash is garbage. */
export const TEMP_SUFFIX = '.tmp';

/**
 * Writes a file so that readers (and a process restarted after kill -9 or a power cut) see either
 * the old content or the new, never a mix: write a temporary sibling, fsync it, rename it over the
 * target, fsync the directory so the rename itself is durable.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`;
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dirname(file));
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
