/**
 * Builds everything that runs outside the TypeScript sources:
 * - Node code (cli, shared, knowledge, server, desktop main) transpiled file by file into dist/
 *   (scripts/node-build.ts);
 * - browser bundles (the widget, the desktop renderer) as the issues that own them add them to `bundles`.
 */
import { build, type BuildOptions } from 'esbuild';
import { rm } from 'node:fs/promises';
import { desktopBundles } from '../desktop/bundles.js';
import { widgetBundles } from '../widget/bundle.js';
import { buildNodeCode } from './node-build.js';

/** Browser bundles: one entry each, registered by the parts that ship to a browser. */
export const bundles: BuildOptions[] = [
  ...desktopBundles('dist'),
  // The widget: dist/widget/parley-widget.js for a <script> tag, demo.js for the service's /demo page,
  // and the ES module build in dist/widget/esm/.
  ...widgetBundles('dist/widget'),
];

async function main(): Promise<void> {
  await rm('dist', { recursive: true, force: true });
  await buildNodeCode('dist');
  for (const options of bundles) await build({ logLevel: 'warning', ...options });
}

await main();
