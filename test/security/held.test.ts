import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from '../server/client-support.js';
import {
  APP_ONE,
  APP_TWO,
  ENGINES,
  textMessage,
  uniqueId,
  apiFixtures,
  useTestServer,
} from '../server/support.js';

const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * What held in the security review of issue #18, kept covered, each attack once: mallory, an
 * ordinary user of app one, tries to read others' chats, post where she does not belong, edit
 * others' messages, speak as someone else, and use tokens across apps or unsigned.
 */
describe.each(ENGINES)('attacks that are refused on %s', (engine) => {
  const api = useTestServer(engine);
  const { createUser } = apiFixtures(api.call);
  let alice: TestClient;
  let mallory: TestClient;
  const ids = { alice: '', bob: '', mallory: '', team: '', club: '', secret: '' };

  beforeAll(async () => {
    for (const key of ['alice', 'bob', 'mallory'] as const) ids[key] = await createUser(key);
    ids.team = uniqueId('team');
    ids.club = uniqueId('club');
    for (const [guid, type] of [
      [ids.team, 'public'],
      [ids.club, 'password'],
    ] as const) {
      const created = await api.call('POST', '/groups', {
        body: {
          guid,
          name: guid,
          type,
          ...(type === 'password' ? { password: 'members-only' } : {}),
          members: { participants: [ids.bob] },
        },
        onBehalfOf: ids.alice,
      });
      expect(created.status).toBe(200);
    }
    const secret = await api.call('POST', '/messages', {
      body: textMessage(ids.bob, 'between alice and bob'),
      onBehalfOf: ids.alice,
    });
    ids.secret = secret.body.data.id;
    await api.call('POST', '/messages', {
      body: textMessage(ids.team, 'team talk', 'group'),
      onBehalfOf: ids.alice,
    });
    alice = await connectClient(api.server, APP_ONE, ids.alice);
    mallory = await connectClient(api.server, APP_ONE, ids.mallory, { socket: false });
  });
  afterAll(async () => {
    await alice?.close();
  });

  const text = (receiver: string, body: string, receiverType: 'user' | 'group' = 'user') => ({
    ...textMessage(receiver, body, receiverType),
    text: body,
  });

  describe("reading others' conversations", () => {
    it("shows a user none of others' one-on-one messages, in any list", async () => {
      const seen = [
        await mallory.call('GET', `/users/${ids.alice}/messages`),
        await mallory.call('GET', `/users/${ids.bob}/messages`),
        await mallory.call('GET', '/messages'),
        await mallory.call('GET', '/conversations'),
      ];
      for (const answer of seen) expect(answer.status).toBe(200);
      expect(JSON.stringify(seen)).not.toContain('between alice and bob');
    });

    it("refuses a non-member a group's history and conversation", async () => {
      for (const path of [`/groups/${ids.team}/messages`, `/groups/${ids.team}/conversation`]) {
        const answer = await mallory.call('GET', path);
        expect(answer.status, path).toBe(403);
        expect(answer.body.error.code).toBe('ERR_NOT_A_MEMBER');
      }
    });

    it('shows the server API acting for a user only what that user can see', async () => {
      const listed = await api.call('GET', '/messages', { onBehalfOf: ids.mallory });
      expect(listed.body.data).toEqual([]);
      const group = await api.call('GET', `/groups/${ids.team}/messages`, { onBehalfOf: ids.mallory });
      expect(group.body.error.code).toBe('ERR_NOT_A_MEMBER');
    });
  });

  describe('posting to closed groups', () => {
    it('refuses a message from a non-member to a public or password group', async () => {
      for (const guid of [ids.team, ids.club]) {
        const answer = await mallory.call('POST', '/messages', text(guid, 'let me in', 'group'));
        expect(answer.status).toBe(403);
        expect(answer.body.error.code).toBe('ERR_NOT_A_MEMBER');
      }
      const acting = await api.call('POST', '/messages', {
        body: textMessage(ids.team, 'let me in', 'group'),
        onBehalfOf: ids.mallory,
      });
      expect(acting.body.error.code).toBe('ERR_NOT_A_MEMBER');
    });

    it('refuses to join a password group without its password', async () => {
      const answer = await mallory.call('POST', `/groups/${ids.club}/members`, { password: 'guess' });
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('ERR_WRONG_GROUP_PASS');
    });
  });

  describe("editing others' messages", () => {
    it('refuses a user who can see a message but did not send it the edit and the delete', async () => {
      const bob = await connectClient(api.server, APP_ONE, ids.bob, { socket: false });
      const edit = await bob.call('PUT', `/messages/${ids.secret}`, { data: { text: 'bob wrote this' } });
      const remove = await bob.call('DELETE', `/messages/${ids.secret}`);
      for (const answer of [edit, remove]) {
        expect(answer.status).toBe(403);
        expect(answer.body.error.code).toBe('ERR_MESSAGE_NOT_A_SENDER');
      }
      const acting = await api.call('PUT', `/messages/${ids.secret}`, {
        body: { data: { text: 'hijack' } },
        onBehalfOf: ids.bob,
      });
      expect(acting.body.error.code).toBe('ERR_MESSAGE_NOT_A_SENDER');
      const stored = await api.call('GET', `/messages/${ids.secret}`);
      expect(stored.body.data.data.text).toBe('between alice and bob');
      expect(stored.body.data.deletedAt).toBeUndefined();
    });
  });

  describe('acting as another user', () => {
    it('sends as the logged-in user whatever sender the body names', async () => {
      const answer = await mallory.call('POST', '/messages', {
        ...text(ids.bob, 'from alice, honest'),
        sender: ids.alice,
        data: { text: 'from alice, honest', entities: { sender: { entity: { uid: ids.alice } } } },
      });
      expect(answer.body.data.sender).toBe(ids.mallory);
      expect(answer.body.data.data.entities.sender.entity.uid).toBe(ids.mallory);
      expect(answer.body.data.conversationId).toContain(ids.mallory);
    });

    it('ignores onBehalfOf on a user token: the token decides who acts', async () => {
      const response = await fetch(`${api.url}/v3/messages`, {
        method: 'POST',
        headers: {
          appId: APP_ONE.appId,
          authToken: mallory.authToken,
          onBehalfOf: ids.alice,
          'content-type': 'application/json',
        },
        body: JSON.stringify(text(ids.bob, 'as alice?')),
      });
      const answer = (await response.json()) as { data: { sender: string } };
      expect(answer.data.sender).toBe(ids.mallory);
      const listed = await fetch(`${api.url}/v3/messages`, {
        headers: { appId: APP_ONE.appId, authToken: mallory.authToken, onBehalfOf: ids.alice },
      });
      expect(JSON.stringify(await listed.json())).not.toContain('between alice and bob');
    });
  });

  describe('tokens across apps', () => {
    it("refuses one app's fullAccess key for another app", async () => {
      const response = await api.call('GET', '/users', { apikey: APP_TWO.apiKey });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('AUTH_ERR_APIKEY_NOT_FOUND');
    });

    it("refuses one app's auth token for another app", async () => {
      const response = await fetch(`${api.url}/v3/me`, {
        headers: { appId: APP_TWO.appId, authToken: alice.authToken },
      });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'AUTH_ERR_AUTH_TOKEN_NOT_FOUND',
      );
    });
  });

  describe('socket tokens', () => {
    /** Opens a socket, sends `auth` as its auth frame and resolves with the close code. */
    const authenticateWith = async (auth: string, appId?: string): Promise<number> => {
      const socket = new WebSocket(api.url.replace(/^http/, 'ws'));
      await new Promise((resolve) => socket.once('open', resolve));
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      socket.send(
        JSON.stringify({ type: 'auth', ...(appId === undefined ? {} : { appId }), body: { auth } }),
      );
      return closed;
    };
    const claimsOf = (jwt: string) =>
      JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

    it('refuses a socket whose JWT signature does not verify, and closes it', async () => {
      expect(await authenticateWith(`${alice.jwt.slice(0, -4)}AAAA`)).toBe(4001);
    });

    it('refuses an unsigned JWT (alg none) carrying a real session id', async () => {
      const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claimsOf(alice.jwt))}.`;
      expect(await authenticateWith(unsigned)).toBe(4001);
    });

    it('refuses a valid socket token presented for another app', async () => {
      expect(await authenticateWith(alice.jwt, APP_TWO.appId)).toBe(4001);
    });
  });
});
