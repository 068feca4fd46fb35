import { describe, expect, it } from 'vitest';
import type { ChatStore } from '../../widget/chat-store.js';
import { chatStoreFixture } from './support/stores.js';
import { clientOf, Wire } from './support/client.js';
import { NetworkProxy } from './support/network-proxy.js';
import { waitFor } from './support/wait.js';

const chat = chatStoreFixture();
const storeOf = chat.storeOf.bind(chat);

const bob = { type: 'user', id: 'bob' } as const;
const alice = { type: 'user', id: 'alice' } as const;
const support = { type: 'group', id: 'support' } as const;

/** Bob sends Alice a one-field form; her store opens the conversation and hands back the form. */
async function formFromBob(store: ChatStore, submit: { disableAfterInteracted?: boolean } = {}) {
  await chat.service.sendAs('bob', alice, {
    category: 'interactive',
    type: 'form',
    data: {
      interactiveData: {
        title: 'T',
        formFields: [{ elementType: 'textInput', elementId: 'note', label: 'Note' }],
        submitElement: { elementType: 'button', elementId: 'go', buttonText: 'Go', ...submit },
      },
    },
  });
  await store.open(bob);
  return store.thread(bob)!.messages[0]!;
}

describe('the chat store', () => {
  it('loads the conversations after signing in', async () => {
    await chat.service.sendAs('bob', alice, { data: { text: 'hi' } });
    const store = await storeOf('alice');
    expect(store.state.phase).toBe('ready');
    const [latest] = store.state.conversations;
    expect(latest).toMatchObject({ conversationId: 'alice_user_bob', unreadMessageCount: 1 });
  });

  it('reports a failed sign-in with the reason', async () => {
    const store = chat.newStore();
    await expect(store.signIn({ uid: 'nobody' })).rejects.toThrow();
    expect(store.state).toMatchObject({ phase: 'error', error: 'The UID nobody does not exist.' });
  });

  it('opening a conversation loads its messages and marks it read', async () => {
    await chat.service.sendAs('bob', alice, { data: { text: 'hi' } });
    const wire = new Wire();
    const store = await storeOf('alice', wire);
    await store.open(bob);
    expect(store.thread(bob)?.messages.map((m) => m.data.text)).toEqual(['hi']);
    expect(store.thread(bob)?.peer).toMatchObject({ uid: 'bob', name: 'Bob Stone' });
    await waitFor(() => wire.calls('POST', '/v3/users/bob/conversation/read').length === 1, 'the read mark');
    expect(store.state.unread).toBe(0);
    expect((await store.client.conversation(bob)).unreadMessageCount).toBe(0);
  });

  it("counts another conversation's new message as unread and tells the sender it was delivered", async () => {
    const wire = new Wire();
    const store = await storeOf('alice', wire);
    const counts: number[] = [];
    store.events.on('unreadCountChanged', (count) => counts.push(count));
    await chat.service.sendAs('bob', alice, { data: { text: 'ping' } });
    await waitFor(() => counts.length === 1, 'the unread count');
    expect(counts).toEqual([1]);
    expect(wire.frames.find((frame) => frame.type === 'receipts')).toMatchObject({
      receiver: 'bob',
      messageSender: 'bob',
      body: { action: 'delivered' },
    });
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
    await chat.service.stop();
    await store.send(bob, 'later');
    expect(store.thread(bob)?.pending.map((p) => p.status)).toEqual(['queued']);
    await chat.service.start();
    await waitFor(() => store.thread(bob)?.messages.length === 1, 'the queued message');
    expect(store.thread(bob)?.pending).toEqual([]);
  });

  it('flags that the connection is lost, and clears it once back', async () => {
    const network = await new NetworkProxy(chat.service.port).start();
    const store = await storeOf('alice', undefined, network.url);
    network.cut();
    await waitFor(() => store.state.reconnecting, 'the lost connection');
    await waitFor(() => !store.state.reconnecting && store.state.connection === 'connected', 'the reconnect');
    await network.stop();
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
    await aliceStore.open(bob);
    const status = () => (aliceStore.thread(bob)?.peer as { status?: string } | undefined)?.status;
    const bobClient = clientOf(chat.service);
    await bobClient.login({ uid: 'bob' });
    await waitFor(() => status() === 'online', 'bob online');
    bobClient.disconnect();
    await waitFor(() => status() === 'offline', 'bob offline');
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
    const form = await formFromBob(store);
    await store.interact(form, 'go', { note: 'x' });
    expect(store.thread(bob)!.messages[0]!.data.interactions?.map((i) => i.elementId)).toEqual(['go']);
  });

  it('tracks a form submission in the thread: pending while it is reported, then done', async () => {
    const store = await storeOf('alice');
    const form = await formFromBob(store);
    const reported = store.interact(form, 'go', { note: 'x' });
    expect(store.thread(bob)!.submissions[form.id]).toEqual({ state: 'pending', elementId: 'go' });
    await reported;
    expect(store.thread(bob)!.submissions[form.id]).toEqual({ state: 'done', elementId: 'go' });
  });

  it('records why the service refused a form submission', async () => {
    const store = await storeOf('alice');
    const form = await formFromBob(store, { disableAfterInteracted: true });
    await store.interact(form, 'go', { note: 'x' });
    await store.interact(form, 'go', { note: 'again' });
    expect(store.thread(bob)!.submissions[form.id]).toEqual({
      state: 'failed',
      elementId: 'go',
      message: 'The element go acts once and was already used.',
    });
  });

  it('reports a form once while its report is under way', async () => {
    const store = await storeOf('alice');
    const form = await formFromBob(store, { disableAfterInteracted: true });
    await Promise.all([store.interact(form, 'go', { note: 'x' }), store.interact(form, 'go', { note: 'x' })]);
    expect(store.thread(bob)!.submissions[form.id]).toEqual({ state: 'done', elementId: 'go' });
  });

  it("keeps the mention candidates in the group's thread", async () => {
    const store = await storeOf('alice');
    await store.open(support);
    await store.mentionCandidates(support);
    expect(
      store
        .thread(support)!
        .mentionCandidates.map((c) => c.uid)
        .sort(),
    ).toEqual(['bob', 'carol', 'knowledge']);
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
    for (let n = 1; n <= 35; n++) await chat.service.sendAs('bob', alice, { data: { text: `m${n}` } });
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
