/**
 * Builds everything that runs outside the TypeScript sources:
 * - Node code (cli, shared, knowledge, server, desktop main) transpiled file by file into dist/,
 *   keeping the folder layout so worker entry points and relative imports resolve as in the source;
 * - browser bundles (the widget, the desktop renderer) as the issues that own them add them to `bundles`.
 */
import { build, type BuildOptions } from 'esbuild';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { desktopBundles } from '../desktop/bundles.js';
import { widgetBundles } from '../widget/bundle.js';

const NODE_FOLDERS = ['cli', 'shared', 'knowledge', 'server', 'desktop'];
/** Browser code inside the Node folders: it ships only as the bundles below. */
const BROWSER_ONLY = [join('desktop', 'renderer'), join('desktop', 'preload')];

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name))
    .filter((file) => !BROWSER_ONLY.some((folder) => file.startsWith(folder + '/')));
}

/** Browser bundles: one entry each, registered by the parts that ship to a browser. */
export const bundles: BuildOptions[] = [
  ...desktopBundles('dist'),
  // The widget: dist/widget/parley-widget.js for a <script> tag, demo.js for the service's /demo page,
  // and the ES module build in dist/widget/esm/.
  ...widgetBundles('dist/widget'),
];

async function main(): Promise<void> {
  await rm('dist', { recursive: true, force: true });
  const nodeEntries = (await Promise.all(NODE_FOLDERS.map(sourceFiles))).flat();
  await build({
    entryPoints: nodeEntries,
    outdir: 'dist',
    outbase: '.',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  for (const options of bundles) await build({ logLevel: 'warning', ...options });
}

await main();
