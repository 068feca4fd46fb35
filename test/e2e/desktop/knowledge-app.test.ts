import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NamespaceList } from '../../../shared/agent.js';
import { buildPdf } from '../../knowledge/support/pdf.js';
import { launchChromium } from '../../support/browser.js';
import { MANUAL_PAGES, startWindowServer, type WindowServer } from './support.js';

const ARTIFACTS = join(import.meta.dirname, '..', '..', '.artifacts', 'desktop');

const SAFETY_NOTES = `# Hangar safety

## Fire extinguishers

Foam extinguishers stand beside every hangar door and are inspected monthly by the duty engineer.

## Ladders

Ladders are tied off before anyone climbs onto a rotor head.
`;

/**
 * The knowledge app window in Chromium against the real agent server serving the built window:
 * the steps run in order on one page, as a person would take them, and each screen is saved.
 */
describe('knowledge app window', () => {
  let server: WindowServer;
  let browser: Browser;
  let page: Page;
  let files: string;
  const errors: string[] = [];

  const screenshot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWindowServer(), launchChromium()]);
    files = join(ARTIFACTS, 'files');
    await mkdir(files, { recursive: true });
    await writeFile(
      join(files, 'rotor-manual.pdf'),
      await buildPdf(
        MANUAL_PAGES.map((lines) => ({ lines })),
        { title: 'Tail rotor manual' },
      ),
    );
    await writeFile(join(files, 'hangar-safety.md'), SAFETY_NOTES);
    await writeFile(join(files, 'scanned-logbook.pdf'), await buildPdf([{ drawing: true }]));
    page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('starts on a plain-words empty state', async () => {
    await page.goto(server.url);
    await page.getByRole('heading', { name: 'Your documents, searchable and answerable' }).waitFor();
    // The heading renders before the namespace list has loaded: wait for the empty state itself.
    await page.getByText('There are no namespaces yet.').waitFor({ state: 'visible' });
    await screenshot('01-home-empty');
  });

  it('creates a namespace from the dialog, refusing a bad name first', async () => {
    await page.getByRole('button', { name: 'Create a namespace' }).click();
    const dialog = page.getByRole('dialog', { name: 'New namespace' });
    await dialog.getByLabel('Name').fill('Rotor Manuals');
    await dialog.getByRole('button', { name: 'Create namespace' }).click();
    await dialog.getByText('Use lower-case letters only.').waitFor();
    await dialog.getByLabel('Name').fill('manuals');
    await screenshot('02-create-namespace');
    await dialog.getByRole('button', { name: 'Create namespace' }).click();
    await page.getByRole('heading', { name: 'manuals', level: 1 }).waitFor();
    expect(page.url()).toMatch(/#\/ns\/manuals\/sources$/);
    await page.getByRole('link', { name: /manuals\s+0 documents · 0 passages/ }).waitFor();
  });

  it('uploads a 5-page PDF and a Markdown file and shows each reaching indexed', async () => {
    await page
      .getByTestId('file-input')
      .setInputFiles([join(files, 'rotor-manual.pdf'), join(files, 'hangar-safety.md')]);
    const rows = page.locator('.source-row');
    await page.locator('.source-row[data-state="indexed"]').nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    expect(
      await page
        .getByRole('progressbar', { name: 'rotor-manual.pdf progress' })
        .getAttribute('aria-valuenow'),
    ).toBe('100');
    expect(await rows.filter({ hasText: 'rotor-manual.pdf' }).textContent()).toMatch(
      /Tail rotor manual.*Indexed · \d+ passage/,
    );
    expect(await rows.filter({ hasText: 'hangar-safety.md' }).textContent()).toMatch(
      /Hangar safety.*Indexed/,
    );
    await page.getByRole('link', { name: /manuals\s+2 documents/ }).waitFor();
  });

  it('says in plain words why a scanned PDF could not be added', async () => {
    await page.getByTestId('file-input').setInputFiles([join(files, 'scanned-logbook.pdf')]);
    const failed = page.locator('.source-row[data-state="failed"]');
    await failed.waitFor();
    expect(await failed.locator('.source-status').textContent()).toMatch(
      /^Failed: .*no extractable text.*scanned/i,
    );
    await page.getByRole('status').getByText('The source could not be added.').waitFor();
    await screenshot('03-sources-progress');
  });

  it('lists the documents with type, pages and passages', async () => {
    await page.getByRole('link', { name: 'Documents', exact: true }).click();
    const manual = page.getByRole('row', { name: /Tail rotor manual/ });
    await manual.waitFor();
    const cells = await manual.getByRole('cell').allTextContents();
    expect(cells[1]).toBe('PDF');
    expect(cells[3]).toBe('5');
    expect(Number(cells[4])).toBeGreaterThan(0);
    expect(
      await page
        .getByRole('row', { name: /Hangar safety/ })
        .getByRole('cell')
        .nth(1)
        .textContent(),
    ).toBe('Markdown');
    await screenshot('04-documents');
  });

  it('finds the page a passage is on, with the search terms highlighted', async () => {
    await page.getByRole('link', { name: 'Search', exact: true }).click();
    await page.getByRole('searchbox').fill('gearbox oil');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const best = page.locator('.result').first();
    await best.waitFor();
    expect(await best.locator('.result-title').textContent()).toBe('Tail rotor manual');
    expect(await best.locator('.pill').textContent()).toBe('page 3');
    expect(await best.locator('mark').allTextContents()).toEqual(expect.arrayContaining(['gearbox', 'oil']));
    await screenshot('05-search');
  });

  it('streams an answer whose citation opens the PDF viewer on the cited page, passage highlighted', async () => {
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    await page.getByLabel('Your question').fill('How much oil does the tail rotor gearbox hold?');
    await page.getByLabel('Your question').press('Enter');
    const answer = page.locator('.exchange').last();
    await answer.locator('.sources-list').waitFor();
    expect(await answer.locator('.answer-text').textContent()).toContain('0.4 litres');
    await screenshot('06-chat');
    await answer
      .getByRole('button', { name: /^Source \d+: Tail rotor manual, page 3$/ })
      .first()
      .click();
    const viewer = page.getByRole('dialog', { name: 'Tail rotor manual' });
    await viewer.locator('[data-rendered-page="3"]').waitFor();
    expect(await viewer.getByText('Page 3 of 5').isVisible()).toBe(true);
    expect(await viewer.locator('.textLayer .cited').allTextContents()).toContain(
      'The tail rotor gearbox holds 0.4 litres of synthetic turbine oil.',
    );
    await screenshot('07-viewer-pdf');
    await page.keyboard.press('ArrowRight');
    await viewer.locator('[data-rendered-page="4"]').waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });
  });

  it('opens a Markdown source from the Sources list at the cited heading', async () => {
    await page.getByLabel('Your question').fill('Where do the foam extinguishers stand?');
    await page.getByRole('button', { name: 'Ask' }).click();
    const answer = page.locator('.exchange').last();
    await answer.locator('.sources-list').waitFor();
    await answer
      .locator('.sources-list')
      .getByRole('button', { name: /Hangar safety/ })
      .first()
      .click();
    const viewer = page.getByRole('dialog', { name: 'Hangar safety' });
    const cited = viewer.locator('.text-document .cited');
    await cited.first().waitFor();
    expect(await cited.first().textContent()).toContain('Foam extinguishers stand beside every hangar door');
    expect(await viewer.getByRole('heading', { name: 'Fire extinguishers' }).isVisible()).toBe(true);
    await screenshot('08-viewer-markdown');
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'hidden' });
  });

  it('reads a document again and removes another after confirmation', async () => {
    await page.getByRole('link', { name: 'Documents', exact: true }).click();
    await page.getByRole('button', { name: 'Re-ingest Tail rotor manual' }).click();
    await page.getByRole('status').getByText('“Tail rotor manual” was read again.').waitFor();
    await page.getByRole('button', { name: 'Remove Hangar safety' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove “Hangar safety”?' });
    await dialog.getByRole('button', { name: 'Remove document' }).click();
    await page.getByRole('row', { name: /Hangar safety/ }).waitFor({ state: 'detached' });
    expect(await page.getByRole('row', { name: /Tail rotor manual/ }).isVisible()).toBe(true);
    await page.getByRole('link', { name: /manuals\s+1 document ·/ }).waitFor();
  });

  it('shows the three values a chat product needs and checks that the deployment URL answers', async () => {
    await page.getByRole('link', { name: 'Connect to a chat product' }).click();
    expect(await page.getByLabel('Provider', { exact: true }).inputValue()).toBe('Mastra');
    expect(await page.getByLabel('Agent ID', { exact: true }).inputValue()).toBe('knowledge');
    expect(await page.getByLabel('Deployment URL', { exact: true }).inputValue()).toBe(
      `${server.apiUrl}/agents/knowledge/generate`,
    );
    await page.getByRole('button', { name: 'Check that it is reachable' }).click();
    await page.getByText(/^Reachable: the agent answered in \d+ ms\.$/).waitFor();
    await screenshot('09-connect');
  });

  it('deletes the namespace after asking for confirmation', async () => {
    await page.getByRole('link', { name: /^manuals/ }).click();
    await page.getByRole('button', { name: 'Delete namespace' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “manuals”?' });
    await dialog.getByText('This removes 1 document and').waitFor();
    await screenshot('10-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete namespace' }).click();
    await page.getByText('There are no namespaces yet.').waitFor();
    const listed = NamespaceList.parse(await (await fetch(`${server.apiUrl}/namespaces`)).json());
    expect(listed.namespaces).toEqual([]);
    await screenshot('11-home-after-delete');
  });

  it('ran without a script error or a policy violation in the page', () => {
    expect(errors).toEqual([]);
  });
});
