import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FLAG_REASONS } from '../../shared/moderation.js';
import type { SdkUser } from './sdk/drivers.js';
import {
  SDK_RUNS,
  SESSION_START_TIMEOUT_MS,
  publicGroup,
  startSdkSession,
  type SdkSession,
} from './sdk/sessions.js';

/**
 * Flags, per-user conversation deletion, the friends-only user list and online counts as
 * CometChat's official SDK 4.2.0 (unmodified) calls them against Parley over TLS.
 */
describe.each(SDK_RUNS)(
  'CometChat SDK 4.2.0 flags, conversation deletion, friends and online counts in $runtime on $engine',
  (run) => {
    let session: SdkSession<'alice' | 'bob'>;
    let alice: SdkUser;
    let bob: SdkUser;

    beforeAll(async () => {
      session = await startSdkSession(run, ['alice', 'bob'], publicGroup('crew', ['bob']));
      ({ alice, bob } = session.users);
    }, SESSION_START_TIMEOUT_MS);
    afterAll(async () => {
      await session?.close();
    });

    it('reads the app’s flag reasons with getFlagReasons', async () => {
      expect(await bob.call('flagReasons')).toEqual(
        DEFAULT_FLAG_REASONS.map((reason) => ({ id: reason.id, name: reason.name })),
      );
    });

    it('flags a received message with flagMessage; the app sees the reason and remark', async () => {
      const sent = await alice.call<{ id: string }>('sendText', 'bob', 'user', 'cheap watches');
      await bob.call('flagMessage', sent.id, 'spam', 'advert');
      const listed = await session.server.serverApi('GET', '/moderation/flagged-messages');
      expect(listed.body.data).toEqual([
        expect.objectContaining({
          message: expect.objectContaining({ id: sent.id }),
          flags: [expect.objectContaining({ reason: { id: 'spam', name: 'Spam' }, remark: 'advert' })],
        }),
      ]);
    });

    it('deletes a conversation for the caller only with deleteConversation', async () => {
      await alice.call('sendText', 'bob', 'user', 'still here?');
      await bob.call('deleteConversation', 'alice', 'user');
      const ofBob = (await bob.call<Array<{ conversationId: string }>>('conversations')).map(
        (conversation) => conversation.conversationId,
      );
      expect(ofBob).not.toContain('alice_user_bob');
      const ofAlice = (await alice.call<Array<{ conversationId: string }>>('conversations')).map(
        (conversation) => conversation.conversationId,
      );
      expect(ofAlice).toContain('alice_user_bob');
    });

    it('lists only friends with UsersRequestBuilder().friendsOnly(true)', async () => {
      await session.server.serverApi('POST', '/users', { uid: 'carol', name: 'Carol' });
      await session.server.serverApi('POST', '/users/alice/friends', { accepted: ['carol'] });
      expect(await alice.call('friendsOnly')).toEqual(['carol']);
      expect(await bob.call('friendsOnly')).toEqual([]);
    });

    it('counts the users online with getOnlineUserCount, and the members online per group with getOnlineGroupMemberCount', async () => {
      // Carol exists (the test before) but never connected.
      expect(await alice.call('onlineUserCount')).toBe(2);
      expect(await bob.call('onlineGroupMemberCount', ['crew'])).toEqual({ crew: 2 });
    });
  },
);
