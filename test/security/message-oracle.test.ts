import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from '../server/client-support.js';
import { APP_ONE, ENGINES, textMessage, uniqueId, apiFixtures, useTestServer } from '../server/support.js';

interface Answer {
  status: number;
  body: unknown;
}

/** An id no message will have in these tests. */
const MISSING_ID = '987654321';

/**
 * The attack: an outsider walks message ids to learn which exist and where they live. Someone
 * else's message (one-on-one or in a private group) must be answered exactly as a missing id is:
 * same status, code and text, naming no group or user.
 */
describe.each(ENGINES)('message ids tell nothing on %s', (engine) => {
  const api = useTestServer(engine);
  const { createUser } = apiFixtures(api.call);
  let outsider: TestClient;
  const ids = { alice: '', bob: '', outsider: '', vault: '', direct: '', inVault: '' };

  beforeAll(async () => {
    for (const key of ['alice', 'bob', 'outsider'] as const) ids[key] = await createUser(key);
    ids.vault = uniqueId('vault');
    const group = await api.call('POST', '/groups', {
      body: { guid: ids.vault, name: 'Vault', type: 'private', members: { participants: [ids.bob] } },
      onBehalfOf: ids.alice,
    });
    expect(group.status).toBe(200);
    const send = (body: unknown) => api.call('POST', '/messages', { body, onBehalfOf: ids.alice });
    ids.direct = (await send(textMessage(ids.bob, 'between alice and bob'))).body.data.id;
    ids.inVault = (await send(textMessage(ids.vault, 'in the vault', 'group'))).body.data.id;
    outsider = await connectClient(api.server, APP_ONE, ids.outsider, { socket: false });
  });

  /** The answer about `id`, written as if the missing id had been asked for. */
  const asIfMissing = (answer: Answer, id: string): Answer =>
    JSON.parse(JSON.stringify(answer).replaceAll(id, MISSING_ID)) as Answer;

  const probes: [string, string, (id: string) => string, unknown?][] = [
    ['read', 'GET', (id) => `/messages/${id}`],
    ['edit', 'PUT', (id) => `/messages/${id}`, { data: { text: 'mine now' } }],
    ['delete', 'DELETE', (id) => `/messages/${id}`],
    ['interact with', 'PATCH', (id) => `/messages/${id}/interacted`, { interactions: ['submit'] }],
  ];

  for (const [what, method, path, body] of probes) {
    it(`a user trying to ${what} someone else's message is answered as for a missing id`, async () => {
      const missing = await outsider.call(method, path(MISSING_ID), body);
      expect(missing.status).toBe(404);
      expect((missing.body as { error: { code: string } }).error.code).toBe('ERR_MESSAGE_ID_NOT_FOUND');
      for (const id of [ids.direct, ids.inVault]) {
        const answer = await outsider.call(method, path(id), body);
        expect(asIfMissing(answer, id)).toEqual(missing);
        for (const name of [ids.vault, ids.alice, ids.bob])
          expect(JSON.stringify(answer)).not.toContain(name);
      }
    });
  }

  it('answers the server API acting for an outsider the same way', async () => {
    const missing = await api.call('GET', `/messages/${MISSING_ID}`, { onBehalfOf: ids.outsider });
    for (const id of [ids.direct, ids.inVault]) {
      const answer = await api.call('GET', `/messages/${id}`, { onBehalfOf: ids.outsider });
      expect(asIfMissing({ status: answer.status, body: answer.body }, id)).toEqual({
        status: missing.status,
        body: missing.body,
      });
    }
    // Acting as itself, the app reads any message.
    expect((await api.call('GET', `/messages/${ids.inVault}`)).body.data.data.text).toBe('in the vault');
  });
});
