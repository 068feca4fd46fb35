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

type Counts = Record<string, unknown>;

/**
 * Blocking, unread counts, marking unread, conversation tags and keyword search as CometChat's
 * official SDK 4.2.0 (unmodified) calls them against Parley over TLS.
 */
describe.each(SDK_RUNS)('CometChat SDK 4.2.0 everyday features in $runtime on $engine', (run) => {
  let session: SdkSession<'alice' | 'bob'>;
  let alice: SdkUser;
  let bob: SdkUser;

  const received = (user: SdkUser, id: string) =>
    user.next((event: SdkEvent) => event.kind === 'message' && event.id === id, `message ${id}`);

  beforeAll(async () => {
    session = await startSdkSession(run, ['alice', 'bob'], publicGroup('crew', ['bob']));
    ({ alice, bob } = session.users);
  }, SESSION_START_TIMEOUT_MS);
  afterAll(async () => {
    await session?.close();
  });

  describe('blocked users', () => {
    it('blocks with blockUsers and lists the block from both sides with BlockedUsersRequest', async () => {
      expect(await alice.call('blockUsers', ['bob'])).toMatchObject({ bob: { success: true } });
      expect(await alice.call('blockedUsers')).toEqual([
        { uid: 'bob', blockedByMe: true, hasBlockedMe: false },
      ]);
      expect(await bob.call('blockedUsers', 'hasBlockedMe')).toEqual([
        { uid: 'alice', blockedByMe: false, hasBlockedMe: true },
      ]);
      expect(await bob.call('blockedUsers', 'blockedByMe')).toEqual([]);
    });

    it('shows hasBlockedMe on the user the blocked side reads with getUser', async () => {
      expect(await bob.call('getUser', 'alice')).toEqual({
        uid: 'alice',
        blockedByMe: false,
        hasBlockedMe: true,
      });
    });

    it('refuses one-to-one messages both ways while blocked', async () => {
      expect(await alice.call('trySendText', 'bob', 'user', 'hi')).toEqual({ code: 'ERR_BLOCKED_RECEIVER' });
      expect(await bob.call('trySendText', 'alice', 'user', 'hi')).toEqual({ code: 'ERR_BLOCKED_SENDER' });
    });

    it('unblocks with unblockUsers, after which messages flow again', async () => {
      expect(await alice.call('unblockUsers', ['bob'])).toMatchObject({ bob: { success: true } });
      expect(await alice.call('blockedUsers')).toEqual([]);
      const sent = await bob.call<{ id?: string }>('trySendText', 'alice', 'user', 'friends again');
      expect(sent.id).toMatch(/^\d+$/);
      await received(alice, sent.id ?? '');
    });
  });

  describe('unread counts and marking unread', () => {
    const direct: string[] = [];

    beforeAll(async () => {
      for (const text of ['one', 'two', 'three']) {
        direct.push((await alice.call<SdkEvent>('sendText', 'bob', 'user', text)).id as string);
      }
      for (const text of ['crew one', 'crew two']) await alice.call('sendText', 'crew', 'group', text);
      await bob.call('sendText', 'crew', 'group', 'my own');
    });

    it("answers every getUnreadMessageCount* call with what others sent since the reader's last read", async () => {
      expect(await bob.call<Counts>('unreadCounts', 'alice', 'crew')).toEqual({
        all: { users: { alice: 3 }, groups: { crew: 2 } },
        forUser: { alice: 3 },
        forGroup: { crew: 2 },
        allUsers: { alice: 3 },
        allGroups: { crew: 2 },
      });
    });

    it('counts nothing once the reader marks the conversation read', async () => {
      await received(bob, direct[2] ?? '');
      await bob.call('markAsRead', direct[2]);
      expect((await bob.call<Counts>('unreadCounts', 'alice', 'crew')).forUser).toEqual({});
    });

    it('marks a message unread with markMessageAsUnread and answers the conversation it leaves', async () => {
      expect(await bob.call('markAsUnread', direct[1])).toEqual({
        conversationId: 'alice_user_bob',
        unread: 2,
      });
      expect((await bob.call<Counts>('unreadCounts', 'alice', 'crew')).forUser).toEqual({ alice: 2 });
    });
  });

  describe('conversation tags', () => {
    it('tags a group conversation with tagConversation and finds it by tag', async () => {
      expect(await bob.call('tagConversation', 'crew', 'group', ['team'])).toMatchObject({
        conversationId: 'group_crew',
        tags: ['team'],
      });
      expect(await bob.call('conversationsTagged', ['team'])).toEqual([
        expect.objectContaining({ conversationId: 'group_crew', tags: ['team'] }),
      ]);
      expect(await bob.call('conversationsTagged', ['elsewhere'])).toEqual([]);
      expect(await alice.call('conversationsTagged', ['team'])).toEqual([]);
    });
  });

  describe('keyword search', () => {
    let budget: string;
    let groupBudget: string;

    beforeAll(async () => {
      budget = (await alice.call<SdkEvent>('sendText', 'bob', 'user', 'the Budget for May')).id as string;
      await alice.call('sendText', 'bob', 'user', 'lunch?');
      groupBudget = (await alice.call<SdkEvent>('sendText', 'crew', 'group', 'budget talk')).id as string;
    });

    it('returns only the messages whose text has the keyword, in a one-to-one history', async () => {
      expect(await bob.call('searchMessages', { uid: 'alice' }, 'budget')).toEqual([
        { id: budget, category: 'message', text: 'the Budget for May' },
      ]);
    });

    it('returns no action message of a group, only the matching text', async () => {
      // The group's history starts with the action that added Bob; "crew" names the group in it.
      expect(await bob.call('searchMessages', { guid: 'crew' }, 'budget')).toEqual([
        { id: groupBudget, category: 'message', text: 'budget talk' },
      ]);
      const crew = await bob.call<Array<{ category: string }>>('searchMessages', { guid: 'crew' }, 'crew');
      expect(crew.map((message) => message.category)).toEqual(['message', 'message']);
    });

    it('keeps the other filters the SDK sends with the keyword', async () => {
      expect(await bob.call('searchMessages', { uid: 'alice' }, 'budget', ['image'])).toEqual([]);
    });
  });
});
