import type { BuildOptions } from 'esbuild';

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
