import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnowledgeEngine } from '../../../knowledge/index.js';
import {
  agentConfigFromEnv,
  openAgentEngine,
  startAgentServer,
  type RunningAgentServer,
} from '../../../knowledge/server/index.js';
import { ChatService } from '../../widget/support/chat-service.js';
import { launchChromium } from '../../support/browser.js';
import { buildWidgetScript } from './support/bundle.js';
import { PageServer } from './support/page-server.js';
import { serveEmbedPage } from './support/pages.js';

const NAMESPACE = 'handbook';
const HANDBOOK = `<!doctype html><html lang="en"><head><title>Office handbook</title></head><body>
<h1>Office handbook</h1>
<h2>Parking</h2><p>Visitors park in the north garage on level two. The garage opens at seven in the morning.</p>
<h2>Coffee</h2><p>The espresso machine on the third floor is descaled every Friday afternoon.</p>
</body></html>`;

let dir: string;
let browser: Browser;
let pages: PageServer;
let service: ChatService;
let engine: KnowledgeEngine;
let agent: RunningAgentServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-widget-agent-'));
  const [built, launched] = await Promise.all([buildWidgetScript(), launchChromium()]);
  browser = launched;
  pages = await new PageServer(built.script).start();
  pages.pages.set('/handbook.html', { body: HANDBOOK });
  // A real knowledge agent with the handbook ingested from its page, so citations carry its URL.
  const config = agentConfigFromEnv({}, join(dir, 'agent'));
  engine = await openAgentEngine(join(dir, 'agent'), config, { allowPrivateNetwork: true });
  await engine.ingest(NAMESPACE, [{ kind: 'url', url: `${pages.origin}/handbook.html` }]);
  agent = await startAgentServer({ config, backend: engine, host: '127.0.0.1', port: 0 });
  service = await ChatService.start();
  await service.registerAgent(`${agent.apiUrl}/agents/knowledge/generate`, NAMESPACE);
});
afterAll(async () => {
  await browser?.close();
  await pages?.stop();
  await service?.close();
  await agent?.close();
  await engine?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the knowledge agent in the widget', () => {
  it('answers "@agent <question>" in a group with Markdown and a Sources section linking the page', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await page.goto(
      serveEmbedPage(pages, '/agent', {
        host: service.url,
        uid: 'alice',
        launch: { targetElementID: 'chat', height: '640px', chatType: 'group', defaultChatID: 'support' },
      }),
    );
    const composer = page.locator('parley-composer textarea');
    await composer.fill('@agent where do visitors park?');
    await composer.press('Enter');
    const answer = page
      .locator('parley-message', { has: page.getByText('Knowledge Agent', { exact: true }) })
      .last();
    await answer
      .getByText(/north garage/i)
      .first()
      .waitFor();
    const sources = answer.getByRole('region', { name: 'Sources' });
    const link = sources.getByRole('link', { name: /Office handbook/ });
    expect(await link.getAttribute('href')).toBe(`${pages.origin}/handbook.html`);
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    await context.close();
  });
});
