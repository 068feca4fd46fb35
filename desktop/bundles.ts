/**
 * The desktop app's esbuild bundles, written under `<outRoot>/desktop/`: the window (React, with
 * pdf.js and the Chats section's UI Kit split out and loaded on first use, its worker, the page and icon) and the sandboxed
 * preload script, which Electron loads as one CommonJS file. The main process needs no bundle:
 * the build transpiles it file by file, which keeps the knowledge engine's parser worker file
 * beside the code that starts it.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';

const require = createRequire(import.meta.url);

/**
 * The UI Kit's modules import its one stylesheet (about 1 MB) themselves; bundled as is, it would
 * land in the window's own index.css and slow every view. It is built once as chats.css instead,
 * which the Chats section links when it opens.
 */
const uiKitStylesApart: Plugin = {
  name: 'ui-kit-styles-apart',
  setup(build) {
    build.onResolve({ filter: /\.css$/ }, (args) =>
      args.importer.includes('/@cometchat/chat-uikit-react/')
        ? { path: args.path, namespace: 'ui-kit-styles' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'ui-kit-styles' }, () => ({ contents: '', loader: 'empty' }));
  },
};

export function desktopBundles(outRoot: string): BuildOptions[] {
  const windowFolder = join(outRoot, 'desktop', 'renderer');
  return [
    {
      entryPoints: { index: 'desktop/renderer/index.tsx' },
      outdir: windowFolder,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: ['chrome120'],
      minify: true,
      sourcemap: true,
      chunkNames: 'chunks/[name]-[hash]',
      define: { 'process.env.NODE_ENV': '"production"' },
      legalComments: 'linked',
      plugins: [uiKitStylesApart],
    },
    {
      entryPoints: { chats: require.resolve('@cometchat/chat-uikit-react/styles') },
      outdir: windowFolder,
      bundle: true,
      minify: true,
      // The UI Kit's own fonts, served from this origin (the window loads nothing remote).
      loader: { '.woff2': 'file' },
      assetNames: 'assets/[name]-[hash]',
      legalComments: 'linked',
    },
    {
      entryPoints: { 'pdf.worker': require.resolve('pdfjs-dist/build/pdf.worker.min.mjs') },
      outdir: windowFolder,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: ['chrome120'],
      legalComments: 'linked',
    },
    {
      entryPoints: ['desktop/renderer/index.html', 'desktop/assets/icon.svg', 'desktop/assets/icon.png'],
      outdir: windowFolder,
      entryNames: '[name]',
      loader: { '.html': 'copy', '.svg': 'copy', '.png': 'copy' },
    },
    {
      entryPoints: ['desktop/preload/preload.ts'],
      outfile: join(outRoot, 'desktop', 'preload', 'preload.cjs'),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      external: ['electron'],
    },
  ];
}
