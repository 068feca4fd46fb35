import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_GROUP, DEMO_NAMESPACE, DEMO_OPERATOR } from '../../../server/demo/index.js';
import { buildPdf } from '../../knowledge/support/pdf.js';
import { launchChromium } from '../../support/browser.js';
import { MANUAL_PAGES, startChatsWindow, type ChatsWindow } from './support.js';
import { callServerApi } from '../../server/support.js';

const ARTIFACTS = join(import.meta.dirname, '..', '..', '.artifacts', 'chats');

const QUESTION = '@agent how much oil does the tail rotor gearbox hold?';

interface ApiMessage {
  id: string;
  sender: string;
  data: { text?: string; metadata?: { sources?: unknown[] } };
}

/**
 * The desktop app's bridge played in the page (Electron is not installed here), as the main
 * process answers with nothing set up: no Chats connection until "Use the local demo", which reads
 * the demo's connection where `parley start` serves it, as the main process does
 * (desktop/main/demo-connection.ts), and answers with the settings view, never the key.
 */
function installDesktopWithoutChats(): void {
  let connection: unknown = null;
  Object.assign(window, {
    parleyDesktop: {
      appInfo: async () => ({
        name: 'Parley',
        version: '0.1.0',
        platform: 'linux',
        agentUrl: `${location.origin}/api`,
        dataDir: '/home/ana/.config/Parley/data',
      }),
      chatConnection: async () => connection,
      useLocalDemoChat: async () => {
        connection = await (await fetch('/chat-connection.json')).json();
        return {};
      },
    },
  });
}

/**
 * The Chats section of the knowledge app window in Chromium, as `parley start` sets it up: the
 * real chat service over TLS with the demo seeded, the real agent answering from a PDF, and the
 * built window served by the agent with the demo's connection. The steps run in order on one page.
 */
