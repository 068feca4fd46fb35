import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatStore } from '../../widget/chat-store.js';
import { clientOf, closeClients } from './support/client.js';
import { ProtocolFake } from './support/protocol-fake.js';
import { waitFor } from './support/wait.js';

let fake: ProtocolFake;
const stores: ChatStore[] = [];

async function storeOf(uid: string): Promise<ChatStore> {
  const store = new ChatStore(clientOf(fake));
  stores.push(store);
  await store.signIn({ uid });
  await waitFor(() => store.state.connection === 'connected', `${uid}'s socket`);
  return store;
}

beforeEach(async () => {
  fake = await new ProtocolFake().start();
});
afterEach(async () => {
  for (const store of stores.splice(0)) store.dispose();
  await closeClients();
  await fake.stop();
});

const bob = { type: 'user', id: 'bob' } as const;
const alice = { type: 'user', id: 'alice' } as const;
const support = { type: 'group', id: 'support' } as const;

describe('the chat store', () => {
  it('loads the conversations after signing in', async () => {
    fake.sendAs('bob', alice, { data: { text: 'hi' } });
    const store = await storeOf('alice');
    expect(store.state.phase).toBe('ready');
    expect(store.state.conversations.map((c) => c.conversationId)).toEqual(['alice_user_bob']);
    expect(store.state.unread).toBe(1);
  });

  it('reports a failed sign-in with the reason', async () => {
    const store = new ChatStore(clientOf(fake));
    stores.push(store);
    await expect(store.signIn({ uid: 'nobody' })).rejects.toThrow();
    expect(store.state).toMatchObject({ phase: 'error', error: 'no user nobody' });
  });

  it('opening a conversation loads its messages and marks it read', async () => {
    fake.sendAs('bob', alice, { data: { text: 'hi' } });
    const store = await storeOf('alice');
    await store.open(bob);
    expect(store.thread(bob)?.messages.map((m) => m.data.text)).toEqual(['hi']);
    expect(store.thread(bob)?.peer).toMatchObject({ uid: 'bob', name: 'Bob Stone' });
    await waitFor(
      () => fake.requests.some((r) => r.path === '/v3/users/bob/conversation/read'),
      'the read mark',
    );
    expect(store.state.unread).toBe(0);
  });

  it("counts another conversation's new message as unread and tells the sender it was delivered", async () => {
    const store = await storeOf('alice');
    const counts: number[] = [];
    store.events.on('unreadCountChanged', (count) => counts.push(count));
    fake.sendAs('bob', alice, { data: { text: 'ping' } });
    await waitFor(() => counts.length === 1, 'the unread count');
    expect(counts).toEqual([1]);
    await waitFor(
      () =>
        fake.framesReceived.some(({ frame }) => (frame.body as { action?: string }).action === 'delivered'),
      'the receipt',
    );
  });

  it('shows a sent message at once and replaces it with the stored one', async () => {
    const store = await storeOf('alice');
    await store.open(bob);
    const sending = store.send(bob, 'hello');
    expect(store.thread(bob)?.pending.map((p) => [p.text, p.status])).toEqual([['hello', 'sending']]);
    await sending;
    expect(store.thread(bob)?.pending).toEqual([]);
    expect(store.thread(bob)?.messages.map((m) => m.data.text)).toEqual(['hello']);
  });

  it('keeps a message written while offline as waiting and sends it when the service is back', async () => {
    const store = await storeOf('alice');
    await store.open(bob);
    const port = Number(new URL(fake.url).port);
    await fake.stop();
    await store.send(bob, 'later');
    expect(store.thread(bob)?.pending.map((p) => p.status)).toEqual(['queued']);
    await fake.start(port);
    await waitFor(() => store.thread(bob)?.messages.length === 1, 'the queued message');
    expect(store.thread(bob)?.pending).toEqual([]);
  });

  it('flags that the connection is lost, and clears it once back', async () => {
    const store = await storeOf('alice');
    fake.dropSockets();
    await waitFor(() => store.state.reconnecting, 'the lost connection');
    await waitFor(() => !store.state.reconnecting && store.state.connection === 'connected', 'the reconnect');
  });

  it('shows who is typing until they stop', async () => {
    const aliceStore = await storeOf('alice');
    const bobStore = await storeOf('bob');
    await aliceStore.open(bob);
    bobStore.typing(alice);
    await waitFor(() => aliceStore.thread(bob)?.typing.length === 1, 'the typing indicator');
    await bobStore.send(alice, 'done typing');
    await waitFor(() => aliceStore.thread(bob)?.typing.length === 0, 'the end of typing');
  });

  it('shows a peer going offline and coming back online', async () => {
    const aliceStore = await storeOf('alice');
    const bobClient = clientOf(fake);
    await bobClient.login({ uid: 'bob' });
    await waitFor(() => bobClient.connection === 'connected', "bob's socket");
    await aliceStore.open(bob);
    const status = () => (aliceStore.thread(bob)?.peer as { status?: string } | undefined)?.status;
    await waitFor(() => status() === 'online', 'bob online');
    bobClient.disconnect();
    await waitFor(() => status() === 'offline', 'bob offline');
    await bobClient.login({ uid: 'bob' });
    await waitFor(() => status() === 'online', 'bob back online');
  });

  it("marks this user's messages read when the other side reads them", async () => {
    const aliceStore = await storeOf('alice');
    const bobStore = await storeOf('bob');
    await aliceStore.open(bob);
    await aliceStore.send(bob, 'read this');
    await bobStore.open(alice);
    const sent = aliceStore.thread(bob)!.messages[0]!;
    await waitFor(() => aliceStore.thread(bob)!.readUpTo >= Number(sent.id), 'the read receipt');
  });

  it('records a form submission on the message so the form shows it', async () => {
    const store = await storeOf('alice');
    fake.sendAs('bob', alice, {
      category: 'interactive',
      type: 'form',
      data: {
        interactiveData: {
          title: 'T',
          formFields: [],
          submitElement: { elementType: 'button', elementId: 'go', buttonText: 'Go' },
        },
      },
    });
    await store.open(bob);
    const form = store.thread(bob)!.messages[0]!;
    await store.interact(form, 'go', { note: 'x' });
    expect(store.thread(bob)!.messages[0]!.data.interactions?.map((i) => i.elementId)).toEqual(['go']);
  });

  it('offers group members and agents as mentions, never the user', async () => {
    const store = await storeOf('alice');
    const candidates = await store.mentionCandidates(support);
    expect(candidates.map((c) => [c.uid, c.agent]).sort()).toEqual([
      ['bob', false],
      ['carol', false],
      ['knowledge', true],
    ]);
  });

  it('loads older messages page by page', async () => {
    for (let n = 1; n <= 35; n++) fake.sendAs('bob', alice, { data: { text: `m${n}` } });
    const store = await storeOf('alice');
    await store.open(bob);
    expect(store.thread(bob)?.messages).toHaveLength(30);
    await store.loadOlder(bob);
    expect(
      store
        .thread(bob)
        ?.messages.map((m) => m.data.text)
        .slice(0, 2),
    ).toEqual(['m1', 'm2']);
    expect(store.thread(bob)?.older).toBeUndefined();
  });
});
