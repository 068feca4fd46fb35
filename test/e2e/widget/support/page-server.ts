import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Page {
  body: string;
  /** Defaults to HTML. */
  type?: string;
  /** Response headers, e.g. a Content-Security-Policy. */
  headers?: Record<string, string>;
}

/**
 * Serves test pages and the widget script from another origin than the chat service, as a site that
 * embeds the widget does: `/parley-widget.js` and whatever pages a test registers.
 */
export class PageServer {
  readonly pages = new Map<string, Page>();
  #server: Server | undefined;
  #port = 0;

  constructor(private readonly script: string) {}

  get origin(): string {
    return `http://localhost:${this.#port}`;
  }

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/parley-widget.js') {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
        res.end(this.script);
        return;
      }
      const page = this.pages.get(path);
      if (!page) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': page.type ?? 'text/html; charset=utf-8', ...page.headers });
      res.end(page.body);
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    server?.closeAllConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
