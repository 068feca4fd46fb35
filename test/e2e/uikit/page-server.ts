import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { lookup } from 'mime-types';

const ENTRY = fileURLToPath(new URL('./page.tsx', import.meta.url));

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>UI Kit contract</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/page.css"><style>
html, body, #root { margin: 0; height: 100%; }
.contract-screen { height: 100%; }
.contract-conversation { display: flex; height: 100%; }
.contract-main, .contract-thread { flex: 1; display: flex; flex-direction: column; min-width: 0; }
.contract-thread { border-left: 1px solid #ccc; }
</style></head><body><div id="root"></div><script src="/page.js"></script></body></html>`;

/**
 * Builds the UI Kit page with esbuild (once: the caller keeps the server for the whole file) and
 * serves it over plain http from another origin than the chat server, as an app embedding the UI
 * Kit would be: `/` and the bundle's files (script, stylesheet, the kit's fonts), from memory.
 */
export async function startUiKitPageServer(): Promise<{ url: string; close(): Promise<void> }> {
  const built = await build({
    entryPoints: { page: ENTRY },
    outdir: '/',
    bundle: true,
    // No splitting: the kit's lazy parts (emoji keyboard, reactions) land in the one script.
    format: 'iife',
    platform: 'browser',
    target: ['chrome120'],
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.woff2': 'file' },
    assetNames: 'assets/[name]-[hash]',
    logLevel: 'warning',
    write: false,
  });
  const files = new Map<string, [string, Uint8Array | string]>([['/', ['text/html', PAGE]]]);
  for (const file of built.outputFiles)
    files.set(file.path, [lookup(file.path) || 'application/octet-stream', file.contents]);
  const server = createServer((request, response) => {
    const file = files.get(new URL(request.url ?? '/', 'http://page').pathname);
    if (file === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
