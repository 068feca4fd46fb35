import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../knowledge/store/atomic.js';

describe('writeFileAtomic', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'parley-atomic-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('replaces a file with the new content and leaves no temporary file', async () => {
    const file = join(folder, 'manifest.json');
    await writeFile(file, 'old');
    await writeFileAtomic(file, 'new');
    expect(await readFile(file, 'utf8')).toBe('new');
    expect(await readdir(folder)).toEqual(['manifest.json']);
  });

  it('writes binary data byte for byte', async () => {
    const file = join(folder, 'index.1.snapshot');
    const bytes = new Uint8Array([0, 255, 1, 254, 10, 13]);
    await writeFileAtomic(file, bytes);
    expect(new Uint8Array(await readFile(file))).toEqual(bytes);
  });

  it('fails without leaving a partial file when the folder does not exist', async () => {
    await expect(writeFileAtomic(join(folder, 'missing', 'file'), 'x')).rejects.toThrow(/ENOENT/);
    expect(await readdir(folder)).toEqual([]);
  });
});
