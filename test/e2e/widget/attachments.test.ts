import { randomBytes } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { API_KEY, APP_ID } from '../../widget/support/chat-service.js';
import { NetworkProxy } from '../../widget/support/network-proxy.js';
import { useWidgetHarness } from './support/harness.js';
import { seriousAxeViolations } from './support/axe.js';
import { serveEmbedPage } from './support/pages.js';

const widget = useWidgetHarness();
const SUPPORT = { type: 'group', id: 'support' } as const;
let photo: Buffer;
let pageCount = 0;

beforeAll(async () => {
  // Noise compresses badly, so the picture is large enough for a throttled upload to show its progress.
  const noise = randomBytes(240 * 180 * 3);
  photo = await sharp(noise, { raw: { width: 240, height: 180, channels: 3 } })
    .png()
    .toBuffer();
});

interface VisitOptions {
  /** Response headers of the page, e.g. its CSP. */
  headers?: Record<string, string>;
  /** Runs before the page loads. */
  prepare?: (page: Page) => Promise<void>;
  /** Where the widget reaches the chat service (a slow proxy in front of it). */
  host?: string;
}

/** A visitor's own browser profile with the support group open, optionally under a page CSP. */
async function visitor(
  uid: string,
  { headers = {}, prepare, host = widget.service.url }: VisitOptions = {},
): Promise<Page> {
  const { page } = await widget.newPage();
  await prepare?.(page);
  const options = {
    host,
    uid,
    launch: {
      targetElementID: 'chat',
      width: '900px',
      height: '700px',
      chatType: 'group',
      defaultChatID: 'support',
    },
  };
  await page.goto(serveEmbedPage(widget.pages, `/attachments-${++pageCount}`, options, headers));
  await page.locator('parley-thread parley-composer textarea').waitFor();
  return page;
}

const conversation = (page: Page) => page.getByRole('log', { name: 'Messages with Support Team' });
const toSend = (page: Page) => page.getByRole('list', { name: 'Files to send' });

/** Slows this page's uploads (Chromium's own network throttling) so their progress can be watched. */
async function throttleUploads(page: Page, bytesPerSecond: number, latencyMs = 0): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: latencyMs,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

/** Records every value the upload's progress bar shows, frame by frame. */
async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { progressSeen: number[] }).progressSeen = seen;
    const find = (root: Document | ShadowRoot): HTMLProgressElement | null => {
      const here = root.querySelector('progress');
      if (here) return here;
      for (const element of root.querySelectorAll('*')) {
        const found = element.shadowRoot ? find(element.shadowRoot) : null;
        if (found) return found;
      }
      return null;
    };
    const sample = () => {
      const bar = find(document);
      if (bar && seen.at(-1) !== bar.value) seen.push(bar.value);
      requestAnimationFrame(sample);
    };
    sample();
  });
}

/** Files in the page, made from bytes, as a user's clipboard or a drag from the desktop carries them. */
async function dataTransfer(page: Page, files: { name: string; type: string; text: string }[]) {
  return page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const file of list) transfer.items.add(new File([file.text], file.name, { type: file.type }));
    return transfer;
  }, files);
}

/** Pastes files into the composer, as Ctrl+V with files on the clipboard does. */
async function paste(page: Page, files: { name: string; type: string; text: string }[]): Promise<void> {
  const transfer = await dataTransfer(page, files);
  await page
    .locator('parley-thread parley-composer textarea')
    .evaluate(
      (textarea, clipboardData) =>
        textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, composed: true })),
      transfer,
    );
}

