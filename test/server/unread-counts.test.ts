import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from './client-support.js';
import { APP_ONE, ENGINES, apiFixtures, textMessage, useTestServer } from './support.js';

interface Count {
  entityId: string;
  entityType: string;
  count: number;
}

/**
 * Unread counts as the SDK's getUnreadMessageCount* calls ask for them (`unread=1&count=1` on the
 * message lists), unread-only lists, and marking messages unread again (`markMessageAsUnread`).
 * Counts follow the read pointer the stored receipts move; each user sees only their own.
 */
describe.each(ENGINES)('unread counts on %s', (engine) => {
  const api = useTestServer(engine);
  let alice: string;
  let bob: string;
  let carol: string;
  let guid: string;
  let bobClient: TestClient;
  let carolClient: TestClient;
  const toBob: string[] = [];
  const inGroup: string[] = [];

  const { sendMessage } = apiFixtures(api.call);
  const send = async (sender: string, body: unknown) => (await sendMessage(sender, body)).id;
  const counts = async (client: TestClient, path: string): Promise<Count[]> => {
    const response = await client.call('GET', path);
    expect(response.status).toBe(200);
    return response.body.data as Count[];
  };

  beforeAll(async () => {
    const { createUser, createGroup } = apiFixtures(api.call);
    alice = await createUser('alice');
    bob = await createUser('bob');
    carol = await createUser('carol');
    guid = await createGroup(alice, [bob]);
    bobClient = await connectClient(api.server, APP_ONE, bob, { socket: false });
    carolClient = await connectClient(api.server, APP_ONE, carol, { socket: false });
    for (const text of ['one', 'two', 'three']) toBob.push(await send(alice, textMessage(bob, text)));
    for (const text of ['g1', 'g2']) inGroup.push(await send(alice, textMessage(guid, text, 'group')));
    await send(bob, textMessage(guid, 'my own', 'group'));
  });

  it('counts a one-to-one conversation for its reader, as getUnreadMessageCountForUser asks', async () => {
    expect(await counts(bobClient, `/users/${alice}/messages?unread=1&count=1&uid=${alice}`)).toEqual([
      { entityId: alice, entityType: 'user', count: 3 },
    ]);
  });

  it("counts a group after another member posted, leaving out the reader's own messages", async () => {
    expect(await counts(bobClient, `/groups/${guid}/messages?unread=1&count=1&guid=${guid}`)).toEqual([
      { entityId: guid, entityType: 'group', count: 2 },
    ]);
  });

  it('counts every conversation of the reader, or only users or groups', async () => {
    const all = await counts(bobClient, '/messages?unread=1&count=1');
    expect(all).toHaveLength(2);
    expect(all).toEqual(
      expect.arrayContaining([
        { entityId: alice, entityType: 'user', count: 3 },
        { entityId: guid, entityType: 'group', count: 2 },
      ]),
    );
    expect(await counts(bobClient, '/messages?unread=1&count=1&receiverType=group')).toEqual([
      { entityId: guid, entityType: 'group', count: 2 },
    ]);
  });

  it('lists only the unread messages with unread=1', async () => {
    const response = await bobClient.call('GET', `/users/${alice}/messages?unread=1`);
    expect(response.body.data.map((message: { id: string }) => message.id)).toEqual(toBob);
  });

  it('shows the sender nothing unread of her own messages', async () => {
    const aliceCounts = await api.call('GET', '/messages?unread=1&count=1', { onBehalfOf: alice });
    expect(aliceCounts.body.data).toEqual([{ entityId: guid, entityType: 'group', count: 1 }]);
  });

  it('follows the read pointer: a read mark lowers the count, up to the message marked', async () => {
    const marked = await bobClient.call('POST', `/users/${alice}/conversation/read`, { messageId: toBob[1] });
    expect(marked.status).toBe(200);
    expect(await counts(bobClient, `/users/${alice}/messages?unread=1&count=1`)).toEqual([
      { entityId: alice, entityType: 'user', count: 1 },
    ]);
  });

  it('marks a message unread again: it and everything after it count, and the conversation comes back', async () => {
    const response = await bobClient.call('DELETE', `/users/${alice}/conversation/read`, {
      messageId: toBob[0],
    });
    expect(response.status).toBe(200);
    expect(response.body.data.conversation).toMatchObject({
      conversationId: expect.stringContaining(bob),
      unreadMessageCount: 3,
      conversationWith: { uid: alice },
    });
    expect(await counts(bobClient, `/users/${alice}/messages?unread=1&count=1`)).toEqual([
      { entityId: alice, entityType: 'user', count: 3 },
    ]);
  });

  it('never marks read what was unread when marking a later message unread', async () => {
    const response = await bobClient.call('DELETE', `/groups/${guid}/conversation/read`, {
      messageId: inGroup[1],
    });
    expect(response.status).toBe(200);
    expect(response.body.data.conversation.unreadMessageCount).toBe(2);
  });

  it('marks unread on behalf of a user through the REST API', async () => {
    await api.call('POST', `/groups/${guid}/conversation/read`, { onBehalfOf: bob });
    const response = await api.call('DELETE', `/groups/${guid}/conversation/read`, {
      onBehalfOf: bob,
      body: { messageId: Number(inGroup[1]) },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.conversation.unreadMessageCount).toBe('1');
  });

  it('refuses to mark unread a message of another conversation, naming the field', async () => {
    const elsewhere = await send(alice, textMessage(carol, 'for carol'));
    const response = await bobClient.call('DELETE', `/users/${alice}/conversation/read`, {
      messageId: elsewhere,
    });
    expect(response.status).toBe(404);
    expect(response.body.error.details.field).toBe('messageId');
    const malformed = await bobClient.call('DELETE', `/users/${alice}/conversation/read`, {
      messageId: 'first',
    });
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.body.error)).toContain('messageId');
  });

  it("never shows one user another's counts: a non-member is refused the group, a stranger counts nothing", async () => {
    const group = await carolClient.call('GET', `/groups/${guid}/messages?unread=1&count=1`);
    expect(group.status).toBeGreaterThanOrEqual(400);
    expect(group.status).toBeLessThan(500);
    // Carol's own conversation with Alice has one message; Bob's three stay his.
    expect(await counts(carolClient, '/messages?unread=1&count=1')).toEqual([
      { entityId: alice, entityType: 'user', count: 1 },
    ]);
    expect(await counts(carolClient, `/users/${bob}/messages?unread=1&count=1`)).toEqual([]);
  });

  it('refuses count without unread, naming the field', async () => {
    const response = await bobClient.call('GET', '/messages?count=1');
    expect(response.status).toBe(400);
    expect(response.body.error.details.field).toBe('count');
  });

  it("does not count a group's history from before the reader joined", async () => {
    // Joining is recorded in seconds: wait until the clock has left the second of every message so far.
    const second = Math.floor(Date.now() / 1000);
    while (Math.floor(Date.now() / 1000) <= second) await new Promise((resolve) => setTimeout(resolve, 50));
    const dave = await apiFixtures(api.call).createUser('dave');
    const added = await api.call('POST', `/groups/${guid}/members`, { body: { participants: [dave] } });
    expect(added.status).toBe(200);
    await send(alice, textMessage(guid, 'welcome dave', 'group'));
    const daveCounts = await api.call('GET', `/groups/${guid}/messages?unread=1&count=1`, {
      onBehalfOf: dave,
    });
    expect(daveCounts.body.data).toEqual([{ entityId: guid, entityType: 'group', count: 1 }]);
  });

  it('leaves out the messages of blocked users when asked with hideMessagesFromBlockedUsers', async () => {
    expect((await bobClient.call('POST', '/blockedusers', { blockedUids: [alice] })).status).toBe(200);
    const hidden = await counts(bobClient, '/messages?unread=1&count=1&hideMessagesFromBlockedUsers=1');
    expect(hidden).toEqual([]);
    expect(await counts(bobClient, '/messages?unread=1&count=1')).toHaveLength(2);
    expect((await bobClient.call('DELETE', '/blockedusers', { blockedUids: [alice] })).status).toBe(200);
  });
});
