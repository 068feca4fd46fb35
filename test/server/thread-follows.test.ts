import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from './client-support.js';
import {
  APP_ONE,
  APP_TWO,
  ENGINES,
  apiFixtures,
  callServerApi,
  textMessage,
  useTestServer,
} from './support.js';

type Listed = { id: string; parentMessageId: string; replyCount: number; lastReply: { id: string } };

const parentsOf = (threads: Listed[]) => threads.map((thread) => thread.parentMessageId);

/**
 * Following threads and listing them through the client API, as CometChat's SDK 4.2.0 calls it
 * (the SDK's own side is in test/e2e/sdk-threads-reactions.test.ts): who follows what, the lists
 * and their cursor, and what is refused.
 */
describe.each(ENGINES)('thread follows and lists on %s', (engine) => {
  const api = useTestServer(engine);
  let alice: string;
  let bob: string;
  let mallory: string;
  let guid: string;
  let aliceClient: TestClient;
  let bobClient: TestClient;
  let malloryClient: TestClient;

  const { sendMessage: send } = apiFixtures(api.call);

  beforeAll(async () => {
    const { createUser, createGroup } = apiFixtures(api.call);
    alice = await createUser('alice');
    bob = await createUser('bob', { metadata: { '@private': { phone: '555-0100' } } });
    mallory = await createUser('mallory');
    guid = await createGroup(alice, [bob]);
    [aliceClient, bobClient, malloryClient] = await Promise.all([
      connectClient(api.server, APP_ONE, alice, { socket: false }),
      connectClient(api.server, APP_ONE, bob, { socket: false }),
      connectClient(api.server, APP_ONE, mallory, { socket: false }),
    ]);
  });

  it('lists the threads a user started or replied in, the latest reply first, with the last reply', async () => {
    const first = await send(bob, textMessage(guid, 'first question', 'group'));
    const second = await send(bob, textMessage(guid, 'second question', 'group'));
    await send(alice, textMessage(guid, 'first answer', 'group'), `/messages/${first.id}/thread`);
    const last = await send(
      alice,
      textMessage(guid, 'second answer', 'group'),
      `/messages/${second.id}/thread`,
    );
    const listed = await aliceClient.call('GET', '/threads?participatedByMe=true&limit=30');
    expect(listed.status).toBe(200);
    expect(parentsOf(listed.body.data)).toEqual([second.id, first.id]);
    expect(listed.body.data[0]).toMatchObject({ id: second.id, replyCount: 1, lastReply: { id: last.id } });
    expect(JSON.stringify(listed.body)).not.toContain('@private');
    const older = await aliceClient.call(
      'GET',
      `/threads?participatedByMe=true&limit=30&affix=prepend&updatedAt=${listed.body.data[0].updatedAt}&id=${second.id}`,
    );
    expect(parentsOf(older.body.data)).toEqual([first.id]);
  });

  it('follows a thread the user is not in, and an unfollow holds even for a thread they started', async () => {
    const started = await send(alice, textMessage(bob, 'a one-to-one thread', 'user'));
    await send(alice, textMessage(bob, 'alice replies', 'user'), `/messages/${started.id}/thread`);
    const followed = await bobClient.call('POST', `/messages/${started.id}/thread/subscription`);
    expect(followed.status).toBe(200);
    expect(followed.body.data.success).toBe(true);
    const bobs = await bobClient.call('GET', `/users/${alice}/threads?participatedByMe=true`);
    expect(parentsOf(bobs.body.data)).toEqual([started.id]);
    expect((await aliceClient.call('DELETE', `/messages/${started.id}/thread/subscription`)).status).toBe(
      200,
    );
    const alices = await aliceClient.call('GET', `/users/${bob}/threads?participatedByMe=true`);
    expect(parentsOf(alices.body.data)).toEqual([]);
    const everything = await aliceClient.call('GET', `/users/${bob}/threads?participatedByMe=false`);
    expect(parentsOf(everything.body.data)).toEqual([started.id]);
  });

  it('marks the roots of the threads the reader follows in a message list asked withThreadSubscribed', async () => {
    const asked = await send(alice, textMessage(guid, 'who follows this?', 'group'));
    const ignored = await send(alice, textMessage(guid, 'nobody replies here', 'group'));
    await send(bob, textMessage(guid, 'bob replies', 'group'), `/messages/${asked.id}/thread`);
    const page = await bobClient.call(
      'GET',
      `/groups/${guid}/messages?per_page=100&withThreadSubscribed=true`,
    );
    const flagged = (page.body.data as Array<{ id: string; threadSubscribed?: boolean }>)
      .filter((message) => message.threadSubscribed === true)
      .map((message) => message.id);
    expect(flagged).toContain(asked.id);
    expect(flagged).not.toContain(ignored.id);
    await bobClient.call('DELETE', `/messages/${asked.id}/thread/subscription`);
    const after = await bobClient.call(
      'GET',
      `/groups/${guid}/messages?per_page=100&withThreadSubscribed=true`,
    );
    const stillFlagged = (after.body.data as Array<{ id: string; threadSubscribed?: boolean }>).some(
      (message) => message.id === asked.id && message.threadSubscribed === true,
    );
    expect(stillFlagged).toBe(false);
  });

  it("refuses an outsider, another app, a reply as a thread's root, bad limits, and the server API", async () => {
    const root = await send(alice, textMessage(guid, 'members only', 'group'));
    const reply = await send(bob, textMessage(guid, 'a reply', 'group'), `/messages/${root.id}/thread`);
    const outsider = await malloryClient.call('GET', `/groups/${guid}/threads`);
    expect(outsider.status).toBe(403);
    expect(outsider.body.error.code).toBe('ERR_NOT_A_MEMBER');
    const mallorys = await malloryClient.call('GET', '/threads?participatedByMe=false');
    expect(parentsOf(mallorys.body.data)).not.toContain(root.id);
    const hidden = await malloryClient.call('POST', `/messages/${root.id}/thread/subscription`);
    expect(hidden.status).toBe(404);
    const stranger = await callServerApi(api.url, APP_TWO, 'POST', '/users', {
      body: { uid: mallory, name: 'Mallory of app two' },
    });
    expect(stranger.status).toBe(200);
    const otherApp = await connectClient(api.server, APP_TWO, mallory, { socket: false });
    const crossApp = await otherApp.call('POST', `/messages/${root.id}/thread/subscription`);
    expect(crossApp.status).toBe(404);
    expect(crossApp.body.error.code).toBe('ERR_MESSAGE_ID_NOT_FOUND');
    const onReply = await bobClient.call('POST', `/messages/${reply.id}/thread/subscription`);
    expect(onReply.status).toBe(400);
    expect(onReply.body.error.code).toBe('ERR_MESSAGE_ACTION_NOT_ALLOWED');
    const badLimit = await bobClient.call('GET', '/threads?limit=5000');
    expect(badLimit.status).toBe(400);
    expect(JSON.stringify(badLimit.body.error)).toContain('limit');
    const server = await api.call('GET', '/threads', { onBehalfOf: bob });
    expect(server.status).toBe(404);
    expect(server.body.error.code).toBe('ERR_API_NOT_FOUND');
  });
});