describe('Chats in the knowledge app window', () => {
  let chats: ChatsWindow;
  let chat: ChatsWindow['chat'];
  let page: Page;
  let apiKey: string;
  const errors: string[] = [];

  const screenshot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  const serverApi = async (method: string, path: string, body?: unknown, onBehalfOf?: string) =>
    (await callServerApi(chat.url, { apiKey }, method, path, { body, onBehalfOf })).body as { data: unknown };
  /** `uid` posts `text` to the demo group through the REST API. */
  const postToGroup = (uid: string, text: string) =>
    serverApi(
      'POST',
      '/messages',
      { receiver: DEMO_GROUP.guid, receiverType: 'group', category: 'message', type: 'text', data: { text } },
      uid,
    );
  const groupMessages = async () =>
    (await serverApi('GET', `/groups/${DEMO_GROUP.guid}/messages?limit=100`)).data as ApiMessage[];
  const composer = () => page.locator('.chats-conversation [contenteditable="true"]').first();
  const send = async (text: string) => {
    await composer().click();
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  };
  const bubble = (text: string | RegExp) =>
    page.locator('.chats-conversation').getByText(text, { exact: false }).last();

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    chats = await startChatsWindow();
    chat = chats.chat;
    apiKey = chat.seeded.apiKey;
    const manual = join(chats.config.uploadDir, 'rotor-manual.pdf');
    await writeFile(
      manual,
      await buildPdf(
        MANUAL_PAGES.map((lines) => ({ lines })),
        { title: 'Tail rotor manual' },
      ),
    );
    await chats.engine.ingest(DEMO_NAMESPACE, [{ kind: 'file', path: manual }]);
    page = await chats.browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    await chats?.close();
  });

  it('opens Chats signed in as the operator and shows the demo group', async () => {
    await page.goto(chats.url);
    await page.getByRole('link', { name: 'Chats' }).click();
    await page.getByText(`Signed in as ${DEMO_OPERATOR.name}`).waitFor();
    await page.getByRole('tab', { name: 'Groups' }).click();
    await page.locator('.chats-lists').getByText(DEMO_GROUP.name).first().click();
    await page.locator('.chats-conversation').getByText(DEMO_GROUP.name).first().waitFor();
    await composer().waitFor();
    await screenshot('01-demo-group');
  });

  it('hides the call buttons', async () => {
    expect(await page.locator('.chats-conversation').getByRole('button', { name: /call/i }).count()).toBe(0);
  });

  it('sends a message that the chat service keeps', async () => {
    await send('Good morning from the operator');
    await bubble('Good morning from the operator').waitFor();
    await expect
      .poll(async () => (await groupMessages()).map((message) => message.data.text), { timeout: 20_000 })
      .toContain('Good morning from the operator');
    await screenshot('02-sent');
  });

  it("shows another user's message, sent over REST, as it arrives", async () => {
    await postToGroup('alice', 'Alice here: is the hangar open?');
    await bubble('Alice here: is the hangar open?').waitFor();
    await screenshot('03-realtime');
  });

  it("shows the agent's answer to @agent with its sources", async () => {
    await send(QUESTION);
    const sources = page.locator('.chat-sources').last();
    await sources.waitFor({ timeout: 60_000 });
    await bubble('0.4 litres').waitFor();
    expect(await sources.locator('.source-title').first().textContent()).toBe('Tail rotor manual');
    expect(await sources.locator('.pill').first().textContent()).toBe('page 3');
    await screenshot('04-agent-answer');
  });

  it('opens a cited source in the document viewer at its page', async () => {
    await page.locator('.chat-sources').last().getByRole('button').first().click();
    const viewer = page.getByRole('dialog', { name: 'Tail rotor manual' });
    await viewer.locator('[data-rendered-page="3"]').waitFor();
    expect(await viewer.getByText('Page 3 of 5').isVisible()).toBe(true);
    await screenshot('05-viewer');
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'hidden' });
  });

  it('keeps the agent silent on the next mention once the operator takes over', async () => {
    await page.getByRole('button', { name: 'Take over' }).click();
    await page.getByRole('button', { name: 'Give back to agent' }).waitFor();
    expect(
      (await chat.agents.takeovers.get(chat.seeded.app.appId, 'knowledge', `group_${DEMO_GROUP.guid}`))
        .takenOver,
    ).toBe(true);
    const before = (await groupMessages()).filter((message) => message.sender === 'knowledge').length;
    await send('@agent how often is the gearbox oil changed?');
    await bubble('how often is the gearbox oil changed?').waitFor();
    await expect
      .poll(async () =>
        (await groupMessages()).some((m) => /how often is the gearbox/.test(m.data.text ?? '')),
      )
      .toBe(true);
    await chat.agents.bridge.idle();
    expect((await groupMessages()).filter((message) => message.sender === 'knowledge')).toHaveLength(before);
    await screenshot('06-taken-over');
  });

  it('gives the conversation back, and the agent answers the next mention again', async () => {
    await page.getByRole('button', { name: 'Give back to agent' }).click();
    await page.getByRole('button', { name: 'Take over' }).waitFor();
    const before = (await groupMessages()).filter((message) => message.sender === 'knowledge').length;
    await send(QUESTION);
    await expect
      .poll(async () => (await groupMessages()).filter((message) => message.sender === 'knowledge').length, {
        timeout: 60_000,
      })
      .toBe(before + 1);
    await screenshot('07-given-back');
    expect(errors).toEqual([]);
  });

  it('asks for the connection where none is served, and keeps its key in memory only unless remembered', async () => {
    const served = chats.connection;
    if (served?.authKey === undefined) throw new Error('the demo connection has no auth key');
    chats.connection = undefined;
    const context = await chats.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const tab = await context.newPage();
      await tab.goto(`${chats.url}#/chats`);
      await tab.getByRole('heading', { name: 'Connect to a chat service' }).waitFor();
      await tab.getByLabel('App ID').fill(served.appId);
      await tab.getByLabel('Operator UID').fill(served.operatorUid);
      await tab.getByLabel(/^Host/).fill(served.host ?? '');
      await tab.getByLabel('Auth key').fill(served.authKey);
      await tab.screenshot({ path: join(ARTIFACTS, '08-connect-form.png') });
      await tab.getByRole('button', { name: 'Connect' }).click();
      await tab.getByText(`Signed in as ${DEMO_OPERATOR.name}`).waitFor();
      expect(await tab.evaluate(() => JSON.stringify(localStorage))).not.toContain(served.authKey);
      await tab.reload();
      await tab.getByRole('heading', { name: 'Connect to a chat service' }).waitFor();
    } finally {
      await context.close();
      chats.connection = served;
    }
  });

  it('in the desktop app with nothing set up, signs in from the local demo in one click', async () => {
    const context = await chats.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      await context.addInitScript(installDesktopWithoutChats);
      const tab = await context.newPage();
      tab.setDefaultTimeout(20_000);
      await tab.goto(`${chats.url}#/chats`);
      await tab.getByRole('heading', { name: 'Set up Chats' }).waitFor();
      await tab.screenshot({ path: join(ARTIFACTS, '09-set-up-chats.png') });
      await tab.getByRole('button', { name: 'Use the local demo' }).click();
      await tab.getByText(`Signed in as ${DEMO_OPERATOR.name}`).waitFor();
      await tab.getByRole('tab', { name: 'Groups' }).click();
      await tab.locator('.chats-lists').getByText(DEMO_GROUP.name).first().waitFor();
      await tab.screenshot({ path: join(ARTIFACTS, '10-local-demo.png') });
    } finally {
      await context.close();
    }
  });

  it('in a plain browser on this computer, shows the demo group with no certificate step, talking plain http to the chat service', async () => {
    // No --ignore-certificate-errors and no click-through: the browser trusts nothing it is not told to.
    const plainBrowser = await launchChromium();
    try {
      const tab = await plainBrowser.newPage({ viewport: { width: 1400, height: 900 } });
      tab.setDefaultTimeout(20_000);
      const toChat: string[] = [];
      tab.on('request', (request) => {
        if (new URL(request.url()).port === String(chat.port)) toChat.push(request.url());
      });
      const sockets: string[] = [];
      tab.on('websocket', (socket) => sockets.push(socket.url()));
      await tab.goto(`${chats.url}#/chats`);
      await tab.getByText(`Signed in as ${DEMO_OPERATOR.name}`).waitFor();
      await tab.getByRole('tab', { name: 'Groups' }).click();
      await tab.locator('.chats-lists').getByText(DEMO_GROUP.name).first().click();
      const tabComposer = tab.locator('.chats-conversation [contenteditable="true"]').first();
      await tabComposer.click();
      await tab.keyboard.type('Sent from a plain browser');
      await tab.keyboard.press('Enter');
      await expect
        .poll(async () => (await groupMessages()).map((message) => message.data.text), { timeout: 20_000 })
        .toContain('Sent from a plain browser');
      await postToGroup('bob', 'Bob here: the browser sees this live');
      await tab.locator('.chats-conversation').getByText('Bob here: the browser sees this live').waitFor();
      await tab.screenshot({ path: join(ARTIFACTS, '11-plain-browser.png') });
      expect(toChat.length).toBeGreaterThan(0);
      expect(toChat.filter((url) => !url.startsWith(`http://localhost:${chat.port}/`))).toEqual([]);
      expect(sockets.length).toBeGreaterThan(0);
      expect(sockets.filter((url) => !url.startsWith(`ws://localhost:${chat.port}/`))).toEqual([]);
    } finally {
      await plainBrowser.close();
    }
  });

  it('in a plain browser, asks to accept the certificate of a chat host elsewhere once, then connects', async () => {
    const served = chats.connection;
    if (served === undefined) throw new Error('no demo connection');
    // A chat host by name, not on loopback: it keeps TLS, so the browser must trust its certificate.
    chats.connection = { ...served, host: `chat.parley.test:${chat.port}` };
    const plainBrowser = await launchChromium({ resolveAllHostsToLoopback: true });
    try {
      const context = await plainBrowser.newContext({ viewport: { width: 1400, height: 900 } });
      const tab = await context.newPage();
      tab.setDefaultTimeout(20_000);
      await tab.goto(`${chats.url}#/chats`);
      await tab.getByText('Chats could not connect.').waitFor();
      await tab.screenshot({ path: join(ARTIFACTS, '12-certificate-not-trusted.png') });
      const [certificatePage] = await Promise.all([
        context.waitForEvent('page'),
        tab.getByRole('link', { name: `open https://chat.parley.test:${chat.port}/` }).click(),
      ]);
      // Chromium's own warning page: Advanced, then Proceed, as its user would.
      await certificatePage.locator('#details-button').click();
      await certificatePage.locator('#proceed-link').click();
      await certificatePage.getByText('ERR_API_NOT_FOUND').waitFor();
      await tab.bringToFront();
      await tab.getByRole('button', { name: 'Try again' }).click();
      await tab.getByText(`Signed in as ${DEMO_OPERATOR.name}`).waitFor();
      await tab.getByRole('tab', { name: 'Groups' }).click();
      await tab.locator('.chats-lists').getByText(DEMO_GROUP.name).first().click();
      await postToGroup('bob', 'Bob here: over TLS, once trusted');
      await tab.locator('.chats-conversation').getByText('Bob here: over TLS, once trusted').waitFor();
      await tab.screenshot({ path: join(ARTIFACTS, '13-certificate-accepted.png') });
    } finally {
      await plainBrowser.close();
      chats.connection = served;
    }
  });
});
