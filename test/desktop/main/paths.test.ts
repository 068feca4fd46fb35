import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { desktopPaths } from '../../../desktop/main/paths.js';

describe('desktop paths', () => {
  it('keeps the data dir, settings and secrets under the userData folder', () => {
    const userData = join('/home/ana/.config', 'Parley');
    expect(desktopPaths(userData)).toEqual({
      dataDir: join(userData, 'data'),
      settingsFile: join(userData, 'settings.json'),
      secretsFile: join(userData, 'secrets.json'),
    });
  });
});
