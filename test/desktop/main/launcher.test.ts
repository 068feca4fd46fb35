import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findElectron, MISSING_ELECTRON } from '../../../desktop/launcher.js';

describe('npm run desktop', () => {
  it('finds no Electron when the package is not installed', () => {
    expect(
      findElectron(() => {
        throw Object.assign(new Error("Cannot find module 'electron'"), { code: 'MODULE_NOT_FOUND' });
      }),
    ).toBeUndefined();
  });

  it('finds no Electron when the package is there but its binary was never downloaded', () => {
    expect(findElectron(() => '/nowhere/electron/dist/electron')).toBeUndefined();
  });

  it('finds the Electron binary the package points at', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'parley-electron-'));
    const binary = join(folder, 'electron');
    await writeFile(binary, '');
    expect(findElectron(() => binary)).toBe(binary);
    await rm(folder, { recursive: true, force: true });
  });

  it('says plainly that Electron is missing and how to install it', () => {
    expect(MISSING_ELECTRON).toMatch(/^Electron is not installed/);
    expect(MISSING_ELECTRON).toContain('npm install electron');
  });
});
