import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { clientOf, closeClients } from '../../widget/support/client.js';
import { waitFor } from '../../widget/support/wait.js';
import { useWidgetHarness } from './support/harness.js';
import { walkthroughForm } from './support/scenes.js';

const widget = useWidgetHarness();
afterEach(closeClients);

/** A visitor's own browser profile with the widget embedded and one conversation open. */
async function visitor(uid: string, chat: { type: 'user' | 'group'; id: string }): Promise<Page> {
  const { page } = await widget.embed({
    uid,
    launch: {
      targetElementID: 'chat',
      width: '900px',
      height: '600px',
      chatType: chat.type,
      defaultChatID: chat.id,
    },
  });
  await page.locator('parley-composer textarea').waitFor();
  return page;
}

/** What the service stored in a conversation, read by one of its members. */
async function storedTexts(uid: string, target: { type: 'user' | 'group'; id: string }): Promise<unknown[]> {
  const reader = clientOf(widget.service);
  await reader.login({ uid });
  return (await reader.messages(target)).messages.map((m) => m.data.text);
}

const log = (page: Page) => page.locator('parley-thread [role="log"]');
const composer = (page: Page) => page.locator('parley-composer textarea');

describe('chatting in the widget', () => {
  it('delivers messages between two visitors in realtime, with typing and read receipts', async () => {
    const alice = await visitor('alice', { type: 'user', id: 'bob' });
    const bob = await visitor('bob', { type: 'user', id: 'alice' });
    await composer(alice).fill('Hello Bob');
    await bob.getByText('Alice Martin is typing…').first().waitFor();
    await composer(alice).press('Enter');
    await log(bob).getByText('Hello Bob').waitFor();
    await alice.locator('parley-message[mine] [aria-label="Read"]').waitFor();
    await composer(bob).fill('Hi Alice');
    await composer(bob).press('Enter');
    await log(alice).getByText('Hi Alice').waitFor();
  });

  it('sends with Enter and starts a new line with Shift+Enter', async () => {
    const alice = await visitor('alice', { type: 'user', id: 'bob' });
    await composer(alice).click();
    await alice.keyboard.type('first line');
    await alice.keyboard.press('Shift+Enter');
    await alice.keyboard.type('second line');
    expect(await composer(alice).inputValue()).toBe('first line\nsecond line');
    await alice.keyboard.press('Enter');
    await log(alice).locator('parley-message').getByText('second line').waitFor();
    expect(await storedTexts('bob', { type: 'user', id: 'alice' })).toEqual(['first line\nsecond line']);
    expect(await composer(alice).inputValue()).toBe('');
  });

  it('loads older messages when the visitor scrolls up', async () => {
    for (let n = 1; n <= 20; n++)
      await widget.service.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: `old ${n}` } });
    for (let n = 1; n <= 25; n++)
      await widget.service.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: `new ${n}` } });
    const alice = await visitor('alice', { type: 'user', id: 'bob' });
    await log(alice).getByText('new 25').waitFor();
    expect(await log(alice).locator('parley-message').count()).toBe(30);
    await log(alice).evaluate((element) => element.scrollTo(0, 0));
    await log(alice).getByText('old 1', { exact: true }).waitFor();
    expect(await log(alice).locator('parley-message').count()).toBe(45);
    await log(alice).getByText('This is the beginning of the conversation.').waitFor();
  });

  it('keeps messages written while the service restarts, sends them once it is back, and fetches what was missed', async () => {
    const alice = await visitor('alice', { type: 'user', id: 'bob' });
    const bob = await visitor('bob', { type: 'user', id: 'alice' });
    await widget.service.stop();
    await alice.getByText('Reconnecting…', { exact: false }).waitFor();
    await composer(alice).fill('written during the outage');
    await composer(alice).press('Enter');
    await alice.getByText('Waiting to send').waitFor();
    await widget.service.start();
    // Sent while the widgets are still reconnecting: only the missed-message fetch can bring it.
    await widget.service.sendAs('carol', { type: 'user', id: 'alice' }, { data: { text: 'unrelated' } });
    await widget.service.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: 'sent meanwhile' } });
    await log(bob).getByText('written during the outage').waitFor();
    await log(alice).getByText('sent meanwhile').waitFor();
    await waitFor(async () => (await alice.getByText('Waiting to send').count()) === 0, 'the queue to empty');
    expect(await alice.getByText('Reconnecting…', { exact: false }).count()).toBe(0);
  });

  it('suggests group members and agents after @ and inserts the chosen one', async () => {
    const alice = await visitor('alice', { type: 'group', id: 'support' });
    await composer(alice).click();
    await alice.keyboard.type('Hey @kn');
    const option = alice.getByRole('option', { name: /Knowledge Agent/ });
    await option.waitFor();
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await alice.keyboard.press('Enter');
    expect(await composer(alice).inputValue()).toBe('Hey @knowledge ');
    expect(await alice.getByRole('listbox').count()).toBe(0);
  });

  it("renders an agent's Markdown answer safely, with its sources as links", async () => {
    const alice = await visitor('alice', { type: 'group', id: 'support' });
    await widget.service.sendAs(
      'knowledge',
      { type: 'group', id: 'support' },
      {
        data: {
          text: 'Open **Settings** [1]. <img src=x onerror="window.pwned=1">\n\nSources:\n[1] Admin guide, p. 4',
          metadata: {
            sources: [{ n: 1, title: 'Admin guide', page: 4, url: 'https://docs.example.com/admin' }],
          },
        },
      },
    );
    const answer = log(alice).locator('parley-message').last();
    await answer.locator('strong', { hasText: 'Settings' }).waitFor();
    const link = answer.getByRole('link', { name: /Admin guide/ });
    expect(await link.getAttribute('href')).toBe('https://docs.example.com/admin');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await link.getAttribute('target')).toBe('_blank');
    await answer.getByText(', p. 4').waitFor();
    expect(await answer.locator('img').count()).toBe(0);
    await answer.getByText('<img src=x onerror="window.pwned=1">', { exact: false }).waitFor();
    expect(await alice.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    expect(await answer.getByText('Sources:').count()).toBe(0); // the plain-text list gives way to the section
  });
});

