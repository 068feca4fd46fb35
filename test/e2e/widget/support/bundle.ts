import { build } from 'esbuild';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { widgetBundles } from '../../../../widget/bundle.js';

/**
 * Builds the widget's scripts exactly as `npm run build` does (`parley-widget.js`, its push code and
 * service worker, and the /demo page's `demo.js`), into a fresh temporary folder; returns the widget script.
 */
export async function buildWidgetScript(): Promise<{ dir: string; script: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-widget-'));
  const scripts = widgetBundles(dir).filter((options) => options.format === 'iife');
  await Promise.all(scripts.map((options) => build(options)));
  return { dir, script: await readFile(join(dir, 'parley-widget.js'), 'utf8') };
}
