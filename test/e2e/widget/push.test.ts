import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { WebPushMessage } from '../../../shared/web-push.js';
import { useWidgetHarness } from './support/harness.js';

/**
 * Web Push in Chromium: the widget's service worker shows what a push carries. A browser receives
 * pushes from its vendor's push service (outside this machine); the DevTools protocol delivers the
 * decrypted payload to the worker the same way the browser does once it has decrypted a push.
 */

const widget = useWidgetHarness();

const message: WebPushMessage = {
  title: 'Bob Stone',
  body: 'Are you there?',
  tag: '17',
  conversationId: 'alice_user_bob',
  sender: 'bob',
  receiver: 'alice',
  receiverType: 'user',
  type: 'chat',
  sentAt: 1_767_614_400,
};

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  data: unknown;
}

/** The DevTools session and the id of the page origin's service worker registration, once it is active. */
async function workerRegistration(
  context: BrowserContext,
  page: Page,
): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await context.newCDPSession(page);
  const ids = new Set<string>();
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const version of versions) if (version.status === 'activated') ids.add(version.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => ids.size, { timeout: 15_000 }).toBeGreaterThan(0);
  return { cdp, id: [...ids][0]! };
}

function shownNotifications(page: Page): Promise<ShownNotification[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    const shown = (await registration?.getNotifications()) ?? [];
    return shown.map(({ title, body, tag, data }) => ({ title, body, tag, data: data as unknown }));
  });
}

async function pageWithWorker(): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await widget.newPage();
  const origin = widget.pages.origin;
  await context.grantPermissions(['notifications'], { origin });
  widget.pages.pages.set('/worker-page', { body: '<!doctype html><title>worker</title>' });
  await page.goto(`${origin}/worker-page`);
  await page.evaluate(() => navigator.serviceWorker.register('/parley-sw.js').then(() => undefined));
  return { context, page };
}

describe('the widget service worker', () => {
  it('shows a pushed message as a notification with its title, body and tag', async () => {
    const { context, page } = await pageWithWorker();
    const { cdp, id } = await workerRegistration(context, page);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: widget.pages.origin,
      registrationId: id,
      data: JSON.stringify(message),
    });
    await expect.poll(() => shownNotifications(page), { timeout: 15_000 }).toHaveLength(1);
    const [shown] = await shownNotifications(page);
    expect(shown).toEqual({ title: 'Bob Stone', body: 'Are you there?', tag: '17', data: message });
  });

  it('shows a notification even for a push it cannot read, as the browser requires', async () => {
    const { context, page } = await pageWithWorker();
    const { cdp, id } = await workerRegistration(context, page);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: widget.pages.origin,
      registrationId: id,
      data: 'not json',
    });
    await expect.poll(() => shownNotifications(page), { timeout: 15_000 }).toHaveLength(1);
    expect((await shownNotifications(page))[0]?.title).toBe('New message');
  });
});
