import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from './client-support.js';
import { APP_ONE, ENGINES, apiFixtures, textMessage, useTestServer } from './support.js';

/**
 * Conversation tags (`tagConversation`, `PUT /users|groups/{id}/conversation`): each user tags their
 * own conversations, sees their tags on them, and filters the conversation list by them.
 */
describe.each(ENGINES)('conversation tags on %s', (engine) => {
  const api = useTestServer(engine);
  let alice: string;
  let bob: string;
  let carol: string;
  let guid: string;
  let aliceClient: TestClient;
  let bobClient: TestClient;
  let carolClient: TestClient;

  const idsOf = (response: { body: { data: Array<{ conversationId: string }> } }) =>
    response.body.data.map((conversation) => conversation.conversationId);

  beforeAll(async () => {
    const { createUser, createGroup } = apiFixtures(api.call);
    alice = await createUser('alice');
    bob = await createUser('bob');
    carol = await createUser('carol');
    guid = await createGroup(alice, [bob]);
    aliceClient = await connectClient(api.server, APP_ONE, alice, { socket: false });
    bobClient = await connectClient(api.server, APP_ONE, bob, { socket: false });
    carolClient = await connectClient(api.server, APP_ONE, carol, { socket: false });
    await api.call('POST', '/messages', { body: textMessage(bob, 'hello'), onBehalfOf: alice });
    await api.call('POST', '/messages', { body: textMessage(carol, 'hello'), onBehalfOf: alice });
    await api.call('POST', '/messages', { body: textMessage(guid, 'hello all', 'group'), onBehalfOf: alice });
  });

  it('tags a one-to-one conversation and answers it with its tags, as the SDK reads it', async () => {
    const response = await aliceClient.call('PUT', `/users/${bob}/conversation`, {
      tags: ['work', 'urgent'],
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      conversationType: 'user',
      conversationWith: { uid: bob },
      tags: ['urgent', 'work'],
    });
    expect((await aliceClient.call('GET', `/users/${bob}/conversation`)).body.data.tags).toEqual([
      'urgent',
      'work',
    ]);
  });

  it('tags a group conversation', async () => {
    const response = await aliceClient.call('PUT', `/groups/${guid}/conversation`, { tags: ['work'] });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ conversationType: 'group', tags: ['work'] });
  });

  it("filters the conversation list by the SDK's searchKey: the other user's or the group's name or id, never the reader's own", async () => {
    const withBob = await aliceClient.call('GET', `/conversations?searchKey=${encodeURIComponent(bob)}`);
    expect(withBob.status).toBe(200);
    expect(
      withBob.body.data.map((item: { conversationWith: { uid?: string } }) => item.conversationWith.uid),
    ).toEqual([bob]);
    expect(idsOf(await aliceClient.call('GET', `/conversations?searchKey=${guid}`))).toEqual([
      `group_${guid}`,
    ]);
    expect(idsOf(await aliceClient.call('GET', `/conversations?searchKey=${alice}`))).toEqual([]);
    expect(idsOf(await aliceClient.call('GET', '/conversations?searchKey=nothing-like-this'))).toEqual([]);
  });

  it('filters the conversation list to those tagged with any of the tags', async () => {
    const work = await aliceClient.call('GET', '/conversations?tags=work');
    expect(idsOf(work).sort()).toEqual([`group_${guid}`, expect.stringContaining(bob)].sort());
    const urgent = await aliceClient.call('GET', '/conversations?tags=urgent,nothing');
    expect(idsOf(urgent)).toHaveLength(1);
    expect(urgent.body.data[0].conversationWith.uid).toBe(bob);
    expect(urgent.body.meta.pagination.total).toBe(1);
    const all = await aliceClient.call('GET', '/conversations');
    expect(idsOf(all)).toHaveLength(3);
  });

  it('replaces the tags: new ones in, old ones out, and an empty list clears them', async () => {
    await aliceClient.call('PUT', `/users/${bob}/conversation`, { tags: ['later'] });
    expect(idsOf(await aliceClient.call('GET', '/conversations?tags=urgent'))).toEqual([]);
    const cleared = await aliceClient.call('PUT', `/users/${bob}/conversation`, { tags: [] });
    expect(cleared.body.data.tags).toBeUndefined();
    expect(idsOf(await aliceClient.call('GET', '/conversations?tags=later'))).toEqual([]);
  });

  it("keeps a user's tags their own: the other member sees none and cannot filter by them", async () => {
    const bobsView = await bobClient.call('GET', `/groups/${guid}/conversation`);
    expect(bobsView.body.data.tags).toBeUndefined();
    expect(idsOf(await bobClient.call('GET', '/conversations?tags=work'))).toEqual([]);
  });

  it('refuses to tag a group the user is not in, or a conversation that does not exist', async () => {
    const outsider = await carolClient.call('PUT', `/groups/${guid}/conversation`, { tags: ['mine'] });
    expect(outsider.status).toBeGreaterThanOrEqual(400);
    expect(outsider.status).toBeLessThan(500);
    const none = await bobClient.call('PUT', `/users/${carol}/conversation`, { tags: ['x'] });
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('ERR_CONVERSATION_NOT_FOUND');
  });

  it('refuses malformed tags, naming the field, and keeps the tags it had', async () => {
    await aliceClient.call('PUT', `/users/${carol}/conversation`, { tags: ['kept'] });
    for (const body of [{}, { tags: 'kept' }, { tags: [''] }, { tags: [7] }]) {
      const response = await aliceClient.call('PUT', `/users/${carol}/conversation`, body);
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body.error)).toContain('tags');
    }
    expect((await aliceClient.call('GET', `/users/${carol}/conversation`)).body.data.tags).toEqual(['kept']);
  });

  it('tags on behalf of a user through the REST API', async () => {
    const response = await api.call('PUT', `/groups/${guid}/conversation`, {
      onBehalfOf: bob,
      body: { tags: ['team'] },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.tags).toEqual(['team']);
    const listed = await api.call('GET', '/conversations?tags=team', { onBehalfOf: bob });
    expect(idsOf(listed)).toEqual([`group_${guid}`]);
  });
});
