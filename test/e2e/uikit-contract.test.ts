import type { CometChat as CometChatSdk } from '@cometchat/chat-sdk-javascript';
import { mkdir, readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { connectClient, type TestClient } from '../server/client-support.js';
import { callServerApi } from '../server/support.js';
import { CONTRACT_APP, startContractServer, type ContractServer } from './sdk/fixtures.js';
import { startUiKitPageServer } from './uikit/page-server.js';
import type { Screen } from './uikit/page.js';

const ARTIFACTS = join(import.meta.dirname, '..', '.artifacts', 'uikit-contract');

type UiKitWindow = Window & { uikit: { show(screen: Screen): Promise<void> } };
type SdkWindow = Window & { CometChat: typeof CometChatSdk };

const groupText = (text: string) => ({
  receiver: 'crew',
  receiverType: 'group',
  category: 'message',
  type: 'text',
  data: { text },
});

/**
 * CometChat's official React UI Kit 7.2.1 with SDK 4.2.0, unmodified, built with esbuild into one
 * page and driven in Chromium against Parley over TLS, signed in as Alice; Bob acts through the
 * REST API. One page for the whole file: the steps build on each other.
 */
describe('the CometChat UI Kit 7.2.1 against Parley', () => {
  let server: ContractServer;
  let pages: Awaited<ReturnType<typeof startUiKitPageServer>>;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  let bobOnline: TestClient;

  const asUser = (uid: string, method: string, path: string, body?: unknown) =>
    callServerApi(server.server.url, CONTRACT_APP, method, path, { body, onBehalfOf: uid });
  const show = (screen: Screen) =>
    page.evaluate((next) => (window as unknown as UiKitWindow).uikit.show(next), screen);
  const screenshot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  /**
   * Bob's crew message, with its hover options shown as a pointer shows them: the UI Kit listens
   * for the pointer entering the bubble's body (not the row), and a bubble re-rendered under a
   * resting pointer gets no enter event, so the pointer comes from outside the list each time.
   */
  const hoveredCrewMessage = async () => {
    const article = page.locator('.contract-main').getByRole('article', { name: 'Bob, text message' });
    await page.mouse.move(0, 0);
    await article.getByText('Bob says hello to the crew').hover();
    return article;
  };
  /** Runs SDK calls in the page, on the SDK instance the UI Kit uses. */
  const sdk = <T>(call: () => Promise<T>) => page.evaluate(call);
  /** A file's bytes fetched in the page, from a URL the UI Kit shows. */
  const downloaded = async (url: string | null) =>
    Buffer.from(
      await page.evaluate(
        async (href) => [...new Uint8Array(await (await fetch(href ?? '')).arrayBuffer())],
        url,
      ),
    );
  const crewMessageId = async (text: string) => {
    const listed = await asUser('bob', 'GET', '/groups/crew/messages?limit=100');
    const found = (listed.body.data as { id: string; data: { text?: string } }[]).find(
      (message) => message.data.text === text,
    );
    if (found === undefined) throw new Error(`no message "${text}" in crew`);
    return found.id;
  };
  let image: Buffer;
  const checklist = Buffer.from('Preflight checklist\n1. Fuel\n2. Flaps\n');

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    [server, pages, browser] = await Promise.all([
      startContractServer(),
      startUiKitPageServer(),
      launchChromium({ ignoreCertificateErrors: true }),
    ]);
    const crew = { guid: 'crew', name: 'Crew', type: 'public', owner: 'alice' };
    expect(
      (await server.serverApi('POST', '/groups', { ...crew, members: { participants: ['bob'] } })).status,
    ).toBe(200);
    await asUser('bob', 'POST', '/messages', groupText('Bob says hello to the crew'));
    await asUser('bob', 'POST', '/messages', {
      receiver: 'alice',
      receiverType: 'user',
      category: 'message',
      type: 'text',
      data: { text: 'Bob, just to Alice' },
    });
    // Bob is online (his socket open) for as long as the file runs: the UI Kit shows his status.
    bobOnline = await connectClient(server.server, CONTRACT_APP, 'bob');
    image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    page = await browser.newPage({ viewport: { width: 1300, height: 850 }, acceptDownloads: true });
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400)
        errors.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    await page.goto(pages.url, { timeout: 90_000 });
    await page.evaluate(
      ([appId, host, authKey]) =>
        (window as unknown as { uikit: { start(...args: string[]): Promise<void> } }).uikit.start(
          appId,
          host,
          'alice',
          authKey,
        ),
      [CONTRACT_APP.appId, server.sdkHost, CONTRACT_APP.authKey] as const,
    );
  }, 120_000);

  afterAll(async () => {
    await bobOnline?.close();
    await browser?.close();
    await pages?.close();
    await server?.close();
  });

  it('renders every standard screen with what the server holds', async () => {
    await show({ name: 'conversations' });
    await page.getByText('Bob says hello to the crew').waitFor();
    await screenshot('01-conversations');
    await show({ name: 'users' });
    await page.getByText('Bob', { exact: true }).waitFor();
    await screenshot('02-users');
    await show({ name: 'groups' });
    await page.getByText('Crew', { exact: true }).waitFor();
    await screenshot('03-groups');
    await show({ name: 'members', guid: 'crew' });
    await page.getByText('Bob', { exact: true }).waitFor();
    await screenshot('04-members');
    await show({ name: 'search' });
    await page.getByText('Start Your Search').waitFor();
    await screenshot('05-search');
    await show({ name: 'conversation', guid: 'crew' });
    await page.getByText('Bob says hello to the crew').waitFor();
    await screenshot('06-conversation');
  });

  it('sends an image and a file from the composer, and both download back byte for byte', async () => {
    const main = page.locator('.contract-main');
    const attach = async (option: string, file: { name: string; mimeType: string; buffer: Buffer }) => {
      await main.getByRole('button', { name: 'ATTACHMENTS' }).click();
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('button', { name: option }).click(),
      ]);
      await chooser.setFiles(file);
      // The composer stages the file (presigned upload) and lets it be sent once it arrived.
      await main.locator('button[aria-label="SEND"]:not([disabled])').click();
    };
    await attach('Attach Image', { name: 'runway.png', mimeType: 'image/png', buffer: image });
    const picture = main
      .getByRole('article', { name: 'Alice, image message' })
      .locator('img[src*="/media/"]');
    await picture.waitFor();
    expect(await downloaded(await picture.getAttribute('src'))).toEqual(image);
    // The kit's presigned path gives the image what a multipart upload gets: its size and a thumbnail.
    const listed = await asUser('bob', 'GET', '/groups/crew/messages?limit=100');
    const sent = (
      listed.body.data as {
        type: string;
        data: {
          attachments: unknown[];
          metadata: { '@injected': { extensions: Record<string, { url_medium: string }> } };
        };
      }[]
    ).find((message) => message.type === 'image');
    expect(sent?.data.attachments[0]).toMatchObject({
      name: 'runway.png',
      metadata: { width: 64, height: 48 },
    });
    const thumbnail = await downloaded(
      sent?.data.metadata['@injected'].extensions['thumbnail-generation']?.url_medium ?? null,
    );
    expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'webp', width: 64, height: 48 });
    await attach('Attach File', { name: 'checklist.txt', mimeType: 'text/plain', buffer: checklist });
    const fileBubble = main.getByRole('article', { name: 'Alice, file message' });
    await fileBubble.getByText('checklist.txt').waitFor();
    await screenshot('07-attachments');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      fileBubble.getByRole('button', { name: /download/i }).click(),
    ]);
    expect(await readFile((await download.path()) ?? '')).toEqual(checklist);
  });

  it('replies in a thread from the message menu, and the reopened thread fetches the reply', async () => {
    const openThread = async () => {
      const parent = await hoveredCrewMessage();
      await parent.getByRole('button', { name: 'More options' }).click();
      await page.getByRole('menuitem', { name: 'Reply in thread' }).click();
      return page.locator('.contract-thread');
    };
    let thread = await openThread();
    await thread.locator('[contenteditable="true"]').click();
    await page.keyboard.type('Meet at the gate');
    await page.keyboard.press('Enter');
    await thread.getByText('Meet at the gate').waitFor();
    const parentId = await crewMessageId('Bob says hello to the crew');
    await expect
      .poll(async () => (await asUser('bob', 'GET', `/messages/${parentId}`)).body.data.replyCount)
      .toBe(1);
    await show({ name: 'conversation', guid: 'crew' });
    await page.locator('.contract-main').getByText('1 Reply').waitFor();
    thread = await openThread();
    await thread.getByText('Meet at the gate').waitFor();
    await screenshot('08-thread');
  });

  it('adds a reaction from the emoji keyboard and removes it from its chip', async () => {
    await show({ name: 'conversation', guid: 'crew' });
    const parentId = await crewMessageId('Bob says hello to the crew');
    const reactions = async () =>
      (
        (await asUser('bob', 'GET', `/messages/${parentId}/reactions`)).body.data as {
          uid: string;
          reaction: string;
        }[]
      ).map((reaction) => `${reaction.uid} ${reaction.reaction}`);
    const parent = await hoveredCrewMessage();
    await parent.getByRole('button', { name: 'React' }).click();
    await page.getByRole('gridcell', { name: 'partying' }).click();
    const chip = parent.getByRole('button', { name: /🥳/ });
    await chip.waitFor();
    await expect.poll(reactions).toEqual(['alice 🥳']);
    await screenshot('09-reaction');
    await chip.click();
    await chip.waitFor({ state: 'detached' });
    await expect.poll(reactions).toEqual([]);
  });

  it('blocks Bob through the SDK (no UI Kit screen offers it): the users list drops his status and lists him blocked, until he is unblocked', async () => {
    await show({ name: 'users' });
    const bobRow = page.getByRole('option', { name: /Bob/ });
    const online = bobRow.locator('[class*="status-indicator"], [class*="status--online"]');
    await online.first().waitFor();
    const blocked = () =>
      page.evaluate(async () => {
        const { CometChat } = window as unknown as SdkWindow;
        const list = await new CometChat.BlockedUsersRequestBuilder().setLimit(30).build().fetchNext();
        return list.map((user) => user.getUid());
      });
    await sdk(async () => {
      await (window as unknown as SdkWindow).CometChat.blockUsers(['bob']);
    });
    expect(await blocked()).toEqual(['bob']);
    await show({ name: 'users' });
    await bobRow.waitFor();
    expect(await online.count()).toBe(0);
    await screenshot('10-blocked');
    await sdk(async () => {
      await (window as unknown as SdkWindow).CometChat.unblockUsers(['bob']);
    });
    expect(await blocked()).toEqual([]);
    await show({ name: 'users' });
    await online.first().waitFor();
  });

  it('marks a message unread from its menu, and the conversations list and the SDK count what follows it', async () => {
    await show({ name: 'conversation', guid: 'crew' });
    const parent = await hoveredCrewMessage();
    await parent.getByRole('button', { name: 'More options' }).click();
    await page.getByRole('menuitem', { name: 'Mark Unread' }).click();
    const count = () =>
      sdk(
        async () =>
          (await (window as unknown as SdkWindow).CometChat.getUnreadMessageCountForGroup('crew')) as Record<
            string,
            number
          >,
      );
    await expect.poll(count).toEqual({ crew: 1 });
    await show({ name: 'conversations' });
    const crewRow = page.getByRole('option', { name: /Crew/ });
    await crewRow.getByText('1', { exact: true }).waitFor();
    await asUser('bob', 'POST', '/messages', groupText('Bob again: one more for the crew'));
    await crewRow.getByText('2', { exact: true }).waitFor();
    expect(await count()).toEqual({ crew: 2 });
    await screenshot('11-unread');
  });

  it('tags a conversation through the SDK (the UI Kit has no tagging screen) and lists only tagged conversations', async () => {
    await sdk(() =>
      (window as unknown as SdkWindow).CometChat.tagConversation('crew', 'group', ['ops']).then(
        () => undefined,
      ),
    );
    await show({ name: 'conversations', tags: ['ops'] });
    await page.getByRole('option', { name: /Crew/ }).waitFor();
    expect(await page.getByRole('option').count()).toBe(1);
    await screenshot('12-tagged');
  });

  it('searches messages by keyword and shows only the matches', async () => {
    await show({ name: 'search' });
    await page.getByRole('searchbox').or(page.getByPlaceholder('Search')).first().fill('gate');
    await page.getByText('Meet at the gate').first().waitFor();
    await screenshot('13-search');
    for (const other of [
      'Bob says hello to the crew',
      'Bob again: one more for the crew',
      'Bob, just to Alice',
    ])
      expect(await page.getByText(other).count()).toBe(0);
  });

  it('raised no page error on the way', () => {
    expect(errors).toEqual([]);
  });
});
