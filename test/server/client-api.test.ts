import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ONE,
  ENGINES,
  createTestStore,
  startTestServer,
  type TestServer,
  type TestStore,
} from './support.js';
import { connectClient, type Frame, type TestClient } from './client-support.js';

const text = (receiver: string, body: string, receiverType: 'user' | 'group' = 'user') => ({
  receiver,
  receiverType,
  category: 'message',
  type: 'text',
  data: { text: body },
  text: body,
});

describe.each(ENGINES)('client protocol on %s', (engine) => {
  let store: TestStore;
  let api: TestServer;
  let alice: TestClient;
  let bob: TestClient;
  let carol: TestClient;
  const clientCall = (path: string, init: RequestInit) => fetch(`${api.url}/v3${path}`, init);

  beforeAll(async () => {
    store = await createTestStore(engine);
    api = await startTestServer(store);
    for (const uid of ['alice', 'bob', 'carol'])
      await api.call('POST', '/users', { body: { uid, name: uid.toUpperCase() } });
    await api.call('POST', '/groups', {
      body: {
        guid: 'team',
        name: 'Team',
        type: 'public',
        owner: 'alice',
        members: { participants: ['bob'] },
      },
    });
    await api.call('POST', '/groups', {
      body: { guid: 'vault', name: 'Vault', type: 'password', password: 'open-sesame' },
    });
    alice = await connectClient(api.server, APP_ONE, 'alice');
    bob = await connectClient(api.server, APP_ONE, 'bob');
    carol = await connectClient(api.server, APP_ONE, 'carol');
  });
  afterAll(async () => {
    for (const client of [alice, bob, carol]) await client?.close();
    await api?.close();
    await store?.dispose();
  });

  describe('login and session', () => {
    it('logs a user in by UID with the authOnly key and answers the user with an authToken', async () => {
      const response = await clientCall('/users/bob/auth_tokens', {
        method: 'POST',
        headers: { appId: APP_ONE.appId, apiKey: APP_ONE.authKey },
        body: JSON.stringify({ platform: 'WEB', deviceId: 'x' }),
      });
      const body = await response.json();
      expect(body.data).toMatchObject({ uid: 'bob', name: 'BOB' });
      expect(body.data.authToken).toMatch(/^bob_/);
    });

    it('refuses an unknown UID with ERR_UID_NOT_FOUND unless the app creates users on first login', async () => {
      const login = () =>
        clientCall('/users/dave/auth_tokens', {
          method: 'POST',
          headers: { appId: APP_ONE.appId, apiKey: APP_ONE.authKey },
        });
      expect((await (await login()).json()).error.code).toBe('ERR_UID_NOT_FOUND');
      await api.call('PATCH', '/client-settings', { body: { createUsersOnLogin: true } });
      expect((await (await login()).json()).data).toMatchObject({ uid: 'dave', name: 'dave' });
      await api.call('PATCH', '/client-settings', { body: { createUsersOnLogin: false } });
    });

    it('keeps a fullAccess key on the auth-token path with the server API', async () => {
      const response = await api.call('POST', '/users/bob/auth_tokens', { body: { force: true } });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ uid: 'bob' });
      expect(response.body.data.jwt).toBeUndefined();
    });

    it('answers /me with the user, the session token, a socket JWT and settings pointing at this server', async () => {
      const me = await alice.call('GET', '/me');
      const host = new URL(api.url).host;
      expect(me.body.data).toMatchObject({ uid: 'alice', name: 'ALICE', authToken: alice.authToken });
      expect(me.body.data.jwt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(me.body.data.settings).toMatchObject({
        CLIENT_API_HOST: host,
        ADMIN_API_HOST: host,
        CHAT_HOST: new URL(api.url).hostname,
        CHAT_WSS_PORT: new URL(api.url).port,
        CHAT_API_VERSION: 'v3',
        APP_VERSION: 4,
        MODE: 'DEFAULT',
      });
      const settings = await clientCall('/settings', { headers: { appId: APP_ONE.appId } });
      expect((await settings.json()).data.settingsHash).toBe(me.body.data.settings.settingsHash);
    });

    it('ends a session with AUTH_ERR_AUTH_TOKEN_NOT_FOUND once it is logged out', async () => {
      const other = await connectClient(api.server, APP_ONE, 'carol', { socket: false });
      expect((await other.call('DELETE', '/me')).status).toBe(200);
      const after = await other.call('GET', '/me');
      expect(after.status).toBe(401);
      expect(after.body.error.code).toBe('AUTH_ERR_AUTH_TOKEN_NOT_FOUND');
    });

    it('keeps at most 50 sessions per user: each login beyond ends one of the oldest', async () => {
      await api.call('POST', '/users', { body: { uid: 'erin', name: 'Erin' } });
      for (let index = 0; index < 52; index += 1) {
        const login = await clientCall('/users/erin/auth_tokens', {
          method: 'POST',
          headers: { appId: APP_ONE.appId, apiKey: APP_ONE.authKey },
        });
        expect(login.status).toBe(200);
      }
      const tokens = await api.call('GET', '/users/erin/auth_tokens?perPage=100');
      expect(tokens.body.meta.pagination.total).toBe(50);
    });

    it('answers the CORS preflight for the headers the SDK sends', async () => {
      const response = await clientCall('/messages', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'appid,authtoken,content-type,resource,sdk',
        },
      });
      expect(response.status).toBeLessThan(300);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-headers')).toContain('authtoken');
    });
  });

  describe('messages and history', () => {
    it('sends as the logged-in user, with entities filled', async () => {
      const sent = await alice.call('POST', '/messages', text('bob', 'hi bob'));
      expect(sent.body.data).toMatchObject({
        sender: 'alice',
        receiver: 'bob',
        conversationId: 'alice_user_bob',
      });
      expect(sent.body.data.data.entities.sender.entity).toMatchObject({ uid: 'alice', name: 'ALICE' });
    });

    it('pages history oldest first within a page, with meta.cursor at the far edge and meta.pagination', async () => {
      for (let index = 0; index < 5; index += 1)
        await alice.call('POST', '/messages', text('carol', `page ${index}`));
      const first = await carol.call('GET', '/users/alice/messages?per_page=2&affix=prepend');
      const ids = (first.body.data as { id: string }[]).map((message) => Number(message.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(first.body.meta.cursor).toMatchObject({ affix: 'prepend', id: String(ids[0]) });
      expect(first.body.meta.pagination).toMatchObject({ total: 5, per_page: 2 });
      const { id, sentAt } = first.body.meta.cursor;
      const second = await carol.call(
        'GET',
        `/users/alice/messages?per_page=2&affix=prepend&id=${id}&sentAt=${sentAt}`,
      );
      expect((second.body.data as { id: string }[]).every((message) => Number(message.id) < Number(id))).toBe(
        true,
      );
      expect(second.body.data).toHaveLength(2);
    });

    it('edits and deletes the caller’s own message, answering with action messages', async () => {
      const sent = await alice.call('POST', '/messages', text('bob', 'typo'));
      const edited = await alice.call('PUT', `/messages/${sent.body.data.id}`, {
        text: 'fixed',
        data: { text: 'fixed' },
      });
      expect(edited.body.data).toMatchObject({ category: 'action', data: { action: 'edited' } });
      expect(edited.body.data.data.entities.on.entity.data.text).toBe('fixed');
      const deleted = await alice.call('DELETE', `/messages/${sent.body.data.id}`);
      expect(deleted.body.data.data.action).toBe('deleted');
    });
  });

  describe('conversations, groups and read state', () => {
    it('counts unread messages after the conversation was marked read', async () => {
      await alice.call('POST', '/messages', text('bob', 'unread one'));
      const before = await bob.call('GET', '/users/alice/conversation');
      expect(before.body.data.unreadMessageCount).toBeGreaterThan(0);
      await bob.call('POST', '/users/alice/conversation/read', {});
      const after = await bob.call('GET', '/conversations?per_page=10&page=1');
      const withAlice = (
        after.body.data as {
          conversationId: string;
          unreadMessageCount: number;
          lastReadMessageId: string;
          latestMessageId: string;
        }[]
      ).find((conversation) => conversation.conversationId === 'alice_user_bob');
      expect(withAlice).toMatchObject({ unreadMessageCount: 0 });
      expect(withAlice?.lastReadMessageId).toBe(withAlice?.latestMessageId);
      expect(after.body.meta.pagination).toMatchObject({ current_page: 1, per_page: 10 });
    });

    it('joins a password group with the password and answers the joined action about the group', async () => {
      const wrong = await carol.call('POST', '/groups/vault/members', {
        guid: 'vault',
        type: 'password',
        password: 'nope',
      });
      expect(wrong.body.error.code).toBe('ERR_WRONG_GROUP_PASS');
      const joined = await carol.call('POST', '/groups/vault/members', {
        guid: 'vault',
        type: 'password',
        password: 'open-sesame',
      });
      expect(joined.body.data).toMatchObject({ category: 'action', data: { action: 'joined' } });
      expect(joined.body.data.data.entities.for.entity).toMatchObject({ guid: 'vault' });
      const group = await carol.call('GET', '/groups/vault');
      expect(group.body.data).toMatchObject({ guid: 'vault', hasJoined: true });
      expect((await carol.call('DELETE', '/groups/vault/members')).status).toBe(200);
      expect((await carol.call('GET', '/groups/vault')).body.data.hasJoined).toBe(false);
    });

    it('lists users with their conversation id and groups with hasJoined', async () => {
      const users = await alice.call('GET', '/users?per_page=50&page=1');
      expect(users.body.data).toContainEqual(
        expect.objectContaining({ uid: 'bob', conversationId: 'alice_user_bob' }),
      );
      const groups = await bob.call('GET', '/groups?per_page=50&page=1&hasJoined=1');
      expect((groups.body.data as { guid: string }[]).map((group) => group.guid)).toEqual(['team']);
    });
  });

  describe('realtime', () => {
    const messageFrame = (id: string) => (frame: Frame) => frame.type === 'message' && frame.body?.id === id;

    it('answers ping with pong', async () => {
      const socket = new WebSocket(api.url.replace(/^http/, 'ws'));
      await new Promise((resolve) => socket.once('open', resolve));
      const pong = new Promise<string>((resolve) =>
        socket.once('message', (data) => resolve(data.toString())),
      );
      socket.send(JSON.stringify({ action: 'ping', ack: 'true' }));
      expect(JSON.parse(await pong)).toEqual({ action: 'pong' });
      socket.close();
    });

    it("fans a group message out to every member's socket, stamped with the sending device", async () => {
      const sent = await alice.call('POST', '/messages', text('team', 'hello team', 'group'));
      for (const member of [alice, bob]) {
        const frame = await member.next(messageFrame(sent.body.data.id), 'the group message');
        expect(frame).toMatchObject({ sender: 'alice', deviceId: alice.deviceId, receiverType: 'group' });
      }
      expect(carol.frames.some(messageFrame(sent.body.data.id))).toBe(false);
    });

    it('relays typing with the sender fixed to the socket user and chat normalised to user', async () => {
      alice.send({
        type: 'typing_indicator',
        receiver: 'bob',
        receiverType: 'chat',
        sender: 'mallory',
        body: { action: 'started' },
      });
      const frame = await bob.next(
        (candidate) => candidate.type === 'typing_indicator',
        'the typing indicator',
      );
      expect(frame).toMatchObject({
        sender: 'alice',
        receiverType: 'user',
        deviceId: alice.deviceId,
        body: { action: 'started', user: { uid: 'alice' } },
      });
    });

    it('stores a read receipt and passes it to the message sender', async () => {
      const sent = await alice.call('POST', '/messages', text('bob', 'receipt please'));
      await bob.next(messageFrame(sent.body.data.id), 'the message');
      bob.send({
        type: 'receipts',
        receiver: 'alice',
        receiverType: 'user',
        messageSender: 'alice',
        body: { action: 'read', messageId: sent.body.data.id },
      });
      const receipt = await alice.next(
        (frame) => frame.type === 'receipts' && frame.body?.messageId === sent.body.data.id,
        'the receipt',
      );
      expect(receipt).toMatchObject({
        sender: 'bob',
        messageSender: 'alice',
        body: { action: 'read', messageId: sent.body.data.id },
      });
      expect(typeof receipt.body.timestamp).toBe('number');
      const conversation = await bob.call('GET', '/users/alice/conversation');
      expect(conversation.body.data.lastReadMessageId).toBe(sent.body.data.id);
    });

    it('announces presence when a user comes online and goes offline, and keeps their status', async () => {
      const status = async () => ({
        server: (await api.call('GET', '/users/dave')).body.data.status as string,
        client: (await alice.call('GET', '/users/dave')).body.data.status as string,
      });
      const until = async (wanted: string) => {
        for (let attempt = 0; attempt < 100 && (await status()).server !== wanted; attempt += 1) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const dave = await connectClient(api.server, APP_ONE, 'dave');
      const presence = (action: string) => (frame: Frame) =>
        frame.type === 'presence' && frame.sender === 'dave' && frame.body?.action === action;
      expect((await alice.next(presence('online'), 'dave online')).body.user).toMatchObject({
        uid: 'dave',
        status: 'online',
      });
      await until('available');
      expect(await status()).toEqual({ server: 'available', client: 'online' });
      await dave.close();
      expect((await alice.next(presence('offline'), 'dave offline')).body.user).toMatchObject({
        uid: 'dave',
      });
      await until('offline');
      expect(await status()).toEqual({ server: 'offline', client: 'offline' });
    });
  });
});
