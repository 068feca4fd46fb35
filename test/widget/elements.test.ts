import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ElementLab, mount, recordEvents, recorded } from './support/elements.js';

const lab = new ElementLab();
beforeAll(() => lab.start());
afterAll(() => lab.stop());

const user = (uid: string, name: string, role = 'default') => ({
  entity: { uid, name, role, status: 'online' },
  entityType: 'user',
});

function message(fields: {
  id?: string;
  sender?: string;
  text?: string;
  category?: string;
  type?: string;
  data?: Record<string, unknown>;
  role?: string;
}) {
  const sender = fields.sender ?? 'bob';
  return {
    id: fields.id ?? '1',
    conversationId: 'alice_user_bob',
    sender,
    receiver: sender === 'alice' ? 'bob' : 'alice',
    receiverType: 'user',
    category: fields.category ?? 'message',
    type: fields.type ?? 'text',
    sentAt: 1_900_000_000,
    updatedAt: 1_900_000_000,
    data: {
      ...(fields.text !== undefined ? { text: fields.text } : {}),
      ...fields.data,
      entities: {
        sender: user(sender, sender === 'knowledge' ? 'Knowledge Agent' : 'Bob Stone', fields.role),
        receiver: user('alice', 'Alice'),
      },
    },
  };
}

describe('<parley-message>', () => {
  it("shows a person's text as written, without Markdown", async () => {
    const page = await lab.page();
    await mount(page, 'parley-message', { message: message({ text: '**not bold** <b>nor this</b>' }) });
    await page.getByText('**not bold** <b>nor this</b>').waitFor();
    expect(await page.locator('parley-message strong, parley-message b').count()).toBe(0);
  });

  it("renders an agent's Markdown and a Sources section of links", async () => {
    const page = await lab.page();
    const answer = message({
      sender: 'knowledge',
      role: '@agentic',
      text: 'Use **Settings** [1].\n\nSources:\n[1] Guide',
      data: {
        metadata: {
          sources: [
            { n: 1, title: 'Guide', page: 2, url: 'https://docs.example.com/g' },
            { n: 2, title: 'Notes' },
          ],
        },
      },
    });
    await mount(page, 'parley-message', { message: answer });
    await page.locator('parley-message strong', { hasText: 'Settings' }).waitFor();
    const sources = page.getByRole('region', { name: 'Sources' });
    expect(
      await sources
        .getByRole('link')
        .evaluateAll((links) =>
          links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('rel')]),
        ),
    ).toEqual([['Guide (opens in a new tab)', 'https://docs.example.com/g', 'noopener noreferrer']]);
    await sources.getByText('Notes').waitFor();
    await sources.getByText(', p. 2').waitFor();
  });

  it("labels the sender's own message with its delivery state", async () => {
    const page = await lab.page();
    await mount(page, 'parley-message', {
      message: message({ sender: 'alice', text: 'hi' }),
      mine: true,
      status: 'read',
    });
    await page.getByRole('img', { name: 'Read' }).waitFor();
  });

  it('says so when it cannot show a message', async () => {
    const page = await lab.page();
    await mount(page, 'parley-message', {
      message: message({ category: 'custom', type: 'poll', data: { customData: {} } }),
    });
    await page.getByText('This message cannot be shown here.').waitFor();
  });
});

const form = (extra: Record<string, unknown> = {}) => ({
  interactiveData: {
    title: 'Survey',
    formFields: [
      { elementType: 'textInput', elementId: 'name', label: 'Name', maxLines: 3 },
      {
        elementType: 'button',
        elementId: 'docs',
        buttonText: 'Read the docs',
        action: { actionType: 'urlNavigation', url: 'https://docs.example.com' },
      },
    ],
    submitElement: {
      elementType: 'button',
      elementId: 'send',
      buttonText: 'Send answers',
      disableAfterInteracted: true,
    },
  },
  ...extra,
});

