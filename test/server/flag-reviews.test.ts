import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from './client-support.js';
import {
  APP_ONE,
  APP_TWO,
  ENGINES,
  apiFixtures,
  callServerApi,
  injectFailure,
  textMessage,
  useTestServer,
} from './support.js';

/** Moderators review flagged messages through the REST API: approve, or disapprove (delete). */
describe.each(ENGINES)('reviewing flagged messages on %s', (engine) => {
  const api = useTestServer(engine);
  let alice: string;
  let bob: TestClient;

  beforeAll(async () => {
    const { createUser } = apiFixtures(api.call);
    alice = await createUser('alice');
    bob = await connectClient(api.server, APP_ONE, await createUser('bob'), { socket: false });
  });

  /** A message from Alice to Bob that Bob flagged. */
  const flaggedMessage = async (text: string): Promise<string> => {
    const sent = await api.call('POST', '/messages', { body: textMessage(bob.uid, text), onBehalfOf: alice });
    const id = sent.body.data.id as string;
    expect((await bob.call('POST', `/messages/${id}/flagged`, { id: 'spam', remark: text })).status).toBe(
      200,
    );
    return id;
  };
  const idsIn = async (path: string): Promise<string[]> =>
    (await api.call('GET', path)).body.data.map((item: { message: { id: string } }) => item.message.id);

  it('moves an approved message to the reviewed list and keeps it', async () => {
    const id = await flaggedMessage('fine after all');
    const approved = await api.call('PATCH', `/moderation/flagged-messages/${id}`, {
      body: { status: 'approved' },
    });
    expect(approved.status).toBe(200);
    expect(await idsIn('/moderation/flagged-messages')).not.toContain(id);
    const reviewed = await api.call('GET', '/moderation/reviewed-messages');
    const entry = reviewed.body.data.find((item: { message: { id: string } }) => item.message.id === id);
    expect(entry).toMatchObject({ review: { status: 'approved' }, flags: [{ remark: 'fine after all' }] });
    expect((await bob.call('GET', `/messages/${id}`)).body.data.deletedAt).toBeUndefined();
  });

  it('deletes a disapproved message for everyone', async () => {
    const id = await flaggedMessage('buy pills');
    const disapproved = await api.call('PATCH', `/moderation/flagged-messages/${id}`, {
      body: { status: 'disapproved' },
    });
    expect(disapproved.status).toBe(200);
    const seen = await bob.call('GET', `/messages/${id}`);
    expect(seen.body.data.deletedAt).toEqual(expect.any(Number));
    const reviewed = await api.call('GET', '/moderation/reviewed-messages');
    const entry = reviewed.body.data.find((item: { message: { id: string } }) => item.message.id === id);
    expect(entry.review.status).toBe('disapproved');
  });

  it('keeps a disapproved message and its place in the queue when the review cannot be stored', async () => {
    const id = await flaggedMessage('spam that a failing store cannot judge');
    const allowReviews = await injectFailure(api.server.core.store, 'message_reviews', 'insert');
    const failed = await api.call('PATCH', `/moderation/flagged-messages/${id}`, {
      body: { status: 'disapproved' },
    });
    await allowReviews();
    expect(failed.status).toBe(500);
    expect((await bob.call('GET', `/messages/${id}`)).body.data.deletedAt).toBeUndefined();
    expect(await idsIn('/moderation/flagged-messages')).toContain(id);
  });

  it('puts a reviewed message back in the flagged list when it is flagged again', async () => {
    const id = await flaggedMessage('borderline');
    await api.call('PATCH', `/moderation/flagged-messages/${id}`, { body: { status: 'approved' } });
    await bob.call('POST', `/messages/${id}/flagged`, { id: 'harassment', remark: 'worse than I thought' });
    expect(await idsIn('/moderation/flagged-messages')).toContain(id);
    expect(await idsIn('/moderation/reviewed-messages')).not.toContain(id);
  });

  it('answers a message with no flag waiting, and another app, as missing', async () => {
    const sent = await api.call('POST', '/messages', {
      body: textMessage(bob.uid, 'unflagged'),
      onBehalfOf: alice,
    });
    for (const id of [sent.body.data.id as string, '999999999', 'not-a-number']) {
      const answer = await api.call('PATCH', `/moderation/flagged-messages/${id}`, {
        body: { status: 'approved' },
      });
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('ERR_MESSAGE_NOT_FLAGGED');
    }
    const id = await flaggedMessage('other app?');
    const other = await callServerApi(api.url, APP_TWO, 'PATCH', `/moderation/flagged-messages/${id}`, {
      body: { status: 'disapproved' },
    });
    expect(other.status).toBe(404);
    expect((await bob.call('GET', `/messages/${id}`)).body.data.deletedAt).toBeUndefined();
    expect(await idsIn('/moderation/flagged-messages')).toContain(id);
  });

  it('is the server API’s alone, and names a bad status', async () => {
    const id = await flaggedMessage('who reviews?');
    const asClient = await bob.call('PATCH', `/moderation/flagged-messages/${id}`, { status: 'approved' });
    expect(asClient.status).toBe(404);
    expect(asClient.body.error.code).toBe('ERR_API_NOT_FOUND');
    expect((await bob.call('GET', '/moderation/reviewed-messages')).status).toBe(404);
    const authOnly = await api.call('PATCH', `/moderation/flagged-messages/${id}`, {
      apikey: APP_ONE.authKey,
      body: { status: 'approved' },
    });
    expect(authOnly.status).toBe(403);
    for (const body of [{}, { status: 'blocked' }, { status: 1 }]) {
      const bad = await api.call('PATCH', `/moderation/flagged-messages/${id}`, { body });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.field).toBe('status');
    }
    expect(await idsIn('/moderation/flagged-messages')).toContain(id);
  });
});
