import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NamespaceLock } from '../../../knowledge/store/lock.js';

describe('the namespace writer lock', () => {
  let folder: string;
  let file: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'parley-lock-'));
    file = join(folder, 'lock');
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('refuses a second writer while the first holds it', async () => {
    const first = await NamespaceLock.acquire(file, 'docs');
    await expect(NamespaceLock.acquire(file, 'docs')).rejects.toMatchObject({
      kind: 'busy',
      message: expect.stringMatching(
        /namespace "docs" is being written by another Parley process \(pid \d+\)/,
      ),
    });
    await first.release();
  });

  it('can be taken again once released', async () => {
    await (await NamespaceLock.acquire(file, 'docs')).release();
    const again = await NamespaceLock.acquire(file, 'docs');
    expect(await readFile(file, 'utf8')).toBe(`${process.pid}\n`);
    await again.release();
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    const exited = spawnSync(process.execPath, ['-e', '']);
    await writeFile(file, `${exited.pid}\n`);
    const lock = await NamespaceLock.acquire(file, 'docs');
    expect(await readFile(file, 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
  });
});
