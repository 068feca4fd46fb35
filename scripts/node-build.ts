/**
 * The Node code of the package (cli, shared, knowledge, server, desktop main) transpiled file by
 * file into `outdir`, keeping the folder layout so worker entry points and relative imports resolve
 * as in the sources. `scripts/build.ts` writes it to dist/; the tests build it once per run.
 */
import { build } from 'esbuild';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const NODE_FOLDERS = ['cli', 'shared', 'knowledge', 'server', 'desktop'];
/** Browser code inside the Node folders: it ships only as the browser bundles. */
const BROWSER_ONLY = [join('desktop', 'renderer'), join('desktop', 'preload')];

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name))
    .filter((file) => !BROWSER_ONLY.some((folder) => file.startsWith(folder + '/')));
}

export async function buildNodeCode(outdir: string): Promise<void> {
  const nodeEntries = (await Promise.all(NODE_FOLDERS.map(sourceFiles))).flat();
  await build({
    entryPoints: nodeEntries,
    outdir,
    outbase: '.',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
}
