import { readFile } from 'node:fs/promises';
import { transformSync, type BuildOptions, type Plugin } from 'esbuild';

/**
 * A `css` template's text minified by esbuild's CSS minifier: a stylesheet as it is, a list of
 * declarations (a palette spliced into rules) inside a rule that is taken off again.
 */
export function minifyCss(text: string): string {
  if (text.includes('{')) return transformSync(text, { loader: 'css', minify: true }).code.trim();
  return transformSync(`a{${text}}`, { loader: 'css', minify: true }).code.trim().slice(2, -1);
}

/**
 * Lit's `css` templates are strings esbuild does not look into: this minifies those without
 * interpolations as each widget module is loaded (their indentation and line breaks were about
 * 1.5 % of the script's gzip bytes).
 */
export const minifiedCssTemplates: Plugin = {
  name: 'minified-css-templates',
  setup(build) {
    build.onLoad({ filter: /[\\/]widget[\\/][^\\/]+\.ts$/ }, async ({ path }) => ({
      contents: (await readFile(path, 'utf8')).replace(
        /\bcss`([^`$\\]*)`/g,
        (_template, text: string) => `css\`${minifyCss(text)}\``,
      ),
      loader: 'ts',
    }));
  },
};

/**
 * The widget's browser builds, used by `scripts/build.ts` (into dist/widget), the browser tests and
 * the benchmark: one minified script for a `<script>` tag (`window.ParleyWidget`) with its lazily
 * loaded push code, code for sending files, German strings and service worker, and an ES module
 * build for bundlers and SSR that leaves `lit` to the importer (whose Node build shims the DOM).
 */
export function widgetBundles(outdir: string): BuildOptions[] {
  const common: BuildOptions = {
    bundle: true,
    minify: true,
    platform: 'browser',
    // Private class fields and static blocks stay native; every current browser runs them.
    target: 'es2022',
    logLevel: 'warning',
    plugins: [minifiedCssTemplates],
  };
  return [
    {
      ...common,
      entryPoints: ['widget/iife.ts'],
      outfile: `${outdir}/parley-widget.js`,
      format: 'iife',
      globalName: 'ParleyWidget',
    },
    {
      // Loaded by parley-widget.js only when a page turns on push notifications.
      ...common,
      entryPoints: ['widget/push.ts'],
      outfile: `${outdir}/parley-push.js`,
      format: 'iife',
      globalName: 'ParleyWidgetPush',
    },
    {
      // Loaded by parley-widget.js when a user first attaches a file.
      ...common,
      entryPoints: ['widget/attach.ts'],
      outfile: `${outdir}/parley-attach.js`,
      format: 'iife',
      globalName: 'ParleyWidgetAttach',
    },
    {
      // Loaded by parley-widget.js when a page selects German.
      ...common,
      entryPoints: ['widget/locales/de.ts'],
      outfile: `${outdir}/parley-de.js`,
      format: 'iife',
      globalName: 'ParleyWidgetDe',
    },
    {
      // The service worker that shows pushes; the page's origin serves a copy (see README).
      ...common,
      entryPoints: ['widget/service-worker.ts'],
      outfile: `${outdir}/parley-sw.js`,
      format: 'iife',
    },
    {
      // What the chat service's /demo page loads after the widget to put two users side by side.
      ...common,
      entryPoints: ['widget/demo.ts'],
      outfile: `${outdir}/demo.js`,
      format: 'iife',
    },
    {
      ...common,
      entryPoints: { index: 'widget/index.ts' },
      outdir: `${outdir}/esm`,
      format: 'esm',
      // Locales other than English become chunks of their own, fetched only when selected.
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      external: ['lit', 'lit/*', '@lit/*', 'lit-html', 'lit-html/*', 'lit-element', 'lit-element/*'],
    },
  ];
}
