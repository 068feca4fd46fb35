import { describe, expect, it } from 'vitest';
import type { ChatStore } from '../../widget/chat-store.js';
import { withReaction } from '../../widget/chat-store.js';
import type { Message } from '../../shared/message.js';
import { chatStoreFixture } from './support/stores.js';
import { waitFor } from './support/wait.js';

const chat = chatStoreFixture();
const storeOf = chat.storeOf.bind(chat);

const support = { type: 'group', id: 'support' } as const;
const reactionsOf = (store: ChatStore, id: string) =>
  store.thread(support)?.messages.find((m) => m.id === id)?.data.reactions ?? [];

describe('reactions in the chat store', () => {
  it('counts a reaction, pressed only for its giver, and drops it at zero', () => {
    const message = { id: '1', data: { entities: {} } } as unknown as Message;
    const given = withReaction(message, '👍', 1, true);
    expect(given.data.reactions).toEqual([{ reaction: '👍', count: 1, reactedByMe: true }]);
    const another = withReaction(given, '👍', 1, false);
    expect(another.data.reactions).toEqual([{ reaction: '👍', count: 2, reactedByMe: true }]);
    const mineBack = withReaction(another, '👍', -1, true);
    expect(mineBack.data.reactions).toEqual([{ reaction: '👍', count: 1 }]);
    expect(withReaction(mineBack, '👍', -1, false).data.reactions).toEqual([]);
  });

  it("gives and takes back this user's reaction, and follows another member's live", async () => {
    const sent = await chat.service.sendAs('carol', support, { data: { text: 'react here' } });
    const alice = await storeOf('alice');
    const bob = await storeOf('bob');
    await alice.open(support);
    await bob.open(support);
    await alice.react(sent.id, '🎉');
    expect(reactionsOf(alice, sent.id)).toEqual([{ reaction: '🎉', count: 1, reactedByMe: true }]);
    await waitFor(() => reactionsOf(bob, sent.id)[0]?.count === 1, "alice's reaction at bob's");
    expect(reactionsOf(bob, sent.id)).toEqual([{ reaction: '🎉', count: 1 }]);
    await bob.reactors(sent.id, '🎉');
    expect(bob.thread(support)?.reactors[`${sent.id} 🎉`]).toEqual(['Alice Martin']);
    await alice.react(sent.id, '🎉');
    expect(reactionsOf(alice, sent.id)).toEqual([]);
    await waitFor(() => reactionsOf(bob, sent.id).length === 0, "the reaction gone at bob's");
  });
});

describe('threads in the chat store', () => {
  it('keeps replies out of the conversation, counts them on their message and adds them to the open thread', async () => {
    const parent = await chat.service.sendAs('carol', support, { data: { text: 'thread here' } });
    const alice = await storeOf('alice');
    const bob = await storeOf('bob');
    await alice.open(support);
    await bob.open(support);
    await alice.openReplies(support, parent.id);
    expect(alice.thread(support)?.replies).toMatchObject({
      parent: { id: parent.id },
      messages: [],
      loading: false,
    });
    await bob.openReplies(support, parent.id);
    await bob.reply(support, 'a reply');
    const replyCount = (store: ChatStore) =>
      store.thread(support)?.messages.find((m) => m.id === parent.id)?.replyCount;
    expect(replyCount(bob)).toBe(1);
    await waitFor(() => alice.thread(support)?.replies?.messages.length === 1, "the reply in alice's thread");
    expect(alice.thread(support)?.replies?.messages[0]?.data.text).toBe('a reply');
    expect(replyCount(alice)).toBe(1);
    expect(alice.thread(support)?.messages.some((m) => m.data.text === 'a reply')).toBe(false);
    alice.closeReplies(support);
    expect(alice.thread(support)?.replies).toBeUndefined();
  });
});
