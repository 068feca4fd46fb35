import { join } from 'node:path';

/** Where the desktop app keeps its things, all under Electron's per-user `userData` folder. */
export interface DesktopPaths {
  /** The agent's data dir: namespaces under `knowledge/`, uploads under `uploads/`. */
  dataDir: string;
  settingsFile: string;
  secretsFile: string;
}

export function desktopPaths(userData: string): DesktopPaths {
  return {
    dataDir: join(userData, 'data'),
    settingsFile: join(userData, 'settings.json'),
    secretsFile: join(userData, 'secrets.json'),
  };
}