async function storedFiles(): Promise<string[]> {
  const entries = await readdir(widget.service.mediaDir, { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

async function messagesOfSupport(): Promise<{ category: string; type: string }[]> {
  const response = await fetch(`${widget.service.url}/v3/groups/support/messages?per_page=100`, {
    headers: { apikey: API_KEY, appid: APP_ID },
  });
  return ((await response.json()) as { data: { category: string; type: string }[] }).data;
}

describe('sending files from the widget', () => {
  it('attaches an image with the keyboard, previews it, shows the upload up to 100 % and the image in the space its size reserves', async () => {
    const alice = await visitor('alice');
    await throttleUploads(alice, 100_000, 800);
    const attach = alice.getByRole('button', { name: 'Attach files' });
    const [chooser] = await Promise.all([alice.waitForEvent('filechooser'), attach.press('Enter')]);
    await chooser.setFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: photo });
    const preview = toSend(alice).getByRole('listitem');
    await preview.getByText('harbour.png').waitFor();
    await preview.getByText(/kB$/).waitFor();
    expect(await preview.locator('img').getAttribute('src')).toMatch(/^blob:/);

    await recordProgress(alice);
    await alice.locator('parley-thread parley-composer textarea').press('Enter');
    const image = conversation(alice)
      .getByRole('link', { name: /harbour\.png/ })
      .locator('img');
    await image.waitFor({ timeout: 30_000 });
    const seen = await alice.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
    expect(seen.at(-1)).toBe(100);
    expect(seen.some((value) => value > 0 && value < 100)).toBe(true);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));

    expect(await image.getAttribute('loading')).toBe('lazy');
    expect(await image.getAttribute('width')).toBe('240');
    expect(await image.getAttribute('height')).toBe('180');
    expect(await image.getAttribute('src')).toContain('.thumbnail.webp');
    const box = (await image.boundingBox())!;
    expect(box.height).toBeCloseTo((box.width * 180) / 240, 0);
    const full = await conversation(alice)
      .getByRole('link', { name: /harbour\.png/ })
      .getAttribute('href');
    const original = await fetch(full!);
    expect(Buffer.from(await original.arrayBuffer()).equals(photo)).toBe(true);
  });

  it('attaches by paste and by drop, and each sent file downloads byte for byte', async () => {
    const alice = await visitor('alice');
    const notes = [{ name: 'notes.txt', type: 'text/plain', text: 'paste me' }];
    await paste(alice, notes);
    const dropped = await dataTransfer(alice, [{ name: 'data.csv', type: 'text/csv', text: 'a,b\n1,2\n' }]);
    await conversation(alice).dispatchEvent('drop', { dataTransfer: dropped });
    await toSend(alice).getByText('notes.txt').waitFor();
    await toSend(alice).getByText('data.csv').waitFor();
    await toSend(alice).getByRole('button', { name: 'Remove notes.txt' }).press('Enter');
    await toSend(alice).getByText('notes.txt').waitFor({ state: 'detached' });
    // The Remove button went away with its file: the composer takes the focus back to its text box.
    const box = alice.getByRole('combobox', { name: 'Message' });
    await expect.poll(() => box.evaluate((element) => element.matches(':focus'))).toBe(true);
    await paste(alice, notes);
    await toSend(alice).getByText('notes.txt').waitFor();
    await alice.getByRole('button', { name: 'Send' }).click();

    for (const [name, text] of [
      ['data.csv', 'a,b\n1,2\n'],
      ['notes.txt', 'paste me'],
    ] as const) {
      const link = conversation(alice).getByRole('link', { name: new RegExp(name.replace('.', '\\.')) });
      await link.waitFor({ timeout: 30_000 });
      const [download] = await Promise.all([alice.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe(name);
      expect(await readFile((await download.path())!, 'utf8')).toBe(text);
    }
  });

  it('a file link clicked after its signed URL expired fetches its message again, then downloads the file', async () => {
    const sent = await widget.service.sendFilesAs('carol', SUPPORT, 'file', [
      { name: 'agenda.txt', bytes: new TextEncoder().encode('agenda for monday') },
    ]);
    type Shifted = Window & { clockAhead: number };
    const alice = await visitor('alice', {
      // The page's clock can be moved on, as hours pass for a page left open.
      prepare: async (page) => {
        await page.addInitScript(() => {
          const real = Date.now.bind(Date);
          (window as unknown as Shifted).clockAhead = 0;
          Date.now = () => real() + (window as unknown as Shifted).clockAhead;
        });
      },
    });
    const link = conversation(alice).getByRole('link', { name: /agenda\.txt/ });
    await link.waitFor();
    const expires = Number(new URL((await link.getAttribute('href'))!).searchParams.get('expires'));
    await alice.evaluate(
      (ahead) => {
        (window as unknown as Shifted).clockAhead = ahead;
      },
      expires * 1000 - Date.now() + 60_000,
    );
    const refetched = alice.waitForRequest(
      (request) =>
        request.method() === 'GET' && new URL(request.url()).pathname === `/v3/messages/${sent.id}`,
    );
    const [download] = await Promise.all([alice.waitForEvent('download'), link.click()]);
    await refetched;
    expect(await readFile((await download.path())!, 'utf8')).toBe('agenda for monday');
  });

  it('cancelling an upload leaves no message and no file on the service', async () => {
    const slowUplink = await new NetworkProxy(widget.service.port, 20_000).start();
    onTestFinished(() => slowUplink.stop());
    const alice = await visitor('alice', { host: slowUplink.url });
    const [chooser] = await Promise.all([
      alice.waitForEvent('filechooser'),
      alice.getByRole('button', { name: 'Attach files' }).click(),
    ]);
    await chooser.setFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: photo });
    await alice.getByRole('button', { name: 'Send' }).click();
    const bar = alice.getByRole('progressbar', { name: 'Sending harbour.png' });
    await expect
      .poll(async () => Number(await bar.getAttribute('value')), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await alice.getByRole('button', { name: 'Cancel sending harbour.png' }).press('Enter');
    await bar.waitFor({ state: 'detached' });
    const box = alice.getByRole('combobox', { name: 'Message' });
    await expect.poll(() => box.evaluate((element) => element.matches(':focus'))).toBe(true);
    // Nothing is made of the aborted request: no message (not even a deleted one), no file.
    await expect.poll(() => storedFiles()).toEqual([]);
    expect((await messagesOfSupport()).filter((m) => m.category === 'message')).toEqual([]);
    expect(await conversation(alice).getByRole('img').count()).toBe(0);
  });

  it('shows the limit a too large upload broke and the file of a type the service does not accept', async () => {
    const limit = await fetch(`${widget.service.url}/v3/client-settings`, {
      method: 'PATCH',
      headers: { apikey: API_KEY, appid: APP_ID, 'content-type': 'application/json' },
      body: JSON.stringify({ maxUploadBytes: 4000 }),
    });
    expect(limit.status).toBe(200);
    const alice = await visitor('alice');
    const textarea = alice.locator('parley-thread parley-composer textarea');
    await paste(alice, [{ name: 'big.txt', type: 'text/plain', text: 'x'.repeat(9000) }]);
    // A pasted file waits to be sent once the code for sending files has loaded: Enter sends it then.
    await toSend(alice).getByText('big.txt').waitFor();
    await textarea.press('Enter');
    await alice
      .getByRole('alert')
      .getByText('Not sent: the files of a message may have 4 kB together, and big.txt have more.')
      .waitFor();
    await alice.getByRole('button', { name: 'Dismiss' }).click();
    await alice.getByRole('alert').waitFor({ state: 'detached' });

    await paste(alice, [{ name: 'setup.exe', type: 'application/octet-stream', text: 'MZ' }]);
    await toSend(alice).getByText('setup.exe').waitFor();
    await textarea.press('Enter');
    await alice
      .getByRole('alert')
      .getByText('Not sent: files like setup.exe are not accepted here.')
      .waitFor();
    expect(await storedFiles()).toEqual([]);
  });
});

