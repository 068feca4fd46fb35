import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatClient } from '../../../shared/chat-client/index.js';
import { ChatService } from '../support/chat-service.js';
import { clientOf, closeClients, Wire } from '../support/client.js';

let service: ChatService;
let wire: Wire;
let alice: ChatClient;
beforeEach(async () => {
  service = await ChatService.start();
  wire = new Wire();
  alice = clientOf(service, {}, wire);
  await alice.login({ uid: 'alice' });
});
afterEach(async () => {
  await closeClients();
  await service.close();
});

const bob = { type: 'user', id: 'bob' } as const;
const toAlice = { type: 'user', id: 'alice' } as const;
const support = { type: 'group', id: 'support' } as const;
const text = (value: string) => ({ category: 'message', type: 'text', data: { text: value } }) as const;

describe('conversations', () => {
  it('list each conversation with its last message and unread count, newest first', async () => {
    await service.sendAs('bob', toAlice, { data: { text: 'hi alice' } });
    await service.sendAs('carol', support, { data: { text: 'standup?' } });
    const { conversations, pagination } = await alice.conversations();
    expect(conversations.map((c) => c.conversationId)).toEqual(['group_support', 'alice_user_bob']);
    expect(conversations[1]).toMatchObject({
      unreadMessageCount: 1,
      lastMessage: { data: { text: 'hi alice' } },
    });
    expect(pagination?.total).toBe(2);
  });

  it('show no unread messages once the conversation is marked read', async () => {
    await service.sendAs('bob', toAlice, { data: { text: 'hi alice' } });
    await alice.markConversationRead(bob);
    const conversation = await alice.conversation(bob);
    expect(conversation.unreadMessageCount).toBe(0);
  });
});

describe('message history', () => {
  it('pages upward with the cursor until nothing older is left', async () => {
    for (let n = 1; n <= 7; n++) await service.sendAs('bob', toAlice, { data: { text: `m${n}` } });
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
    for (let n = 1; n <= 4; n++) await service.sendAs('bob', toAlice, { data: { text: `m${n}` } });
    const first = await alice.messages(bob, { perPage: 2 });
    await alice.messages(bob, { perPage: 2, before: first.older! });
    const query = wire.requests.at(-1)?.query;
    expect(query).toMatchObject({ per_page: '2', affix: 'prepend', id: first.messages[0]!.id });
    expect(Number(query?.sentAt)).toBe(first.messages[0]!.sentAt);
  });

  it('of a group pages through the group messages', async () => {
    await service.sendAs('carol', support, { data: { text: 'standup?' } });
    const page = await alice.messages(support);
    expect(page.messages.filter((m) => m.category === 'message').map((m) => m.data.text)).toEqual([
      'standup?',
    ]);
    expect(page.older).toBeUndefined();
  });
});

describe('sending', () => {
  it('posts the message to its receiver and returns the stored message', async () => {
    const outcome = await alice.send(bob, text('hello bob'));
    expect(outcome.status).toBe('sent');
    expect(wire.calls('POST', '/v3/messages')[0]?.body).toMatchObject({
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
      status: 400,
    });
    expect(alice.queued).toHaveLength(0);
  });

  it('reports a form interaction with the form values, which the service keeps on the message', async () => {
    const form = await service.sendAs('bob', toAlice, {
      category: 'interactive',
      type: 'form',
      data: {
        interactiveData: {
          title: 'T',
          formFields: [{ elementType: 'textInput', elementId: 'name', label: 'Name' }],
          submitElement: { elementType: 'button', elementId: 'go', buttonText: 'Go' },
        },
      },
    });
    await alice.markInteracted(form.id, 'go', { name: 'Alice' });
    const request = wire.requests.at(-1);
    expect(request).toMatchObject({ method: 'PATCH', path: `/v3/messages/${form.id}/interacted` });
    expect(request?.body).toEqual({ interactions: ['go'], formData: { name: 'Alice' } });
    const stored = (await alice.messages(bob)).messages.at(-1);
    expect(stored?.data.interactions?.map((i) => i.elementId)).toEqual(['go']);
  });
});

describe('mention candidates', () => {
  it('are the members of a group', async () => {
    const members = await alice.groupMembers('support');
    expect(members.map((m) => m.uid).sort()).toEqual(['alice', 'bob', 'carol', 'knowledge']);
  });

  it("include the AI agents, by CometChat's role and by the role Parley's agent registry gives", async () => {
    await service.admin.createUser({ uid: 'helper', name: 'Helper', role: 'agent' });
    const agents = await alice.agents();
    expect(agents.map((a) => a.uid).sort()).toEqual(['helper', 'knowledge']);
  });
});
