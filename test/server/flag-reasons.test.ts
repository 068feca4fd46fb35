import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FLAG_REASONS } from '../../shared/moderation.js';
import { connectClient, type TestClient } from './client-support.js';
import {
  APP_ONE,
  APP_TWO,
  ENGINES,
  apiFixtures,
  callServerApi,
  textMessage,
  uniqueId,
  useTestServer,
} from './support.js';

/** The app's own flag reasons beside the defaults, as a REST client manages them and the SDK reads them. */
describe.each(ENGINES)('custom flag reasons on %s', (engine) => {
  const api = useTestServer(engine);
  let bob: TestClient;
  let toBob: string;

  beforeAll(async () => {
    const { createUser } = apiFixtures(api.call);
    const alice = await createUser('alice');
    const bobUid = await createUser('bob');
    const sent = await api.call('POST', '/messages', {
      body: textMessage(bobUid, 'buy now'),
      onBehalfOf: alice,
    });
    toBob = sent.body.data.id as string;
    bob = await connectClient(api.server, APP_ONE, bobUid, { socket: false });
  });

  const addReason = async (extra: Record<string, unknown> = {}) => {
    const id = uniqueId('reason').toLowerCase();
    const created = await api.call('POST', '/moderation/reasons', {
      body: { id, name: `Reason ${id}`, ...extra },
    });
    expect(created.status).toBe(200);
    return created.body.data as { id: string; name: string; description: string; default: boolean };
  };

  it('lists a new reason after the defaults, on the REST API and in the SDK’s settings', async () => {
    const before = await bob.call('GET', '/settings');
    const reason = await addReason({ description: 'Selling something' });
    expect(reason).toMatchObject({ description: 'Selling something', default: false });
    const listed = await api.call('GET', '/moderation/reasons');
    const ids = listed.body.data.map((entry: { id: string }) => entry.id);
    expect(ids.slice(0, DEFAULT_FLAG_REASONS.length)).toEqual(DEFAULT_FLAG_REASONS.map((entry) => entry.id));
    expect(ids).toContain(reason.id);
    const after = await bob.call('GET', '/settings');
    expect(after.body.data.flagReasons).toEqual(listed.body.data);
    // A changed hash makes the SDK restart its session: a new reason must not do that.
    expect(after.body.data.settingsHash).toBe(before.body.data.settingsHash);
  });

  it('lets a user flag with a reason of the app’s own, listed with its name and the remark', async () => {
    const reason = await addReason();
    const flagged = await bob.call('POST', `/messages/${toBob}/flagged`, { id: reason.id, remark: 'a scam' });
    expect(flagged.status).toBe(200);
    const listed = await api.call('GET', '/moderation/flagged-messages');
    const entry = listed.body.data.find((item: { message: { id: string } }) => item.message.id === toBob);
    expect(entry.flags[0]).toMatchObject({ reason: { id: reason.id, name: reason.name }, remark: 'a scam' });
  });

  it('renames a reason and deletes it, after which it can no longer be given', async () => {
    const reason = await addReason();
    const renamed = await api.call('PUT', `/moderation/reasons/${reason.id}`, { body: { name: 'Scam' } });
    expect(renamed.body.data).toMatchObject({ id: reason.id, name: 'Scam' });
    expect((await api.call('GET', `/moderation/reasons/${reason.id}`)).body.data.name).toBe('Scam');
    const deleted = await api.call('DELETE', `/moderation/reasons/${reason.id}`);
    expect(deleted.body.data.success).toBe(true);
    const gone = await api.call('GET', `/moderation/reasons/${reason.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('ERR_REASON_NOT_FOUND');
    const refused = await bob.call('POST', `/messages/${toBob}/flagged`, { id: reason.id });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.field).toBe('reasonId');
  });

  it('keeps the default reasons as they are', async () => {
    for (const [method, body] of [
      ['PUT', { name: 'Not spam' }],
      ['DELETE', undefined],
    ] as const) {
      const refused = await api.call(method, '/moderation/reasons/spam', body === undefined ? {} : { body });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('ERR_DEFAULT_REASON');
    }
    const clash = await api.call('POST', '/moderation/reasons', { body: { id: 'spam', name: 'Mine' } });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('ERR_REASON_ALREADY_EXISTS');
  });

  it("keeps an app's reasons from other apps, authOnly keys and clients", async () => {
    const reason = await addReason();
    expect((await callServerApi(api.url, APP_TWO, 'GET', `/moderation/reasons/${reason.id}`)).status).toBe(
      404,
    );
    expect((await callServerApi(api.url, APP_TWO, 'DELETE', `/moderation/reasons/${reason.id}`)).status).toBe(
      404,
    );
    expect((await api.call('GET', `/moderation/reasons/${reason.id}`)).status).toBe(200);
    const authOnly = await api.call('POST', '/moderation/reasons', {
      apikey: APP_ONE.authKey,
      body: { id: 'sneaky', name: 'Sneaky' },
    });
    expect(authOnly.status).toBe(403);
    const asClient = await bob.call('POST', '/moderation/reasons', { id: 'sneaky', name: 'Sneaky' });
    expect(asClient.status).toBe(404);
    expect(asClient.body.error.code).toBe('ERR_API_NOT_FOUND');
  });

  it.each([
    ['POST', {}, 'id'],
    ['POST', { id: 'has space', name: 'x' }, 'id'],
    ['POST', { id: 'ok', name: '  ' }, 'name'],
    ['POST', { id: 'ok', name: 'x', description: 'd'.repeat(1001) }, 'description'],
    ['POST', { id: 'ok', name: 'x', weight: 3 }, 'weight'],
    ['PUT', {}, 'name'],
    ['PUT', { name: 12 }, 'name'],
  ])('answers %s with %j by a 400 naming %s', async (method, body, field) => {
    const path = method === 'POST' ? '/moderation/reasons' : `/moderation/reasons/${(await addReason()).id}`;
    const answer = await api.call(method, path, { body });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.error)).toContain(field);
  });
});
