import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_GROUP } from '../../../server/demo/index.js';
import { callServerApi } from '../../server/support.js';
import { startChatsWindow, type ChatsWindow } from './support.js';

const ARTIFACTS = join(import.meta.dirname, '..', '..', '.artifacts', 'group-admin');

/**
 * The UI Kit's group members panel in the window's Chats, in Chromium: the operator (the owner of
 * the demo group) changes a member's scope, bans one and kicks another from the panel's menus, and
 * Alice, signed in on another page with the same panel open, sees her list follow live.
 */
describe('group administration from the UI Kit members panel', () => {
  let chats: ChatsWindow;
  let operator: Page;
  let alice: Page;
  let aliceContext: BrowserContext;
  const errors: string[] = [];

  const members = async () =>
    Object.fromEntries(
      (
        (
          await callServerApi(
            chats.chat.url,
            { apiKey: chats.chat.seeded.apiKey },
            'GET',
            `/groups/${DEMO_GROUP.guid}/members`,
          )
        ).body as { data: { uid: string; scope: string }[] }
      ).data.map((member) => [member.uid, member.scope]),
    );
  /** A member's row in a page's members panel, found by the name it shows. */
  const row = (page: Page, name: string) =>
    page.locator('.chats-members [role="option"]').filter({ has: page.getByText(name, { exact: true }) });
  const openMembers = async (page: Page) => {
    await page.goto(`${chats.url}#/chats`);
    await page.getByRole('tab', { name: 'Groups' }).click();
    await page.locator('.chats-lists').getByText(DEMO_GROUP.name).first().click();
    await page.getByRole('button', { name: 'Members' }).click();
    await row(page, 'Bob').waitFor();
  };
  const menuOf = async (name: string, item: string) => {
    // The menu's trigger shows while the pointer is on the row.
    await row(operator, name).hover();
    await row(operator, name).getByRole('button', { name: 'More options' }).click();
    await operator.getByText(item, { exact: true }).click();
  };

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    chats = await startChatsWindow();
    const track = (page: Page) => {
      page.setDefaultTimeout(20_000);
      page.on('pageerror', (error) => errors.push(error.message));
    };
    // Alice signs in first (the window reads its connection when it opens), then the operator.
    chats.connection = { ...chats.demo, operatorUid: 'alice' };
    aliceContext = await chats.browser.newContext({ viewport: { width: 1400, height: 900 } });
    alice = await aliceContext.newPage();
    track(alice);
    await openMembers(alice);
    chats.connection = chats.demo;
    operator = await chats.browser.newPage({ viewport: { width: 1400, height: 900 } });
    track(operator);
    await openMembers(operator);
  }, 180_000);

  afterAll(async () => {
    await chats?.close();
  });

  it("changes Bob's scope to moderator, and Alice's list shows it", async () => {
    await menuOf('Bob', 'Change Scope');
    await operator.getByRole('dialog').getByText('Moderator', { exact: true }).click();
    await operator
      .getByRole('dialog')
      .getByRole('button', { name: /save|change|confirm|yes/i })
      .click();
    await expect.poll(async () => (await members()).bob).toBe('moderator');
    await row(alice, 'Bob').getByText('Moderator', { exact: true }).waitFor();
    await operator.screenshot({ path: join(ARTIFACTS, '01-scope-changed.png') });
  });

  it("bans Bob: he leaves Alice's list and the group, and is listed as banned", async () => {
    await menuOf('Bob', 'Ban');
    await row(alice, 'Bob').waitFor({ state: 'detached' });
    expect((await members()).bob).toBeUndefined();
    const banned = await callServerApi(
      chats.chat.url,
      { apiKey: chats.chat.seeded.apiKey },
      'GET',
      `/groups/${DEMO_GROUP.guid}/bannedusers`,
    );
    expect((banned.body as { data: { uid: string }[] }).data.map((user) => user.uid)).toEqual(['bob']);
    await alice.screenshot({ path: join(ARTIFACTS, '02-banned-seen-by-alice.png') });
  });

  it("kicks the agent: it leaves Alice's list too", async () => {
    await menuOf('Knowledge', 'Kick');
    await row(alice, 'Knowledge').waitFor({ state: 'detached' });
    expect((await members()).knowledge).toBeUndefined();
    expect(errors).toEqual([]);
  });
});
