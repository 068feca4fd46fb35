/**
 * `npm run desktop`: builds the app and starts it in Electron, or says plainly that Electron is
 * missing and how to install it.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { findElectron, MISSING_ELECTRON } from './launcher.js';

const require = createRequire(import.meta.url);
const electron = findElectron(() => require('electron'));
if (!electron) {
  process.stderr.write(MISSING_ELECTRON);
  process.exit(1);
}
const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const app = spawnSync(electron, ['dist/desktop/main/main.js'], { stdio: 'inherit' });
process.exit(app.status ?? 0);
