import { mkdir, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatService } from '../../widget/support/chat-service.js';
import { launchChromium } from '../../support/browser.js';
import { buildWidgetScript } from './support/bundle.js';
import { PageServer } from './support/page-server.js';
import { serveEmbedPage } from './support/pages.js';
import { seedShowcase } from './support/scenes.js';

const artifacts = resolve('test/.artifacts');
let browser: Browser;
let pages: PageServer;
let service: ChatService;

beforeAll(async () => {
  const [built, launched] = await Promise.all([buildWidgetScript(), launchChromium()]);
  browser = launched;
  pages = await new PageServer(built.script).start();
  service = await ChatService.start();
  await seedShowcase(service);
  await mkdir(artifacts, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await pages?.stop();
  await service?.close();
});

const layouts = [
  {
    name: 'embedded',
    viewport: { width: 1100, height: 760 },
    theme: 'light',
    launch: {
      targetElementID: 'chat',
      width: '1000px',
      height: '640px',
      chatType: 'group',
      defaultChatID: 'support',
    },
  },
  {
    name: 'docked',
    viewport: { width: 1100, height: 760 },
    theme: 'light',
    launch: { isDocked: true, chatType: 'user', defaultChatID: 'bob' },
  },
  {
    name: 'docked-dark',
    viewport: { width: 1100, height: 760 },
    theme: 'dark',
    launch: { isDocked: true, dockedAlignment: 'left', chatType: 'group', defaultChatID: 'support' },
  },
  {
    name: 'phone',
    viewport: { width: 360, height: 740 },
    theme: 'light',
    launch: { isDocked: true, chatType: 'user', defaultChatID: 'bob' },
  },
] as const;

describe('the widget layouts', () => {
  for (const layout of layouts) {
    it(`renders the ${layout.name} layout and saves a screenshot of it`, async () => {
      const context = await browser.newContext({ viewport: layout.viewport });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      await page.goto(
        serveEmbedPage(pages, `/shot-${layout.name}`, {
          host: service.url,
          uid: 'alice',
          theme: layout.theme,
          launch: layout.launch,
        }),
      );
      if ('isDocked' in layout.launch) await page.locator('parley-launcher button').click();
      await page.locator('parley-thread parley-message').last().waitFor();
      await page.locator('parley-thread [role="log"]').evaluate((log) => log.scrollTo(0, log.scrollHeight));
      const file = resolve(artifacts, `widget-${layout.name}.png`);
      await page.screenshot({ path: file });
      expect((await stat(file)).size).toBeGreaterThan(10_000);
      await context.close();
    });
  }
});
