import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SdkUser } from './sdk/drivers.js';
import type { SdkEvent } from './sdk/sdk-ops.js';
import {
  SDK_RUNS,
  SESSION_START_TIMEOUT_MS,
  publicGroup,
  startSdkSession,
  type SdkSession,
} from './sdk/sessions.js';

type Described = SdkEvent & { id: string; replyCount: number; reactions: unknown[] };

/**
 * Threads and reactions as CometChat's official SDK 4.2.0 does them (over TLS): thread replies and
 * their pages, reply counts, reactions with counts and who reacted, and the reaction events its
 * listeners fire.
 */
describe.each(SDK_RUNS)('CometChat SDK 4.2.0 threads and reactions in $runtime on $engine', (run) => {
  let session: SdkSession<'alice' | 'bob'>;
  let alice: SdkUser;
  let bob: SdkUser;
  let parent: Described;

  beforeAll(async () => {
    session = await startSdkSession(run, ['alice', 'bob'], publicGroup('crew', ['bob']));
    ({ alice, bob } = session.users);
    parent = await alice.call<Described>('sendText', 'crew', 'group', 'where do we meet?');
  }, SESSION_START_TIMEOUT_MS);
  afterAll(async () => {
    await session?.close();
  });

  it('sends a thread reply the receiver gets in realtime with its parent message id', async () => {
    const reply = await bob.call<Described>('sendInThread', 'crew', 'group', parent.id, 'at the gate');
    expect(reply).toMatchObject({ parentMessageId: parent.id, text: 'at the gate' });
    const received = await alice.next(
      (event) => event.kind === 'message' && event.id === reply.id,
      'the thread reply',
    );
    expect(received).toMatchObject({ parentMessageId: parent.id, sender: 'bob' });
  });

  it("reads the parent's reply count from getMessageDetails", async () => {
    expect(await bob.call<Described>('messageDetails', parent.id)).toMatchObject({ replyCount: 1 });
  });

  it('pages back through a thread, oldest first within each page, until it is empty', async () => {
    for (let index = 0; index < 4; index += 1)
      await alice.call('sendInThread', 'crew', 'group', parent.id, `thread filler ${index}`);
    const pages = await bob.call<Described[][]>('threadHistory', parent.id, 2);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    const ids = pages
      .reverse()
      .flat()
      .map((message) => Number(message.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(pages.flat().every((message) => message.parentMessageId === parent.id)).toBe(true);
  });

  it('leaves thread replies out of the group history with hideReplies', async () => {
    const history = await bob.call<Described[]>('groupWithoutReplies', 'crew');
    const sent = history.filter((message) => message.category !== 'action');
    expect(sent.map((message) => message.id)).toEqual([parent.id]);
  });

  it('lists the threads a member follows, the latest reply first, until the SDK is done paging', async () => {
    const quiet = await alice.call<Described>('sendText', 'crew', 'group', 'a thread alice alone replies in');
    const quietReply = await alice.call<Described>(
      'sendInThread',
      'crew',
      'group',
      quiet.id,
      'talking to myself',
    );
    type Listed = { parentMessageId: string; replyCount: number; lastReply: string | null };
    const bobs = await bob.call<Listed[]>('threads', { limit: 1 });
    expect(bobs.map((thread) => thread.parentMessageId)).toEqual([parent.id]);
    expect(bobs[0]?.replyCount).toBe(5);
    const all = await bob.call<Listed[]>('threads', { guid: 'crew', participatedByMe: false, limit: 1 });
    expect(all.map((thread) => thread.parentMessageId)).toEqual([quiet.id, parent.id]);
    expect(all[0]?.lastReply).toBe(quietReply.id);
  });

  it('follows a thread with subscribeToThread and unfollows one with unsubscribeFromThread', async () => {
    const started = await alice.call<Described>('sendText', 'crew', 'group', 'a thread bob follows');
    await alice.call('sendInThread', 'crew', 'group', started.id, 'the first reply');
    expect(typeof (await bob.call('subscribeToThread', started.id))).toBe('string');
    type Listed = { parentMessageId: string };
    const following = await bob.call<Listed[]>('threads', {});
    expect(following.map((thread) => thread.parentMessageId)).toEqual([started.id, parent.id]);
    expect(await bob.call<string[]>('followedInGroup', 'crew')).toEqual([parent.id, started.id]);
    await bob.call('unsubscribeFromThread', parent.id);
    const after = await bob.call<Listed[]>('threads', {});
    expect(after.map((thread) => thread.parentMessageId)).toEqual([started.id]);
    expect(await bob.call<string[]>('followedInGroup', 'crew')).toEqual([started.id]);
  });

  it("adds a reaction: the answer counts it as the reactor's, the other member hears of it", async () => {
    const reacted = await bob.call<Described>('addReaction', parent.id, '👍');
    expect(reacted.reactions).toEqual([{ reaction: '👍', count: 1, reactedByMe: true }]);
    expect(await alice.next((event) => event.kind === 'reactionAdded', 'the reaction event')).toEqual({
      kind: 'reactionAdded',
      messageId: parent.id,
      reaction: '👍',
      uid: 'bob',
      reactedBy: 'bob',
    });
    const seen = await alice.call<Described>('messageDetails', parent.id);
    expect(seen.reactions).toEqual([{ reaction: '👍', count: 1, reactedByMe: false }]);
  });

  it('lists who reacted, all and with one reaction', async () => {
    await alice.call('addReaction', parent.id, '🎉');
    expect(await alice.call('reactions', parent.id)).toEqual([
      { messageId: parent.id, reaction: '👍', uid: 'bob', reactedBy: 'bob' },
      { messageId: parent.id, reaction: '🎉', uid: 'alice', reactedBy: 'alice' },
    ]);
    expect(await alice.call('reactions', parent.id, '🎉')).toEqual([
      { messageId: parent.id, reaction: '🎉', uid: 'alice', reactedBy: 'alice' },
    ]);
  });

  it('removes a reaction and tells the other member', async () => {
    const removed = await bob.call<Described>('removeReaction', parent.id, '👍');
    expect(removed.reactions).toEqual([{ reaction: '🎉', count: 1, reactedByMe: false }]);
    expect(await alice.next((event) => event.kind === 'reactionRemoved', 'the removal event')).toMatchObject({
      messageId: parent.id,
      reaction: '👍',
      uid: 'bob',
    });
  });

  it('reads only the messages changed since a time with updatesOnly, in the order they changed, page by page', async () => {
    // The service runs on this machine: its clock is this one.
    const since = Math.floor(Date.now() / 1000);
    const [first, second, untouched] = [
      await alice.call<Described>('sendText', 'bob', 'user', 'changed first'),
      await alice.call<Described>('sendText', 'bob', 'user', 'changed second'),
      await alice.call<Described>('sendText', 'bob', 'user', 'never changed'),
    ];
    await bob.call('addReaction', first.id, '👀');
    await bob.call('addReaction', second.id, '✅');
    const pages = await bob.call<Described[][]>('updatesSince', 'alice', since, 1);
    expect(pages.map((page) => page.map((message) => message.id))).toEqual([[first.id], [second.id]]);
    expect(pages.flat().map((message) => message.reactions)).toEqual([
      [{ reaction: '👀', count: 1, reactedByMe: true }],
      [{ reaction: '✅', count: 1, reactedByMe: true }],
    ]);
    expect(pages.flat().some((message) => message.id === untouched.id)).toBe(false);
  });
});
