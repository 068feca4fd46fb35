import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from './client-support.js';
import { APP_ONE, APP_TWO, ENGINES, apiFixtures, textMessage, useTestServer } from './support.js';

/**
 * Blocked users through both APIs: the SDK's `/blockedusers` acts as the session's user, the REST
 * API's `/users/{uid}/blockedusers` as the named user. A block stops one-to-one messages both ways,
 * shows on user entities as CometChat's flags, and is nobody else's business.
 */
describe.each(ENGINES)('blocked users on %s', (engine) => {
  const api = useTestServer(engine);
  let alice: string;
  let bob: string;
  let carol: string;
  let dave: string;
  let aliceClient: TestClient;
  let bobClient: TestClient;
  let carolClient: TestClient;
  /** One-to-one messages each way, sent before the block; Alice reacted to Bob's. */
  let fromBob: string;
  let fromAlice: string;

  beforeAll(async () => {
    const { createUser } = apiFixtures(api.call);
    alice = await createUser('alice');
    bob = await createUser('bob');
    carol = await createUser('carol');
    dave = await createUser('dave');
    aliceClient = await connectClient(api.server, APP_ONE, alice, { socket: false });
    bobClient = await connectClient(api.server, APP_ONE, bob, { socket: false });
    carolClient = await connectClient(api.server, APP_ONE, carol, { socket: false });
    fromBob = (await sendAs(bobClient, alice, 'before the block')).body.data.id;
    fromAlice = (await sendAs(aliceClient, bob, 'mine before the block')).body.data.id;
    expect((await react(aliceClient, 'POST', fromBob, '👍')).status).toBe(200);
  });

  function sendAs(client: TestClient, receiver: string, text: string) {
    return client.call('POST', '/messages', textMessage(receiver, text));
  }
  function react(client: TestClient, method: 'POST' | 'DELETE', id: string, reaction: string) {
    return client.call(method, `/messages/${id}/reactions/${encodeURIComponent(reaction)}`);
  }

  it('blocks a user for the session user and answers per UID, as the SDK reads it', async () => {
    const response = await aliceClient.call('POST', '/blockedusers', { blockedUids: [bob] });
    expect(response.status).toBe(200);
    expect(response.body.data[bob]).toMatchObject({ success: true });
  });

  it('refuses a one-to-one message from the blocker and to the blocker, naming which way', async () => {
    const fromBlocker = await sendAs(aliceClient, bob, 'hi bob');
    expect(fromBlocker.status).toBe(403);
    expect(fromBlocker.body.error.code).toBe('ERR_BLOCKED_RECEIVER');
    const toBlocker = await sendAs(bobClient, alice, 'hi alice');
    expect(toBlocker.status).toBe(403);
    expect(toBlocker.body.error.code).toBe('ERR_BLOCKED_SENDER');
    const history = await api.call('GET', `/users/${bob}/messages`, { onBehalfOf: alice });
    expect(history.body.data.map((message: { id: string }) => message.id)).toEqual([fromBob, fromAlice]);
  });

  it("refuses a reaction to the other's one-to-one message both ways and on both APIs, naming which way", async () => {
    const byBlocker = await react(aliceClient, 'POST', fromBob, '🎉');
    expect(byBlocker.status).toBe(403);
    expect(byBlocker.body.error.code).toBe('ERR_BLOCKED_RECEIVER');
    const byBlocked = await react(bobClient, 'POST', fromAlice, '🎉');
    expect(byBlocked.status).toBe(403);
    expect(byBlocked.body.error.code).toBe('ERR_BLOCKED_SENDER');
    const onBehalf = await api.call('POST', `/messages/${fromAlice}/reactions/${encodeURIComponent('🎉')}`, {
      onBehalfOf: bob,
    });
    expect(onBehalf.status).toBe(403);
    const left = await api.call('GET', `/messages/${fromBob}/reactions`);
    expect(left.body.data.map((item: { reaction: string }) => item.reaction)).toEqual(['👍']);
    expect((await api.call('GET', `/messages/${fromAlice}/reactions`)).body.data).toEqual([]);
  });

  it('lets the blocker take back a reaction left before the block', async () => {
    const removed = await react(aliceClient, 'DELETE', fromBob, '👍');
    expect(removed.status).toBe(200);
    expect((await api.call('GET', `/messages/${fromBob}/reactions`)).body.data).toEqual([]);
  });

  it('refuses a multi-receiver send naming a blocked user, and sends to nobody', async () => {
    const response = await api.call('POST', '/messages', {
      onBehalfOf: bob,
      body: { ...textMessage(carol, 'to both'), multipleReceivers: { uids: [carol, alice] } },
    });
    expect(response.status).toBe(403);
    const toCarol = await api.call('GET', `/users/${carol}/messages`, { onBehalfOf: bob });
    expect(toCarol.body.data).toEqual([]);
  });

  it('lets the blocked user go on messaging others', async () => {
    expect((await sendAs(bobClient, carol, 'hi carol')).status).toBe(200);
  });

  it('lists whom the user blocked and who blocked them, with the flags and the conversation id', async () => {
    const mine = await aliceClient.call('GET', '/blockedusers?direction=blockedByMe');
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual([
      expect.objectContaining({
        uid: bob,
        blockedByMe: true,
        hasBlockedMe: false,
        conversationId: expect.any(String),
      }),
    ]);
    expect(mine.body.meta.pagination).toMatchObject({ total: 1 });
    const theirs = await bobClient.call('GET', '/blockedusers?direction=hasBlockedMe');
    expect(theirs.body.data.map((user: { uid: string }) => user.uid)).toEqual([alice]);
    expect(theirs.body.data[0]).toMatchObject({ blockedByMe: false, hasBlockedMe: true });
    const none = await bobClient.call('GET', '/blockedusers?direction=blockedByMe');
    expect(none.body.data).toEqual([]);
  });

  it('filters the list by a search keyword on name or UID', async () => {
    expect((await aliceClient.call('POST', '/blockedusers', { blockedUids: [dave] })).status).toBe(200);
    const found = await aliceClient.call('GET', `/blockedusers?searchKey=${encodeURIComponent(dave)}`);
    expect(found.body.data.map((user: { uid: string }) => user.uid)).toEqual([dave]);
  });

  it('shows blockedByMe and hasBlockedMe on the users each side reads', async () => {
    const seenByAlice = await aliceClient.call('GET', `/users/${bob}`);
    expect(seenByAlice.body.data).toMatchObject({ blockedByMe: true, hasBlockedMe: false });
    const seenByBob = await bobClient.call('GET', `/users/${alice}`);
    expect(seenByBob.body.data).toMatchObject({ blockedByMe: false, hasBlockedMe: true });
    const listed = await bobClient.call('GET', '/users?per_page=100');
    const aliceListed = listed.body.data.find((user: { uid: string }) => user.uid === alice);
    expect(aliceListed).toMatchObject({ hasBlockedMe: true });
    const carolListed = listed.body.data.find((user: { uid: string }) => user.uid === carol);
    expect(carolListed).toMatchObject({ blockedByMe: false, hasBlockedMe: false });
  });

  it('adds the block flags to mentioned users when asked with mentionsWithBlockedInfo', async () => {
    const guid = await apiFixtures(api.call).createGroup(carol, [alice, bob]);
    const mention = textMessage(guid, `hi <@uid:${bob}> and <@uid:${carol}>`, 'group');
    expect((await api.call('POST', '/messages', { body: mention, onBehalfOf: carol })).status).toBe(200);
    const history = await aliceClient.call('GET', `/groups/${guid}/messages?mentionsWithBlockedInfo=1`);
    const mentions = history.body.data.find((message: { category: string }) => message.category === 'message')
      .data.mentions;
    expect(mentions[bob]).toMatchObject({ blockedByMe: true, hasBlockedMe: false });
    expect(mentions[carol]).toMatchObject({ blockedByMe: false, hasBlockedMe: false });
    // A block is about the two users' own conversation: in a group they share, both still react.
    const inGroup = history.body.data.find((message: { category: string }) => message.category === 'message');
    expect((await react(bobClient, 'POST', inGroup.id, '👍')).status).toBe(200);
    expect((await react(aliceClient, 'POST', inGroup.id, '👍')).status).toBe(200);
  });

  it('hides blocked users, either way, from a user list asked with hideBlockedUsers', async () => {
    const listed = await bobClient.call('GET', '/users?per_page=100&hideBlockedUsers=1');
    const uids = listed.body.data.map((user: { uid: string }) => user.uid);
    expect(uids).toContain(carol);
    expect(uids).not.toContain(alice);
  });

  it('shows the flags on the other user of a conversation', async () => {
    const conversations = await bobClient.call('GET', '/conversations');
    const withCarol = conversations.body.data.find(
      (conversation: { conversationWith: { uid?: string } }) => conversation.conversationWith.uid === carol,
    );
    expect(withCarol.conversationWith).toMatchObject({ blockedByMe: false, hasBlockedMe: false });
  });

  it("keeps one user's blocks from another: the SDK route lists only the session's own", async () => {
    const carolsView = await carolClient.call('GET', '/blockedusers');
    expect(carolsView.body.data).toEqual([]);
    const otherUsersList = await carolClient.call('GET', `/users/${alice}/blockedusers`);
    expect(otherUsersList.status).toBe(404);
    expect(otherUsersList.body.error.code).toBe('ERR_API_NOT_FOUND');
    const blockForOther = await carolClient.call('POST', `/users/${alice}/blockedusers`, {
      blockedUids: [carol],
    });
    expect(blockForOther.status).toBe(404);
  });

  it('keeps blocks inside their app', async () => {
    const otherApp = await api.call('GET', `/users/${alice}/blockedusers`, {
      apikey: APP_TWO.apiKey,
      appId: APP_TWO.appId,
    });
    expect(otherApp.status).toBe(404);
    expect(otherApp.body.error.code).toBe('ERR_UID_NOT_FOUND');
  });

  it('refuses to block oneself, an unknown UID or a malformed body, naming the field, and blocks nothing', async () => {
    const self = await carolClient.call('POST', '/blockedusers', { blockedUids: [carol] });
    expect(self.status).toBe(400);
    expect(self.body.error).toMatchObject({
      code: 'ERR_CANNOT_BLOCK_SELF',
      details: { field: 'blockedUids' },
    });
    const unknown = await carolClient.call('POST', '/blockedusers', { blockedUids: [dave, 'nobody-here'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.details.field).toBe('blockedUids');
    for (const body of [{}, { blockedUids: 'dave' }, { blockedUids: [] }, { blockedUids: [42] }]) {
      const bad = await carolClient.call('POST', '/blockedusers', body);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body.error)).toContain('blockedUids');
    }
    expect((await carolClient.call('GET', '/blockedusers')).body.data).toEqual([]);
  });

  it('blocks, lists and unblocks on behalf of a user through the REST API', async () => {
    const blocked = await api.call('POST', `/users/${carol}/blockedusers`, { body: { blockedUids: [dave] } });
    expect(blocked.status).toBe(200);
    expect(blocked.body.data[dave].success).toBe(true);
    const listed = await api.call('GET', `/users/${carol}/blockedusers`);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ uid: dave, blockedByMe: true, blockedAt: expect.any(Number) }),
    ]);
    const unblocked = await api.call('DELETE', `/users/${carol}/blockedusers`, {
      body: { blockedUids: [dave] },
    });
    expect(unblocked.status).toBe(200);
    expect((await api.call('GET', `/users/${carol}/blockedusers`)).body.data).toEqual([]);
  });

  it('lets the two message each other again once unblocked', async () => {
    const response = await aliceClient.call('DELETE', '/blockedusers', { blockedUids: [bob] });
    expect(response.status).toBe(200);
    expect((await sendAs(aliceClient, bob, 'friends again')).status).toBe(200);
    expect((await sendAs(bobClient, alice, 'yes')).status).toBe(200);
    expect((await bobClient.call('GET', `/users/${alice}`)).body.data).toMatchObject({ hasBlockedMe: false });
  });
});