describe('unread messages in the widget', () => {
  it('puts "New messages" above the first message alice had not read when she opens the conversation', async () => {
    await widget.service.sendAs('carol', SUPPORT, { data: { text: 'Read this first' } });
    // Alice read the conversation up to here (on another device).
    const { authToken } = await widget.service.admin.createAuthToken('alice');
    const read = await fetch(`${widget.service.url}/v3/groups/support/conversation/read`, {
      method: 'POST',
      headers: { appid: APP_ID, authtoken: authToken, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(read.status).toBe(200);
    await widget.service.sendAs('carol', SUPPORT, { data: { text: 'Then this one' } });
    await widget.service.sendAs('bob', SUPPORT, { data: { text: 'And this' } });

    const alice = await visitor('alice');
    await conversation(alice).getByText('And this').waitFor();
    const order = await conversation(alice)
      .locator('h3, parley-message')
      .evaluateAll((nodes) =>
        nodes.map((node) => (node.shadowRoot ?? node).textContent?.replace(/\s+/g, ' ').trim() ?? ''),
      );
    const separator = order.indexOf('New messages');
    expect(separator).toBeGreaterThan(0);
    expect(order[separator - 1]).toContain('Read this first');
    expect(order[separator + 1]).toContain('Then this one');
  });
});

describe('media in the widget, accessible and under a strict CSP', () => {
  /** A page where alice sees an image and a file carol sent, and has a picture waiting to be sent. */
  async function mediaScene(
    headers: Record<string, string> = {},
    prepare?: (page: Page) => Promise<void>,
  ): Promise<Page> {
    await widget.service.sendFilesAs('carol', SUPPORT, 'image', [{ name: 'harbour.png', bytes: photo }]);
    await widget.service.sendFilesAs('carol', SUPPORT, 'file', [
      { name: 'agenda.pdf', bytes: new TextEncoder().encode('%PDF-1.4 agenda') },
    ]);
    const alice = await visitor('alice', { headers, prepare });
    await conversation(alice)
      .getByRole('link', { name: /agenda\.pdf/ })
      .waitFor();
    const [chooser] = await Promise.all([
      alice.waitForEvent('filechooser'),
      alice.getByRole('button', { name: 'Attach files' }).click(),
    ]);
    await chooser.setFiles({ name: 'draft.png', mimeType: 'image/png', buffer: photo });
    await toSend(alice).getByText('draft.png').waitFor();
    await expect
      .poll(() =>
        conversation(alice)
          .locator('img')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    return alice;
  }

  it("shows images, files and a preview under script-src 'self' and style-src 'self' without a violation", async () => {
    const api = new URL(widget.service.url);
    const csp = [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      `img-src 'self' data: blob: ${api.origin}`,
      `media-src ${api.origin}`,
      `connect-src 'self' ${api.origin} ws://${api.host}`,
    ].join('; ');
    const violations: string[] = [];
    const alice = await mediaScene({ 'content-security-policy': csp }, async (page) => {
      page.on('console', (entry) => {
        if (/Content Security Policy/i.test(entry.text())) violations.push(entry.text());
      });
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
        });
      });
    });
    await toSend(alice)
      .locator('img')
      .evaluate((img: HTMLImageElement) => img.decode());
    expect(violations).toEqual([]);
  });

  it('has no serious axe violation with an image, a file and files waiting to be sent', async () => {
    const alice = await mediaScene();
    expect(await seriousAxeViolations(alice)).toEqual([]);
  });
});
