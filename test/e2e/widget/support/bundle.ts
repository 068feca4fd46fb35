import { build } from 'esbuild';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { widgetBundles } from '../../../../widget/bundle.js';

/** Builds the widget exactly as `npm run build` does, into a fresh temporary folder; returns the script. */
export async function buildWidgetScript(): Promise<{ dir: string; script: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-widget-'));
  const [iife] = widgetBundles(dir);
  await build(iife!);
  return { dir, script: await readFile(join(dir, 'parley-widget.js'), 'utf8') };
}
