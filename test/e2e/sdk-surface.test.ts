import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FLAG_REASONS } from '../../shared/moderation.js';
import { ENGINES, createTestStore, type TestStore } from '../server/support.js';
import { NodeSdkUser, type SdkUser } from './sdk/drivers.js';
import { CONTRACT_APP, startContractServer, type ContractServer } from './sdk/fixtures.js';

/**
 * Flags, per-user conversation deletion and the friends-only user list as CometChat's official SDK
 * 4.2.0 (unmodified, in Node) calls them against Parley over TLS, on both engines.
 */
describe.each(ENGINES)('CometChat SDK 4.2.0 flags, conversation deletion and friends on %s', (engine) => {
  let store: TestStore;
  let server: ContractServer;
  let alice: SdkUser;
  let bob: SdkUser;
  const users: SdkUser[] = [];

  const startUser = async (uid: string): Promise<SdkUser> => {
    const user = await NodeSdkUser.start({
      caFile: server.server.tls?.certPath ?? '',
      storageFile: join(server.dataDir, `${uid}.storage.json`),
    });
    users.push(user);
    expect(await user.call('init', CONTRACT_APP.appId, server.sdkHost)).toBeNull();
    await user.call('login', uid, CONTRACT_APP.authKey);
    return user;
  };

  beforeAll(async () => {
    store = await createTestStore(engine);
    server = await startContractServer({ databaseUrl: store.databaseUrl });
    alice = await startUser('alice');
    bob = await startUser('bob');
  });
  afterAll(async () => {
    await Promise.all(users.map((user) => user.close()));
    await server?.close();
    await store?.dispose();
  });

  it('reads the app’s flag reasons with getFlagReasons', async () => {
    expect(await bob.call('flagReasons')).toEqual(
      DEFAULT_FLAG_REASONS.map((reason) => ({ id: reason.id, name: reason.name })),
    );
  });

  it('flags a received message with flagMessage; the app sees the reason and remark', async () => {
    const sent = await alice.call<{ id: string }>('sendText', 'bob', 'user', 'cheap watches');
    await bob.call('flagMessage', sent.id, 'spam', 'advert');
    const listed = await server.serverApi('GET', '/moderation/flagged-messages');
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
    await server.serverApi('POST', '/users', { uid: 'carol', name: 'Carol' });
    await server.serverApi('POST', '/users/alice/friends', { accepted: ['carol'] });
    expect(await alice.call('friendsOnly')).toEqual(['carol']);
    expect(await bob.call('friendsOnly')).toEqual([]);
  });
});
