import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { BrowserContext, Page } from 'playwright-core';
import { EventBacklog, type SdkUser } from './drivers.js';
import type { SdkEvent } from './sdk-ops.js';

const SDK_BUNDLE = fileURLToPath(
  new URL('../../../node_modules/@cometchat/chat-sdk-javascript/CometChat.js', import.meta.url),
);
const OPS = fileURLToPath(new URL('./sdk-ops.ts', import.meta.url));

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>SDK contract</title></head><body>
<script src="/sdk.js"></script><script src="/ops.js"></script>
<script>window.ops = SdkOps.sdkOps(window.CometChat, (event) => window.__emit(event), window.CometChatNotifications);</script>
</body></html>`;

/**
 * The page the SDK runs in: the SDK's own UMD bundle and the contract ops, served over plain http
 * from another origin than the chat server, as an app embedding the SDK would be.
 */
export async function startSdkPageServer(): Promise<{ url: string; close(): Promise<void> }> {
  const ops = await build({
    entryPoints: [OPS],
    bundle: true,
    format: 'iife',
    globalName: 'SdkOps',
    write: false,
  });
  const files: Record<string, [string, string]> = {
    '/': ['text/html', PAGE],
    '/sdk.js': ['text/javascript', readFileSync(SDK_BUNDLE, 'utf8')],
    '/ops.js': ['text/javascript', ops.outputFiles[0]?.text ?? ''],
  };
  const server: Server = createServer((request, response) => {
    const file = files[request.url ?? '/'];
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file[0] }).end(file[1]);
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

type OpsWindow = Window & { ops: Record<string, (...args: unknown[]) => Promise<unknown>> };

/** The SDK in a page of its own; a browser context is one browser profile (its storage survives reloads). */
export class PageSdkUser implements SdkUser {
  private readonly backlog = new EventBacklog();

  private constructor(private readonly page: Page) {}

  static async open(context: BrowserContext, url: string): Promise<PageSdkUser> {
    const page = await context.newPage();
    const user = new PageSdkUser(page);
    await page.exposeFunction('__emit', (event: SdkEvent) => user.backlog.push(event));
    await page.goto(url);
    return user;
  }

  /** Rejects as the Node driver does: with the op's error message (a refusal's JSON), nothing around it. */
  async call<T = unknown>(op: string, ...args: unknown[]): Promise<T> {
    const outcome = await this.page.evaluate(
      async ([name, values]) => {
        try {
          const result: unknown = await (window as unknown as OpsWindow).ops[name as string]?.(
            ...(values as unknown[]),
          );
          return { ok: true as const, result };
        } catch (error) {
          return {
            ok: false as const,
            error: error instanceof Error ? error.message : JSON.stringify(error),
          };
        }
      },
      [op, args] as const,
    );
    if (!outcome.ok) throw new Error(outcome.error);
    return outcome.result as T;
  }

  next(match: (event: SdkEvent) => boolean, what: string): Promise<SdkEvent> {
    return this.backlog.next(match, what);
  }

  events(): SdkEvent[] {
    return this.backlog.all();
  }

  async close(): Promise<void> {
    if (!this.page.isClosed()) await this.page.close();
  }
}
