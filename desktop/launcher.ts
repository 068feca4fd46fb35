import { existsSync } from 'node:fs';

/**
 * Where the Electron binary is, asking the `electron` package as Electron's own CLI does; undefined
 * when the package is absent or its installer could not download the binary.
 */
export function findElectron(requireElectron: () => unknown): string | undefined {
  try {
    const binary = requireElectron();
    return typeof binary === 'string' && existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** What `npm run desktop` says when Electron is missing. */
export const MISSING_ELECTRON = `Electron is not installed, so the desktop app cannot start here.

Electron is an optional dependency: its installer downloads the Electron binary (about 100 MB)
from GitHub, which fails without internet access. On a machine that has it, run:

  npm install electron

then \`npm run desktop\` again.

Meanwhile the same window works in any browser: run \`npm run build\`, then
\`node dist/cli/parley.js agent\`, and open http://127.0.0.1:4111/
`;