describe('<parley-form>', () => {
  it('asks for required fields before reporting anything', async () => {
    const page = await lab.page();
    await recordEvents(page, 'parley-interact');
    await mount(page, 'parley-form', { data: form(), messageId: '7' });
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByText('Please fill in this field.').waitFor();
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await recorded(page, 'parley-interact')).toEqual([]);
  });

  it('reports the submit element with the values', async () => {
    const page = await lab.page();
    await recordEvents(page, 'parley-interact');
    await mount(page, 'parley-form', { data: form(), messageId: '7' });
    await page.getByLabel('Name').fill('Ada\nLovelace');
    await page.getByRole('button', { name: 'Send answers' }).click();
    expect(await recorded(page, 'parley-interact')).toEqual([
      { messageId: '7', elementId: 'send', values: { name: 'Ada\nLovelace' } },
    ]);
  });

  it('leaves the report to its owner: after firing the event it waits for the submission property', async () => {
    const page = await lab.page();
    await recordEvents(page, 'parley-interact');
    await mount(page, 'parley-form', { data: form(), messageId: '7' });
    await page.getByLabel('Name').fill('Ada');
    const send = page.getByRole('button', { name: 'Send answers' });
    await send.click();
    expect(await recorded(page, 'parley-interact')).toHaveLength(1);
    expect(await send.isDisabled()).toBe(false);
    await page.evaluate(() => {
      document.querySelector('parley-form')!.submission = { state: 'pending', elementId: 'send' };
    });
    await page.waitForFunction(
      () =>
        document.querySelector('parley-form')!.shadowRoot!.querySelector<HTMLButtonElement>('.primary')!
          .disabled,
    );
    expect(await page.getByText('Submitted').count()).toBe(0);
  });

  it('disables every button while a submission is pending', async () => {
    const page = await lab.page();
    await mount(page, 'parley-form', {
      data: form(),
      messageId: '7',
      submission: { state: 'pending', elementId: 'send' },
    });
    expect(await page.getByRole('button', { name: 'Send answers' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: /Read the docs/ }).isDisabled()).toBe(true);
  });

  it('shows why a submission failed and lets it be sent again', async () => {
    const page = await lab.page();
    await recordEvents(page, 'parley-interact');
    await mount(page, 'parley-form', {
      data: form(),
      messageId: '7',
      submission: { state: 'failed', elementId: 'send', message: 'The chat service is unreachable.' },
    });
    await page.getByRole('status').getByText('Could not submit: The chat service is unreachable.').waitFor();
    await page.getByLabel('Name').fill('Ada');
    await page.getByRole('button', { name: 'Send answers' }).click();
    expect(await recorded(page, 'parley-interact')).toEqual([
      { messageId: '7', elementId: 'send', values: { name: 'Ada' } },
    ]);
  });

  it('shows a done submission as submitted before the message carries the interaction', async () => {
    const page = await lab.page();
    await mount(page, 'parley-form', {
      data: form(),
      messageId: '7',
      submission: { state: 'done', elementId: 'send' },
    });
    await page.getByRole('status').getByText('Submitted').waitFor();
    expect(await page.getByRole('button', { name: 'Send answers' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Name').isDisabled()).toBe(true);
  });

  it('opens a urlNavigation button in a new tab without a handle on the page', async () => {
    const page = await lab.page();
    await page.evaluate(() => {
      const opened: unknown[] = ((window as unknown as { opened: unknown[] }).opened = []);
      window.open = (...args: unknown[]) => (opened.push(args), null);
    });
    await mount(page, 'parley-form', { data: form(), messageId: '7' });
    await page.getByRole('button', { name: /Read the docs/ }).click();
    expect(await page.evaluate(() => (window as unknown as { opened: unknown[] }).opened)).toEqual([
      ['https://docs.example.com', '_blank', 'noopener,noreferrer'],
    ]);
  });

  it('shows a submitted form as submitted, with its submit button disabled', async () => {
    const page = await lab.page();
    await mount(page, 'parley-form', {
      data: form(),
      messageId: '7',
      interactions: [{ elementId: 'send', interactedAt: 1 }],
    });
    await page.getByText('Submitted').waitFor();
    expect(await page.getByRole('button', { name: 'Send answers' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Name').isDisabled()).toBe(true);
  });

  it("shows the goal's completion text once the goal is met", async () => {
    const page = await lab.page();
    const data = form({ interactionGoal: { type: 'anyOf', elementIds: ['docs'] } });
    (data.interactiveData as Record<string, unknown>).goalCompletionText = 'All done';
    await mount(page, 'parley-form', {
      data,
      messageId: '7',
      interactions: [{ elementId: 'docs', interactedAt: 1 }],
    });
    await page.getByText('All done').waitFor();
  });

  it('gives every element type a labelled control', async () => {
    const page = await lab.page();
    const everything = {
      interactiveData: {
        title: 'All',
        formFields: [
          { elementType: 'textInput', elementId: 't', label: 'Text', placeholder: { text: 'type here' } },
          { elementType: 'dropdown', elementId: 'd', label: 'Drop', options: [{ value: 'a', label: 'A' }] },
          { elementType: 'checkbox', elementId: 'c', label: 'Checks', options: [{ value: 'x', label: 'X' }] },
          {
            elementType: 'singleSelect',
            elementId: 's',
            label: 'Single',
            options: [{ value: 'y', label: 'Y' }],
          },
          {
            elementType: 'dateTime',
            elementId: 'w',
            label: 'When',
            mode: 'time',
            from: '09:00',
            to: '17:00',
          },
        ],
        submitElement: { elementType: 'button', elementId: 'go', buttonText: 'Go' },
      },
    };
    await mount(page, 'parley-form', { data: everything, messageId: '1' });
    expect(await page.getByLabel('Text').getAttribute('placeholder')).toBe('type here');
    expect(await page.getByLabel('Drop').evaluate((select) => select.tagName)).toBe('SELECT');
    await page.getByRole('group', { name: 'Checks' }).getByRole('checkbox', { name: 'X' }).waitFor();
    await page.getByRole('group', { name: 'Single' }).getByRole('radio', { name: 'Y' }).waitFor();
    const when = page.getByLabel('When');
    expect(
      await when.evaluate((input) => [
        input.getAttribute('type'),
        input.getAttribute('min'),
        input.getAttribute('max'),
      ]),
    ).toEqual(['time', '09:00', '17:00']);
  });
});

describe('<parley-composer>', () => {
  it('sends on Enter, adds a line on Shift+Enter, and sends nothing empty', async () => {
    const page = await lab.page();
    await recordEvents(page, 'parley-send');
    await mount(page, 'parley-composer', {});
    const box = page.getByRole('combobox', { name: 'Message' });
    await box.press('Enter');
    await box.fill('one');
    await box.press('Shift+Enter');
    await box.pressSequentially('two');
    await box.press('Enter');
    expect(await recorded(page, 'parley-send')).toEqual(['one\ntwo']);
    expect(await box.inputValue()).toBe('');
  });

  it('moves through mention suggestions with the arrows and closes them with Escape', async () => {
    const page = await lab.page();
    const candidates = [
      { uid: 'bob', name: 'Bob Stone', agent: false },
      { uid: 'bea', name: 'Bea Quinn', agent: false },
    ];
    await mount(page, 'parley-composer', { candidates });
    const box = page.getByRole('combobox', { name: 'Message' });
    await box.pressSequentially('@b');
    expect(await page.getByRole('option').allTextContents()).toHaveLength(2);
    await box.press('ArrowDown');
    const selected = page.getByRole('option', { selected: true });
    expect(await selected.textContent()).toContain('Bob Stone');
    expect(await box.getAttribute('aria-activedescendant')).toBe('mention-1');
    await box.press('Escape');
    expect(await page.getByRole('listbox').count()).toBe(0);
    expect(await box.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('<parley-conversation-list>', () => {
  const conversations = [
    {
      conversationId: 'alice_user_bob',
      conversationType: 'user',
      conversationWith: { uid: 'bob', name: 'Bob Stone', role: 'default', status: 'online' },
      lastMessage: message({ sender: 'alice', text: 'See **you**' }),
      unreadMessageCount: 0,
    },
    {
      conversationId: 'group_support',
      conversationType: 'group',
      conversationWith: { guid: 'support', name: 'Support Team', type: 'public' },
      lastMessage: message({ id: '2', text: 'Standup' }),
      unreadMessageCount: 3,
    },
  ];

  it('shows each conversation with its preview and unread count', async () => {
    const page = await lab.page();
    await mount(page, 'parley-conversation-list', { conversations, me: 'alice', loaded: true });
    await page.getByRole('button', { name: /Bob Stone.*You: See you/ }).waitFor();
    await page.getByRole('button', { name: /Support Team.*3 unread/ }).waitFor();
  });

  it('keeps the time of a conversation in view however long its preview', async () => {
    const page = await lab.page();
    const long = { ...conversations[1]!, lastMessage: message({ id: '3', text: 'word '.repeat(200) }) };
    await page.setViewportSize({ width: 400, height: 600 });
    await mount(page, 'parley-conversation-list', { conversations: [long], me: 'alice', loaded: true });
    const time = await page.locator('parley-conversation-list time').boundingBox();
    expect(time!.x + time!.width).toBeLessThanOrEqual(400);
  });

  it('opens the chosen conversation', async () => {
    const page = await lab.page();
    await recordEvents(page, 'parley-open');
    await mount(page, 'parley-conversation-list', { conversations, me: 'alice', loaded: true });
    await page.getByRole('button', { name: /Support Team/ }).click();
    expect(await recorded(page, 'parley-open')).toEqual([{ type: 'group', id: 'support' }]);
  });

  it('moves between conversations with the arrow keys', async () => {
    const page = await lab.page();
    await mount(page, 'parley-conversation-list', { conversations, me: 'alice', loaded: true });
    await page.getByRole('button', { name: /Bob Stone/ }).focus();
    await page.keyboard.press('ArrowDown');
    expect(
      await page
        .getByRole('button', { name: /Support Team/ })
        .evaluate(
          (b) => b.getRootNode() instanceof ShadowRoot && (b.getRootNode() as ShadowRoot).activeElement === b,
        ),
    ).toBe(true);
  });
});

describe('<parley-thread>', () => {
  const day = 86_400;
  const thread = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
    target: { type: 'user', id: 'bob' },
    peer: { uid: 'bob', name: 'Bob Stone', role: 'default', status: 'online' },
    messages,
    pending: [],
    loading: false,
    loadingOlder: false,
    readUpTo: 0,
    deliveredUpTo: 0,
    typing: [],
    submissions: {},
    mentionCandidates: [],
    ...extra,
  });
  const at = (id: string, sentAt: number, sender = 'bob') => ({
    ...message({ id, sender, text: `m${id}` }),
    sentAt,
  });

  it('separates the days of a conversation', async () => {
    const page = await lab.page();
    const start = 1_900_000_000;
    await mount(page, 'parley-thread', {
      me: 'alice',
      thread: thread([at('1', start), at('2', start + 60), at('3', start + day)]),
    });
    expect(await page.getByRole('log').locator('h3').count()).toBe(2);
    expect(await page.getByRole('log').locator('h3 + parley-message').count()).toBe(2);
  });

  it('offers older messages while there are any, and says where the conversation begins', async () => {
    const page = await lab.page();
    await recordEvents(page, 'parley-load-older');
    await mount(page, 'parley-thread', {
      me: 'alice',
      thread: thread([at('5', 1_900_000_000)], { older: { id: '5', sentAt: 1 } }),
    });
    await page.getByRole('button', { name: 'Load older messages' }).click();
    expect((await recorded(page, 'parley-load-older')).length).toBeGreaterThan(0);
    await mount(page, 'parley-thread', { me: 'alice', thread: thread([at('1', 1_900_000_000)]) });
    await page.getByText('This is the beginning of the conversation.').waitFor();
  });

  it('says who is typing and marks own messages read up to the receipt', async () => {
    const page = await lab.page();
    const messages = [at('1', 1_900_000_000, 'alice'), at('2', 1_900_000_010, 'alice')];
    const typing = [{ uid: 'bob', name: 'Bob Stone', role: 'default', status: 'online' }];
    await mount(page, 'parley-thread', {
      me: 'alice',
      thread: thread(messages, { readUpTo: 1, deliveredUpTo: 2, typing }),
    });
    await page.getByText('Bob Stone is typing…').first().waitFor();
    expect(
      await page
        .locator('parley-message [role="img"]')
        .evaluateAll((icons) => icons.map((i) => i.getAttribute('aria-label'))),
    ).toEqual(['Read', 'Delivered']);
  });
});

describe('<parley-launcher>', () => {
  it('names its action and the unread count, and says whether the window is open', async () => {
    const page = await lab.page();
    await mount(page, 'parley-launcher', { unread: 4 });
    const button = page.getByRole('button', { name: 'Open chat, 4 unread' });
    expect(await button.getAttribute('aria-expanded')).toBe('false');
  });
});
