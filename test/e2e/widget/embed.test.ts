import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { APP_ID, AUTH_KEY } from '../../widget/support/chat-service.js';
import { useWidgetHarness } from './support/harness.js';

const widget = useWidgetHarness();
const { embed } = widget;

/** The element that has focus, looking into shadow roots. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let active = document.activeElement;
    const path: string[] = [];
    while (active) {
      path.push(
        active.tagName.toLowerCase() +
          (active.getAttribute('aria-label') ? `[${active.getAttribute('aria-label')}]` : ''),
      );
      active = active.shadowRoot?.activeElement ?? null;
    }
    return path.join(' > ');
  });
}

const launcher = (page: Page) => page.locator('parley-launcher button');

describe('the docked widget', () => {
  it('shows the unread count on the launcher and opens into a chat window', async () => {
    await widget.service.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: 'one' } });
    await widget.service.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: 'two' } });
    const { page } = await embed({ uid: 'alice', launch: { isDocked: true }, scriptIn: 'body' });
    await page.getByRole('button', { name: 'Open chat, 2 unread' }).waitFor();
    await launcher(page).click();
    await page.getByRole('dialog', { name: 'Chats' }).waitFor();
    expect(await launcher(page).getAttribute('aria-expanded')).toBe('true');
  });

  it('moves focus into the window on open and back to the launcher on close', async () => {
    await widget.service.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: 'hello' } });
    const { page } = await embed({ uid: 'alice', launch: { isDocked: true } });
    await launcher(page).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    expect(await focused(page)).toMatch(/parley-conversation-list > button$/);
    await page.keyboard.press('Enter'); // opens the focused conversation
    await page.locator('parley-thread').getByText('hello').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await focused(page)).toMatch(/parley-launcher > button\[Open chat\]$/);
  });

  it('lets keyboard focus leave the window (no trap)', async () => {
    const { page } = await embed({
      uid: 'alice',
      launch: { isDocked: true, chatType: 'user', defaultChatID: 'bob' },
    });
    await launcher(page).click();
    await page.locator('parley-composer textarea').waitFor();
    await page.locator('parley-composer textarea').focus();
    for (let step = 0; step < 3; step++) await page.keyboard.press('Tab');
    expect(await focused(page)).not.toContain('parley-composer');
  });

  it('opens a conversation on chatWithUser', async () => {
    const { page } = await embed({ uid: 'alice', launch: { isDocked: true } });
    await launcher(page).waitFor();
    await page.evaluate(() =>
      (
        window as unknown as { ParleyWidget: { chatWithUser(uid: string): Promise<void> } }
      ).ParleyWidget.chatWithUser('carol'),
    );
    await page.locator('parley-thread h2', { hasText: 'Carol Diaz' }).waitFor();
  });

  it('reports unread counts and received messages to the page', async () => {
    const { page } = await embed({ uid: 'alice', launch: { isDocked: true } });
    await launcher(page).waitFor();
    await page.evaluate(() => {
      const widget = (window as unknown as { ParleyWidget: { on(e: string, l: (p: unknown) => void): void } })
        .ParleyWidget;
      const seen: unknown[] = ((window as unknown as { seen: unknown[] }).seen = []);
      widget.on('unreadCountChanged', (p) => seen.push(p));
      widget.on('messageReceived', (p) =>
        seen.push((p as { message: { data: { text: string } } }).message.data.text),
      );
    });
    // A message sent before the widget's socket is up reaches it by catch-up, which reports the
    // unread count but no `messageReceived`: send once the service counts alice connected.
    await expect
      .poll(async () => (await widget.service.admin.getUser('alice')).status, { timeout: 15_000 })
      .toBe('available');
    await widget.service.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: 'ping' } });
    await page.waitForFunction(() => (window as unknown as { seen: unknown[] }).seen.length === 2);
    expect(await page.evaluate(() => (window as unknown as { seen: unknown[] }).seen)).toEqual([
      { count: 1 },
      'ping',
    ]);
  });
});

describe('the embedded widget', () => {
  it('works when the script is in <head>, before the target element exists', async () => {
    await widget.service.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: 'hello from bob' } });
    const { page } = await embed({
      uid: 'alice',
      launch: { targetElementID: 'chat', height: '500px' },
      scriptIn: 'head',
    });
    await page.locator('#chat parley-chat').getByText('hello from bob').waitFor();
    expect(await page.evaluate(() => (window as unknown as { widgetErrors: string[] }).widgetErrors)).toEqual(
      [],
    );
  });

  it('reports a missing target element by its id', async () => {
    const { page } = await embed({ uid: 'alice', launch: { targetElementID: 'nowhere' } });
    await page.waitForFunction(
      () => (window as unknown as { widgetErrors: string[] }).widgetErrors.length > 0,
    );
    expect(await page.evaluate(() => (window as unknown as { widgetErrors: string[] }).widgetErrors)).toEqual(
      ['Error: ParleyWidget.launch: no element with id "nowhere"'],
    );
  });

  it('is usable at 320 px: one pane at a time, nothing wider than the screen, 16 px inputs', async () => {
    await widget.service.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: 'narrow' } });
    const { page } = await embed(
      { uid: 'alice', launch: { targetElementID: 'chat', width: '100%', height: '560px' } },
      { width: 320, height: 640 },
    );
    await page.getByRole('button', { name: /Bob Stone/ }).click();
    await page.locator('parley-thread').getByText('narrow').waitFor();
    expect(await page.locator('parley-conversation-list').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    const fontSize = await page
      .locator('parley-composer textarea')
      .evaluate((element) => getComputedStyle(element).fontSize);
    expect(parseFloat(fontSize)).toBeGreaterThanOrEqual(16);
    await page.getByRole('button', { name: 'Back to conversations' }).click();
    await page.locator('parley-conversation-list').waitFor();
  });

  it('speaks German when the page selects it', async () => {
    const { page } = await embed({
      uid: 'alice',
      language: 'de',
      launch: { targetElementID: 'chat', chatType: 'user', defaultChatID: 'bob' },
    });
    await page.getByPlaceholder('Nachricht schreiben…').waitFor();
    await page.getByRole('log', { name: 'Nachrichten mit Bob Stone' }).waitFor();
  });
});

describe('the session', () => {
  it('keeps the auth token under a namespaced key, sets no cookie, and forgets it on logout', async () => {
    const { context, page } = await embed({ uid: 'alice', launch: { targetElementID: 'chat' } });
    await page.locator('parley-conversation-list').waitFor();
    const key = `parley:${APP_ID}:session`;
    const stored = await page.evaluate((k) => localStorage.getItem(k), key);
    expect(JSON.parse(stored!)).toMatchObject({ uid: 'alice' });
    await page.evaluate(() =>
      (window as unknown as { ParleyWidget: { logout(): Promise<void> } }).ParleyWidget.logout(),
    );
    expect(await page.evaluate((k) => localStorage.getItem(k), key)).toBeNull();
    expect(await page.locator('parley-chat').count()).toBe(0);
    expect(await context.cookies()).toEqual([]);
    expect(await page.evaluate(() => document.cookie)).toBe('');
  });

  it('resumes after a reload with the stored token instead of asking for a new one', async () => {
    const { page } = await embed({ uid: 'alice', launch: { targetElementID: 'chat' } });
    await page.locator('parley-conversation-list').waitFor();
    const issued: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/v3/users/alice/auth_tokens'))
        issued.push(request.url());
    });
    await page.reload();
    await page.locator('parley-conversation-list').waitFor();
    expect(issued).toEqual([]);
  });
});

describe('the declarative element', () => {
  it('puts two users side by side on one page, chatting in realtime (the /demo layout)', async () => {
    const chat = (uid: string, other: string) =>
      `<parley-chat app-id="${APP_ID}" region="eu" auth-key="${AUTH_KEY}" uid="${uid}" host="${widget.service.url}" chat-type="user" chat-id="${other}" height="520px"></parley-chat>`;
    widget.pages.pages.set('/side-by-side', {
      body: `<!doctype html><html lang="en"><head><title>Side by side</title><script src="/parley-widget.js"></script></head>
        <body><main><h1>Two users</h1><section id="alice">${chat('alice', 'bob')}</section><section id="bob">${chat('bob', 'alice')}</section></main></body></html>`,
    });
    const { page } = await widget.newPage();
    await page.goto(`${widget.pages.origin}/side-by-side`);
    const alice = page.locator('#alice parley-composer textarea');
    await alice.fill('Hi Bob, from the left');
    await alice.press('Enter');
    await page.locator('#bob parley-thread').getByText('Hi Bob, from the left').waitFor();
  });

  it('logs in and docks from its attributes alone', async () => {
    await widget.service.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: 'hi' } });
    widget.pages.pages.set('/declarative', {
      body: `<!doctype html><html lang="en"><head><title>Declarative</title><script src="/parley-widget.js"></script></head>
        <body><main><h1>Declarative</h1>
        <parley-chat app-id="${APP_ID}" region="eu" auth-key="${AUTH_KEY}" uid="alice" host="${widget.service.url}" docked alignment="left"></parley-chat>
        </main></body></html>`,
    });
    const { page } = await widget.newPage();
    await page.goto(`${widget.pages.origin}/declarative`);
    await page.getByRole('button', { name: 'Open chat, 1 unread' }).click();
    await page.getByRole('dialog', { name: 'Chats' }).getByText('Bob Stone').waitFor();
  });
});