describe('an interactive form in the widget', () => {
  it('checks required fields, submits the values and stays submitted after a reload', async () => {
    const form = await widget.service.sendAs('bob', { type: 'user', id: 'alice' }, walkthroughForm);
    const alice = await visitor('alice', { type: 'user', id: 'bob' });
    const patches: unknown[] = [];
    alice.on('request', (request) => {
      if (request.method() === 'PATCH')
        patches.push({ url: new URL(request.url()).pathname, body: request.postDataJSON() });
    });
    const book = alice.getByRole('button', { name: 'Book', exact: true });
    await book.click();
    expect(await alice.getByText('Please fill in this field.').count()).toBe(4);
    expect(
      await alice.evaluate(() => {
        let active = document.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        return active?.id;
      }),
    ).toBe('f-name');
    await alice.getByLabel('Your name').fill('Ada');
    await alice.getByLabel('Team size').selectOption('m');
    await alice.getByRole('radio', { name: 'Afternoon' }).check();
    await alice.getByLabel('Day').fill('2031-02-01');
    await book.click();
    await alice.getByText('Choose 2030-12-31 or earlier.').waitFor();
    await alice.getByLabel('Day').fill('2030-06-15');
    await book.click();
    await alice.getByText('Thanks, we will be in touch.').waitFor();
    expect(patches).toEqual([
      {
        url: `/v3/messages/${form.id}/interacted`,
        body: {
          interactions: ['book'],
          formData: { name: 'Ada', team: 'm', slot: 'pm', day: '2030-06-15' },
        },
      },
    ]);
    await alice.reload();
    await alice.getByText('Thanks, we will be in touch.').waitFor();
    expect(await alice.getByRole('button', { name: 'Book', exact: true }).isDisabled()).toBe(true);
  });

  it("shows the service's reason when it refuses a submission, and leaves the form open", async () => {
    await widget.service.sendAs(
      'bob',
      { type: 'user', id: 'alice' },
      {
        category: 'interactive',
        type: 'form',
        data: {
          interactiveData: {
            title: 'Stay in touch',
            formFields: [{ elementType: 'textInput', elementId: 'email', label: 'E-mail' }],
            submitElement: {
              elementType: 'button',
              elementId: 'send',
              buttonText: 'Keep me posted',
              disableAfterInteracted: true,
              action: { actionType: 'apiAction', url: 'https://crm.example.com/leads', method: 'POST' },
            },
          },
        },
      },
    );
    const alice = await visitor('alice', { type: 'user', id: 'bob' });
    await alice.getByLabel('E-mail', { exact: true }).fill('ada@example.com');
    const send = alice.getByRole('button', { name: 'Keep me posted' });
    await send.click();
    await alice
      .getByText('Could not submit: The app does not allow form actions towards https://crm.example.com.')
      .waitFor();
    expect(await send.isDisabled()).toBe(false);
    expect(await alice.getByText('Submitted').count()).toBe(0);
  });
});
