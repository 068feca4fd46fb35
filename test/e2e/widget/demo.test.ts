import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { demoPage, type DemoConfig } from '../../../server/demo/index.js';
import { APP_ID, AUTH_KEY, ChatService } from '../../widget/support/chat-service.js';
import { launchChromium } from '../../support/browser.js';
import { buildWidgetScript } from './support/bundle.js';

const config: DemoConfig = {
  appId: APP_ID,
  region: 'eu',
  authKey: AUTH_KEY,
  users: [
    { uid: 'alice', name: 'Alice Martin' },
    { uid: 'bob', name: 'Bob Stone' },
  ],
  group: { guid: 'support', name: 'Support Team' },
  agent: { uid: 'knowledge', name: 'Knowledge Agent' },
};

let browser: Browser;
let service: ChatService;

beforeAll(async () => {
  const [built, launched] = await Promise.all([buildWidgetScript(), launchChromium()]);
  browser = launched;
  // The service's own /demo page, serving this build of the widget under /widget/.
  service = await ChatService.start({ pages: [demoPage(() => config, built.dir)] });
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('the /demo page of the chat service', () => {
  it('shows two users side by side with the built script, chatting in the demo group', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(`${service.url}/demo`);
    // demo.js is the widget's half of the page; load it where the page does not (yet) do so itself.
    if ((await page.locator('script[src="/widget/demo.js"]').count()) === 0) {
      await page.addScriptTag({ url: '/widget/demo.js' });
    }
    const alice = page.locator('#chat-alice');
    const bob = page.locator('#chat-bob');
    // Bob's window has opened the group before Alice writes, as two people side by side would.
    await bob.locator('parley-thread h2', { hasText: 'Support Team' }).waitFor();
    await alice.locator('parley-composer textarea').fill('Hello from the left window');
    await alice.locator('parley-composer textarea').press('Enter');
    await bob.locator('parley-thread').getByText('Hello from the left window').waitFor();
    await page.screenshot({ path: resolve('test/.artifacts/widget-demo.png') });
    await context.close();
  });
});
