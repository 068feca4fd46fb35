import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChatService } from '../../widget/support/chat-service.js';
import { launchChromium } from '../../support/browser.js';
import { buildWidgetScript } from './support/bundle.js';
import { PageServer } from './support/page-server.js';
import { serveEmbedPage, type EmbedPageOptions } from './support/pages.js';
import { seedShowcase } from './support/scenes.js';
import { seriousAxeViolations } from './support/axe.js';

let browser: Browser;
let pages: PageServer;
let service: ChatService;
let pageCount = 0;

beforeAll(async () => {
  const [built, launched] = await Promise.all([buildWidgetScript(), launchChromium()]);
  browser = launched;
  pages = await new PageServer(built.script).start();
});
afterAll(async () => {
  await browser?.close();
  await pages?.stop();
});
beforeEach(async () => {
  service = await ChatService.start();
  await seedShowcase(service);
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
  await service.close();
});

async function open(
  options: Omit<EmbedPageOptions, 'host'>,
  headers: Record<string, string> = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(
    serveEmbedPage(pages, `/secure-${++pageCount}`, { host: service.url, ...options }, headers),
  );
  return page;
}

/** Every way the widget shows itself: the group with the agent answer, the chat with the form, a sent message. */
async function exercise(page: Page): Promise<void> {
  await page.locator('parley-thread').getByText('Reset password').waitFor();
  await page.getByRole('button', { name: /Bob Stone/ }).click();
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  await page.getByText('Please fill in this field.').first().waitFor();
  await page.locator('parley-composer textarea').fill('Thanks!');
  await page.locator('parley-composer textarea').press('Enter');
  await page.locator('parley-message[mine]').getByText('Thanks!').waitFor();
}

describe('the widget under a strict Content Security Policy', () => {
  it("renders and chats with style-src 'self' and script-src 'self' without a single violation", async () => {
    const api = new URL(service.url);
    const csp = [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      `connect-src 'self' ${api.origin} ws://${api.host}`,
    ].join('; ');
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    const options = {
      host: service.url,
      uid: 'alice',
      launch: {
        targetElementID: 'chat',
        width: '900px',
        height: '620px',
        chatType: 'group',
        defaultChatID: 'support',
      },
    };
    await page.goto(
      serveEmbedPage(pages, `/csp-${++pageCount}`, options, { 'content-security-policy': csp }),
    );
    await exercise(page);
    expect(violations).toEqual([]);
  });
});

describe('accessibility', () => {
  it('the embedded widget with messages, an agent answer and a form has no serious axe violation', async () => {
    const page = await open({
      uid: 'alice',
      launch: { targetElementID: 'chat', chatType: 'group', defaultChatID: 'support' },
    });
    await exercise(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('the docked widget, open, has no serious axe violation in light or dark theme', async () => {
    for (const theme of ['light', 'dark']) {
      const page = await open({
        uid: 'alice',
        theme,
        launch: { isDocked: true, chatType: 'user', defaultChatID: 'bob' },
      });
      await page.locator('parley-launcher button').click();
      await page.locator('parley-thread').getByText('Book a walkthrough').waitFor();
      expect(await seriousAxeViolations(page), theme).toEqual([]);
    }
  });

  it('names the message log after the conversation and every control', async () => {
    const page = await open({
      uid: 'alice',
      launch: { targetElementID: 'chat', chatType: 'user', defaultChatID: 'bob' },
    });
    await page.getByRole('log', { name: 'Messages with Bob Stone' }).waitFor();
    await page.getByRole('combobox', { name: 'Message' }).waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
  });
});
