import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FLAG_REASONS } from '../../shared/moderation.js';
import { connectClient, type TestClient } from './client-support.js';
import { APP_ONE, APP_TWO, ENGINES, apiFixtures, textMessage, useTestServer } from './support.js';

/**
 * The rest of the users surface, flags and per-user conversation deletion through the REST API and
 * the client API, written as the caller and as the attacker (another user, another app, a
 * non-member), on both engines.
 */
describe.each(ENGINES)('users surface, flags and conversations on %s', (engine) => {
  const api = useTestServer(engine);
  let alice: string;
  let bob: string;
  let carol: string;
  let privateGroup: string;
  let bobClient: TestClient;
  let carolClient: TestClient;
  let toBob: string;

  beforeAll(async () => {
    const { createUser } = apiFixtures(api.call);
    alice = await createUser('alice');
    bob = await createUser('bob', { metadata: { '@private': { phone: '555-0101' } } });
    carol = await createUser('carol', { metadata: { '@private': { phone: '555-0102' } } });
    privateGroup = `private-${alice}`;
    const created = await api.call('POST', '/groups', {
      body: { guid: privateGroup, name: 'Private', type: 'private', members: { participants: [bob] } },
      onBehalfOf: alice,
    });
    expect(created.status).toBe(200);
    const sent = await api.call('POST', '/messages', {
      body: textMessage(bob, 'hello bob'),
      onBehalfOf: alice,
    });
    toBob = sent.body.data.id as string;
    bobClient = await connectClient(api.server, APP_ONE, bob);
    carolClient = await connectClient(api.server, APP_ONE, carol, { socket: false });
  });
  afterAll(async () => {
    await bobClient?.close();
    await carolClient?.close();
  });

  describe('auth tokens', () => {
    it('reads one token of a user, and answers another user’s token as missing', async () => {
      const own = await api.call('GET', `/users/${bob}/auth_tokens/${bobClient.authToken}`);
      expect(own.status).toBe(200);
      expect(own.body.data).toMatchObject({ uid: bob, authToken: bobClient.authToken });
      const other = await api.call('GET', `/users/${carol}/auth_tokens/${bobClient.authToken}`);
      expect(other.status).toBe(404);
      expect(other.body.error.code).toBe('ERR_AUTH_TOKEN_NOT_FOUND');
    });

    it('records the platform, user agent and app of a token, shown when it is read', async () => {
      const updated = await api.call('PUT', `/users/${bob}/auth_tokens/${bobClient.authToken}`, {
        body: { platform: 'web', userAgent: 'Parley test', appInfo: { version: '1.2.3' } },
      });
      expect(updated.status).toBe(200);
      const read = await api.call('GET', `/users/${bob}/auth_tokens/${bobClient.authToken}`);
      expect(read.body.data).toMatchObject({
        platform: 'web',
        userAgent: 'Parley test',
        appInfo: { version: '1.2.3' },
        updatedAt: expect.any(Number),
      });
    });

    it('is not part of the client API', async () => {
      const response = await bobClient.call('GET', `/users/${bob}/auth_tokens/${bobClient.authToken}`);
      expect(response.body.error.code).toBe('ERR_API_NOT_FOUND');
    });
  });

  describe('deactivating and reactivating users', () => {
    it('deactivates users, who then do not exist for reads, and reactivates them', async () => {
      const dave = await apiFixtures(api.call).createUser('dave');
      const off = await api.call('DELETE', '/users', { body: { uidsToDeactivate: [dave, 'nobody-here'] } });
      expect(off.body.data).toEqual({ deactivatedUids: [dave] });
      expect((await api.call('GET', `/users/${dave}`)).status).toBe(404);
      const on = await api.call('PUT', '/users', { body: { uidsToActivate: [dave, alice] } });
      expect(on.status).toBe(200);
      expect(on.body.data).toEqual({ reactivatedUids: [dave], nonDeactivatedUids: [alice] });
      expect((await api.call('GET', `/users/${dave}`)).body.data.uid).toBe(dave);
    });

    it('does not reactivate a user of another app', async () => {
      const dave = await apiFixtures(api.call).createUser('dave');
      await api.call('DELETE', '/users', { body: { uidsToDeactivate: [dave] } });
      const other = await api.call('PUT', '/users', {
        body: { uidsToActivate: [dave] },
        apikey: APP_TWO.apiKey,
        appId: APP_TWO.appId,
      });
      expect(other.body.data).toEqual({ reactivatedUids: [], nonDeactivatedUids: [dave] });
      expect((await api.call('GET', `/users/${dave}`)).status).toBe(404);
    });
  });

  describe('friends', () => {
    it('adds friends both ways: each lists the other, with the conversation between them', async () => {
      const added = await api.call('POST', `/users/${alice}/friends`, {
        body: { accepted: [bob, 'nobody-here'] },
      });
      expect(added.body.data.accepted[bob]).toMatchObject({ success: true });
      expect(added.body.data.accepted['nobody-here']).toMatchObject({ success: false });
      const ofAlice = await api.call('GET', `/users/${alice}/friends`);
      expect(ofAlice.body.data.map((user: { uid: string }) => user.uid)).toEqual([bob]);
      expect(ofAlice.body.data[0].conversationId).toBe([alice, bob].sort().join('_user_'));
      const ofBob = await api.call('GET', `/users/${bob}/friends`);
      expect(ofBob.body.data.map((user: { uid: string }) => user.uid)).toEqual([alice]);
    });

    it('lists only the session user’s friends for the SDK’s friendsOnly, without their private metadata', async () => {
      await api.call('POST', `/users/${carol}/friends`, { body: { accepted: [bob] } });
      const listed = await carolClient.call('GET', '/users?friendsOnly=1&per_page=30');
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((user: { uid: string }) => user.uid)).toEqual([bob]);
      expect(JSON.stringify(listed.body)).not.toContain('555-0101');
    });

    it('removes friends on both sides', async () => {
      await api.call('POST', `/users/${carol}/friends`, { body: { accepted: [alice] } });
      const removed = await api.call('DELETE', `/users/${alice}/friends`, { body: { friends: [carol] } });
      expect(removed.status).toBe(200);
      const ofCarol = await api.call('GET', `/users/${carol}/friends`);
      expect(ofCarol.body.data.map((user: { uid: string }) => user.uid)).toEqual([bob]);
    });
  });

  describe('a message by its muid', () => {
    it('answers the session user’s own message sent with that muid, and nobody else’s', async () => {
      const muid = `muid-${bob}`;
      const sent = await bobClient.call('POST', '/messages', { ...textMessage(alice, 'with muid'), muid });
      expect(sent.status).toBe(200);
      const own = await bobClient.call('GET', `/user/messages/${muid}`);
      expect(own.body.data).toMatchObject({ id: sent.body.data.id, muid });
      const other = await carolClient.call('GET', `/user/messages/${muid}`);
      expect(other.status).toBe(404);
      expect(other.body.error.code).toBe('ERR_MESSAGE_ID_NOT_FOUND');
    });
  });

  describe('flags', () => {
    it('lists the default flag reasons on the REST API and in the SDK’s app settings', async () => {
      const reasons = await api.call('GET', '/moderation/reasons');
      expect(reasons.body.data.map((reason: { id: string }) => reason.id)).toEqual(
        DEFAULT_FLAG_REASONS.map((reason) => reason.id),
      );
      const settings = await bobClient.call('GET', '/settings');
      expect(settings.body.data.flagReasons).toEqual(reasons.body.data);
    });

    it('flags a message the user can see, listed for the app with the reason and remark', async () => {
      const flagged = await bobClient.call('POST', `/messages/${toBob}/flagged`, {
        id: 'spam',
        remark: 'ads again',
      });
      expect(flagged.status).toBe(200);
      const listed = await api.call('GET', '/moderation/flagged-messages');
      const entry = listed.body.data.find((item: { message: { id: string } }) => item.message.id === toBob);
      expect(entry.flags).toEqual([
        expect.objectContaining({
          flaggedBy: expect.objectContaining({ uid: bob }),
          reason: { id: 'spam', name: 'Spam' },
          remark: 'ads again',
        }),
      ]);
    });

    it('flags on behalf of a user through the REST API with reasonId', async () => {
      const flagged = await api.call('POST', `/messages/${toBob}/flagged`, {
        body: { reasonId: 'harassment' },
        onBehalfOf: alice,
      });
      expect(flagged.status).toBe(200);
      const listed = await api.call('GET', '/moderation/flagged-messages');
      const entry = listed.body.data.find((item: { message: { id: string } }) => item.message.id === toBob);
      expect(entry.flags.map((flag: { reason: { id: string } }) => flag.reason.id).sort()).toEqual([
        'harassment',
        'spam',
      ]);
    });

    it('answers a message the user cannot see exactly as a missing one', async () => {
      const response = await carolClient.call('POST', `/messages/${toBob}/flagged`, { id: 'spam' });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('ERR_MESSAGE_ID_NOT_FOUND');
    });

    it('refuses a reason the app does not have, naming reasonId', async () => {
      const response = await bobClient.call('POST', `/messages/${toBob}/flagged`, { id: 'made-up' });
      expect(response.status).toBe(400);
      expect(response.body.error.details.field).toBe('reasonId');
    });

    it('does not show flagged messages to a client', async () => {
      const response = await bobClient.call('GET', '/moderation/flagged-messages');
      expect(response.body.error.code).toBe('ERR_API_NOT_FOUND');
    });
  });

  describe('deleting a conversation for one user', () => {
    const listOf = async (client: TestClient) =>
      ((await client.call('GET', '/conversations')).body.data as { conversationId: string }[]).map(
        (conversation) => conversation.conversationId,
      );

    it('removes it from that user’s list; the other side keeps it and its history', async () => {
      const { createUser } = apiFixtures(api.call);
      const erin = await createUser('erin');
      const frank = await createUser('frank');
      await api.call('POST', '/messages', { body: textMessage(frank, 'hi frank'), onBehalfOf: erin });
      const conversationId = [erin, frank].sort().join('_user_');
      const deleted = await api.call('DELETE', `/users/${frank}/conversation`, { onBehalfOf: erin });
      expect(deleted.status).toBe(200);
      const erins = await api.call('GET', '/conversations', { onBehalfOf: erin });
      expect(erins.body.data.map((c: { conversationId: string }) => c.conversationId)).not.toContain(
        conversationId,
      );
      expect((await api.call('GET', `/users/${frank}/conversation`, { onBehalfOf: erin })).status).toBe(404);
      const franks = await api.call('GET', '/conversations', { onBehalfOf: frank });
      expect(franks.body.data.map((c: { conversationId: string }) => c.conversationId)).toContain(
        conversationId,
      );
      const history = await api.call('GET', `/users/${erin}/messages`, { onBehalfOf: frank });
      expect(history.body.data.map((m: { data: { text?: string } }) => m.data.text)).toContain('hi frank');
    });

    it('comes back to the user’s list with the next message', async () => {
      const conversationId = [alice, bob].sort().join('_user_');
      expect((await bobClient.call('DELETE', `/users/${alice}/conversation`)).status).toBe(200);
      expect(await listOf(bobClient)).not.toContain(conversationId);
      await api.call('POST', '/messages', { body: textMessage(bob, 'again'), onBehalfOf: alice });
      expect(await listOf(bobClient)).toContain(conversationId);
    });

    it('answers a private group the caller is not in as a missing group', async () => {
      const response = await carolClient.call('DELETE', `/groups/${privateGroup}/conversation`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('ERR_GUID_NOT_FOUND');
    });

    it('refuses deleteMessagesPermanently, naming the field', async () => {
      const response = await api.call('DELETE', `/users/${bob}/conversation`, {
        body: { deleteMessagesPermanently: true },
        onBehalfOf: alice,
      });
      expect(response.status).toBe(400);
      expect(response.body.error.details.field).toBe('deleteMessagesPermanently');
    });
  });

  describe('online counts (the SDK’s getOnlineUserCount and getOnlineGroupMemberCount)', () => {
    const online = (jwt: string | undefined, body: unknown) =>
      fetch(`${api.url}/api/v1/online-members`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(jwt === undefined ? {} : { authorization: jwt }) },
        body: JSON.stringify(body),
      }).then(async (response) => ({ status: response.status, body: await response.json() }));

    it('counts the users online in the app from the stored presence', async () => {
      const answer = await online(bobClient.jwt, {});
      expect(answer.status).toBe(200);
      // Bob's socket is open; alice and carol have none.
      expect(answer.body.data).toEqual({ onlineUsersCount: 1 });
    });

    it('counts members online per group, leaving out a private group the caller is not in', async () => {
      expect((await online(bobClient.jwt, { groups: [privateGroup] })).body.data).toEqual({
        groups: { [privateGroup]: 1 },
      });
      expect((await online(carolClient.jwt, { groups: [privateGroup] })).body.data).toEqual({ groups: {} });
    });

    it('refuses a call without the session’s jwt', async () => {
      const answer = await online('not-a-jwt', {});
      expect(answer.status).toBe(401);
    });
  });

  describe('fuzz: bad bodies and ids on the new routes', () => {
    const BAD_BODIES: unknown[] = [
      [],
      'text',
      42,
      null,
      { uidsToActivate: 'x', uidsToDeactivate: [1], accepted: [{}], friends: [''] },
      { reasonId: 7, id: [], remark: 'x'.repeat(5000) },
      { platform: { a: 1 }, userAgent: 9, appInfo: 'x' },
      { groups: 'x' },
      { groups: ['../x'] },
      { deleteMessagesPermanently: 'yes', conversationWith: 5 },
    ];
    const BAD_IDS = ['%00', 'a'.repeat(300), '..', 'x%2Fy'];

    it('answers every bad body and id with a 4xx naming the field, and never a 5xx', async () => {
      const server = [
        ['PUT', '/users'],
        ['DELETE', '/users'],
        ['POST', '/users/{uid}/friends'],
        ['DELETE', '/users/{uid}/friends'],
        ['GET', '/users/{uid}/friends'],
        ['PUT', '/users/{uid}/auth_tokens/{id}'],
        ['GET', '/users/{uid}/auth_tokens/{id}'],
        ['POST', '/messages/{id}/flagged'],
        ['GET', '/moderation/reasons/{id}'],
        ['DELETE', '/users/{uid}/conversation'],
        ['DELETE', '/groups/{uid}/conversation'],
      ] as const;
      const client = [
        ['POST', '/messages/{id}/flagged'],
        ['GET', '/user/messages/{id}'],
        ['DELETE', '/users/{uid}/conversation'],
        ['DELETE', '/groups/{uid}/conversation'],
      ] as const;
      const problems: string[] = [];
      const check = (what: string, status: number, body: { error?: { details?: { field?: unknown } } }) => {
        if (status >= 500 || status < 400) problems.push(`${what} → ${status}`);
        if (status === 400 && typeof body?.error?.details?.field !== 'string')
          problems.push(`${what}: no field`);
      };
      for (const [method, template] of server) {
        for (const id of [bob, ...BAD_IDS]) {
          const path = template.replace('{uid}', id).replace('{id}', id === bob ? toBob : id);
          if (method === 'GET') {
            const response = await api.call(
              method,
              `${path}?page=-1&perPage=abc&searchKey=${'k'.repeat(300)}`,
            );
            check(`${method} ${path} (bad query)`, response.status, response.body);
            continue;
          }
          for (const body of BAD_BODIES) {
            const response = await api.call(method, path, {
              rawBody: JSON.stringify(body),
              onBehalfOf: alice,
            });
            check(`${method} ${path} ${JSON.stringify(body)}`, response.status, response.body);
          }
        }
      }
      for (const [method, template] of client) {
        for (const id of BAD_IDS) {
          const path = template.replace('{uid}', id).replace('{id}', id);
          for (const body of method === 'GET' ? [undefined] : BAD_BODIES) {
            const response = await bobClient.call(method, path, body);
            check(`client ${method} ${path} ${JSON.stringify(body)}`, response.status, response.body);
          }
        }
      }
      for (const body of BAD_BODIES) {
        const response = await fetch(`${api.url}/api/v1/online-members`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: bobClient.jwt },
          body: JSON.stringify(body),
        });
        check(`online-members ${JSON.stringify(body)}`, response.status, await response.json());
      }
      expect(problems).toEqual([]);
    });
  });
});
