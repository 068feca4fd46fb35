import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { ChatService } from '../../../widget/support/chat-service.js';
import { launchChromium } from '../../../support/browser.js';
import { buildWidgetScript } from './bundle.js';
import { PageServer } from './page-server.js';
import { serveEmbedPage, type EmbedPageOptions } from './pages.js';

export interface Viewport {
  width: number;
  height: number;
}

export interface WidgetHarness {
  readonly browser: Browser;
  /** Serves the freshly built widget and the test pages from an origin of their own. */
  readonly pages: PageServer;
  /** A fresh chat service for every test. */
  readonly service: ChatService;
  /** A browser profile of its own, with one empty page. */
  newPage(viewport?: Viewport): Promise<{ context: BrowserContext; page: Page }>;
  /** A browser profile of its own, on a new page that embeds the widget against this test's service. */
  embed(
    options: Omit<EmbedPageOptions, 'host'>,
    viewport?: Viewport,
  ): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * Registers the hooks a widget end-to-end file needs: one build, browser and page server per file,
 * a fresh chat service per test, and every browser profile closed after each test.
 */
export function useWidgetHarness(): WidgetHarness {
  let browser: Browser | undefined;
  let pages: PageServer | undefined;
  let service: ChatService | undefined;
  let pageCount = 0;

  beforeAll(async () => {
    const [built, launched] = await Promise.all([buildWidgetScript(), launchChromium()]);
    browser = launched;
    pages = await new PageServer(built.script).start();
    // The files beside the widget script (push code, service worker, code for sending files, German), as a site serves them.
    for (const file of ['parley-push.js', 'parley-sw.js', 'parley-attach.js', 'parley-de.js']) {
      pages.pages.set(`/${file}`, {
        body: await readFile(join(built.dir, file), 'utf8'),
        type: 'text/javascript; charset=utf-8',
      });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await pages?.stop();
  });
  beforeEach(async () => {
    service = await ChatService.start();
  });
  afterEach(async () => {
    for (const context of browser?.contexts() ?? []) await context.close();
    await service?.close();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not started: use it inside a test`);
    return value;
  };
  const harness: WidgetHarness = {
    get browser() {
      return started(browser, 'the browser');
    },
    get pages() {
      return started(pages, 'the page server');
    },
    get service() {
      return started(service, 'the chat service');
    },
    async newPage(viewport = { width: 1100, height: 800 }) {
      const context = await harness.browser.newContext({ viewport });
      context.setDefaultTimeout(10_000);
      return { context, page: await context.newPage() };
    },
    async embed(options, viewport) {
      const { context, page } = await harness.newPage(viewport);
      const path = `/embed-${++pageCount}`;
      await page.goto(serveEmbedPage(harness.pages, path, { host: harness.service.url, ...options }));
      return { context, page };
    },
  };
  return harness;
}
