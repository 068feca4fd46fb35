import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetBundles } from '../../widget/bundle.js';

// Inside the repository, so the build's bare `lit` import resolves to node_modules as it would in an app.
const outdir = resolve('test/.artifacts', `ssr-${process.pid}`);

beforeAll(async () => {
  await mkdir(outdir, { recursive: true });
  const esm = widgetBundles(outdir).find((options) => options.format === 'esm');
  await build(esm!);
});
afterAll(() => rm(outdir, { recursive: true, force: true }));

/**
 * Imports the ES module build in a fresh Node process without DOM globals, as a server renders. Reads
 * of browser globals are recorded with the file that made them (Lit's own Node build checks for
 * `document`; that is its SSR detection, not ours).
 */
async function importUnderSsr(): Promise<{ init: string; defined: string; readers: string[] }> {
  const entry = pathToFileURL(join(outdir, 'esm', 'index.js')).href;
  const script = `
    const readers = new Set();
    for (const name of ['window', 'document', 'localStorage', 'sessionStorage', 'location', 'navigator']) {
      Object.defineProperty(globalThis, name, {
        configurable: true,
        get() {
          const frame = new Error().stack.split('\\n')[2] ?? '';
          if (!frame.includes('/node_modules/')) readers.add(name + ' ' + frame.trim());
          return undefined;
        },
      });
    }
    const widget = await import(${JSON.stringify(entry)});
    console.log(JSON.stringify({
      init: typeof widget.ParleyWidget.init,
      defined: typeof customElements.get('parley-chat'),
      readers: [...readers],
    }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
  return JSON.parse(stdout) as { init: string; defined: string; readers: string[] };
}

describe('the ES module build', () => {
  it('imports on a server and defines the elements', async () => {
    const result = await importUnderSsr();
    expect([result.init, result.defined]).toEqual(['function', 'function']);
  });

  it('reads no browser global at module load', async () => {
    expect((await importUnderSsr()).readers).toEqual([]);
  });
});
