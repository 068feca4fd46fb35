/**
 * The Electron main process entry (`dist/desktop/main/main.js`). Electron provides the `electron`
 * module; its name is kept in a variable so the project type-checks without the optional package.
 */
import { fileURLToPath } from 'node:url';
import { runDesktopApp } from './desktop-app.js';
import type { ElectronModules } from './electron-api.js';

const ELECTRON_MODULE = 'electron';
const electron = (await import(ELECTRON_MODULE)) as ElectronModules;

await runDesktopApp(electron, {
  preloadPath: fileURLToPath(new URL('../preload/preload.cjs', import.meta.url)),
  iconPath: fileURLToPath(new URL('../renderer/icon.png', import.meta.url)),
});
