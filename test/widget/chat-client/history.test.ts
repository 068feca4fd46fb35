import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatClient } from '../../../shared/chat-client/index.js';
import { clientOf, closeClients } from '../support/client.js';
import { ProtocolFake } from '../support/protocol-fake.js';

let fake: ProtocolFake;
let alice: ChatClient;
beforeEach(async () => {
  fake = await new ProtocolFake().start();
  alice = clientOf(fake);
  await alice.login({ uid: 'alice' });
});
afterEach(async () => {
  await closeClients();
  await fake.stop();
});

const bob = { type: 'user', id: 'bob' } as const;
const text = (value: string) => ({ category: 'message', type: 'text', data: { text: value } }) as const;

describe('conversations', () => {
  it('list each conversation with its last message and unread count, newest first', async () => {
    fake.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: 'hi alice' } });
    fake.sendAs('carol', { type: 'group', id: 'support' }, { data: { text: 'standup?' } });
    const { conversations, pagination } = await alice.conversations();
    expect(conversations.map((c) => c.conversationId)).toEqual(['group_support', 'alice_user_bob']);
    expect(conversations[1]).toMatchObject({
      unreadMessageCount: 1,
      lastMessage: { data: { text: 'hi alice' } },
    });
    expect(pagination?.total).toBe(2);
  });

  it('show no unread messages once the conversation is marked read', async () => {
    fake.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: 'hi alice' } });
    await alice.markConversationRead(bob);
    const conversation = await alice.conversation(bob);
    expect(conversation.unreadMessageCount).toBe(0);
  });
});

describe('message history', () => {
  it('pages upward with the cursor until nothing older is left', async () => {
    for (let n = 1; n <= 7; n++)
      fake.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: `m${n}` } });
    const texts: string[][] = [];
    let page = await alice.messages(bob, { perPage: 3 });
    texts.push(page.messages.map((m) => m.data.text ?? ''));
    while (page.older) {
      page = await alice.messages(bob, { perPage: 3, before: page.older });
      texts.push(page.messages.map((m) => m.data.text ?? ''));
    }
    expect(texts).toEqual([['m5', 'm6', 'm7'], ['m2', 'm3', 'm4'], ['m1']]);
  });

  it('asks for the page before the cursor the way the SDK does', async () => {
    for (let n = 1; n <= 4; n++)
      fake.sendAs('bob', { type: 'user', id: 'alice' }, { data: { text: `m${n}` } });
    const first = await alice.messages(bob, { perPage: 2 });
    await alice.messages(bob, { perPage: 2, before: first.older! });
    const query = fake.requests.at(-1)?.query;
    expect(query).toMatchObject({ per_page: '2', affix: 'prepend', id: first.messages[0]!.id });
    expect(Number(query?.sentAt)).toBe(first.messages[0]!.sentAt);
  });

  it('of a group pages through the group messages', async () => {
    fake.sendAs('carol', { type: 'group', id: 'support' }, { data: { text: 'standup?' } });
    const page = await alice.messages({ type: 'group', id: 'support' });
    expect(page.messages.map((m) => m.data.text)).toEqual(['standup?']);
    expect(page.older).toBeUndefined();
  });
});

describe('sending', () => {
  it('posts the message to its receiver and returns the stored message', async () => {
    const outcome = await alice.send(bob, text('hello bob'));
    expect(outcome.status).toBe('sent');
    const body = fake.requests.find((r) => r.method === 'POST' && r.path === '/v3/messages')?.body;
    expect(body).toMatchObject({
      receiver: 'bob',
      receiverType: 'user',
      category: 'message',
      type: 'text',
      data: { text: 'hello bob' },
    });
    expect(outcome.status === 'sent' && outcome.message).toMatchObject({
      conversationId: 'alice_user_bob',
      sender: 'alice',
    });
  });

  it('refuses a message the service rejects instead of queueing it', async () => {
    await expect(
      alice.send(bob, { category: 'message', type: 'text', data: {} as { text: string } }),
    ).rejects.toMatchObject({
      code: 'ERR_BAD_REQUEST',
    });
    expect(alice.queued).toHaveLength(0);
  });

  it('reports a form interaction with the form values', async () => {
    const form = fake.sendAs(
      'bob',
      { type: 'user', id: 'alice' },
      {
        category: 'interactive',
        type: 'form',
        data: {
          interactiveData: {
            title: 'T',
            formFields: [],
            submitElement: { elementType: 'button', elementId: 'go', buttonText: 'Go' },
          },
        },
      },
    );
    await alice.markInteracted(form.id, 'go', { name: 'Alice' });
    const request = fake.requests.at(-1);
    expect(request).toMatchObject({ method: 'PATCH', path: `/v3/messages/${form.id}/interacted` });
    expect(request?.body).toEqual({ interactions: ['go'], formData: { name: 'Alice' } });
  });
});

describe('mention candidates', () => {
  it('are the members of a group', async () => {
    const members = await alice.groupMembers('support');
    expect(members.map((m) => m.uid).sort()).toEqual(['alice', 'bob', 'carol']);
  });

  it('include the AI agents', async () => {
    const agents = await alice.agents();
    expect(agents.map((a) => a.uid)).toEqual(['knowledge']);
  });
});
