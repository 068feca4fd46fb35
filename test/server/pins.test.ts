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

interface Sent {
  id: string;
  pinnedAt?: number;
  pinnedBy?: string;
  savedAt?: number;
}

const idsOf = (messages: Sent[]) => messages.map((message) => message.id);

/**
 * Pinned messages, saved messages and pinned conversations through the client API (as CometChat's
 * SDK 4.2.0 calls them) and the server REST API (the SDK's own side is in
 * test/e2e/sdk-pins.test.ts): who may pin, who sees pins and saves, the lists, the order of the
 * conversation list, the realtime frames, and what is refused.
 */
describe.each(ENGINES)('pins and saves on %s', (engine) => {
  const api = useTestServer(engine);
  let alice: string;
  let bob: string;
  let carol: string;
  let mallory: string;
  let guid: string;
  let aliceClient: TestClient;
  let aliceOtherSession: TestClient;
  let bobClient: TestClient;
  let carolClient: TestClient;
  let malloryClient: TestClient;

  const send = async (sender: string, receiver: string, text: string, type: 'user' | 'group' = 'group') => {
    const response = await api.call('POST', '/messages', {
      body: textMessage(receiver, text, type),
      onBehalfOf: sender,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data as Sent;
  };

  beforeAll(async () => {
    const { createUser, createGroup } = apiFixtures(api.call);
    alice = await createUser('alice');
    bob = await createUser('bob', { metadata: { '@private': { phone: '555-0100' } } });
    carol = await createUser('carol');
    mallory = await createUser('mallory');
    guid = await createGroup(alice, [bob, carol]);
    const scoped = await api.call('PUT', `/groups/${guid}/members/${carol}`, {
      body: { scope: 'moderator' },
    });
    expect(scoped.status, JSON.stringify(scoped.body)).toBe(200);
    [aliceClient, aliceOtherSession, bobClient, carolClient, malloryClient] = await Promise.all([
      connectClient(api.server, APP_ONE, alice),
      connectClient(api.server, APP_ONE, alice),
      connectClient(api.server, APP_ONE, bob),
      connectClient(api.server, APP_ONE, carol),
      connectClient(api.server, APP_ONE, mallory),
    ]);
  });

  describe('pinned messages', () => {
    it("pins a group message as its owner: the answer carries the pin, the members hear of it with the owner's UID", async () => {
      const message = await send(bob, guid, 'the meeting is at noon');
      const pinned = await aliceClient.call('POST', `/messages/${message.id}/pin`);
      expect(pinned.status, JSON.stringify(pinned.body)).toBe(200);
      expect(pinned.body.data).toMatchObject({ id: message.id, pinnedBy: alice });
      expect(pinned.body.data.pinnedAt).toBeGreaterThan(0);
      const frame = await bobClient.next(
        (candidate) => candidate.type === 'message_pinned' && candidate.body?.message?.id === message.id,
        'the pin frame',
      );
      expect(frame.body).toMatchObject({ action: 'pinned', message: { pinnedBy: alice } });
      expect(JSON.stringify(frame)).not.toContain('@private');
    });

    it('refuses a participant’s pin with ERR_ACTION_NOT_ALLOWED and pins nothing', async () => {
      const message = await send(alice, guid, 'participants cannot pin this');
      const refused = await bobClient.call('POST', `/messages/${message.id}/pin`);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('ERR_ACTION_NOT_ALLOWED');
      const read = await bobClient.call('GET', `/messages/${message.id}`);
      expect(read.body.data.pinnedAt).toBeUndefined();
    });

    it("lets a moderator unpin another member's pin, and unpinning again changes nothing", async () => {
      const message = await send(alice, guid, 'pinned then unpinned');
      expect((await aliceClient.call('POST', `/messages/${message.id}/pin`)).status).toBe(200);
      const unpinned = await carolClient.call('DELETE', `/messages/${message.id}/pin`);
      expect(unpinned.status).toBe(200);
      expect(unpinned.body.data.pinnedAt).toBeUndefined();
      expect(unpinned.body.data.pinnedBy).toBeUndefined();
      const frame = await bobClient.next(
        (candidate) => candidate.type === 'message_unpinned' && candidate.body?.message?.id === message.id,
        'the unpin frame',
      );
      expect(frame.body.action).toBe('unpinned');
      expect((await carolClient.call('DELETE', `/messages/${message.id}/pin`)).status).toBe(200);
    });

    it('lists the pinned messages of a group, newest pin first, whole and without a cursor', async () => {
      const listed = await api.call('GET', `/groups/${guid}/messages?pinned=1`, { onBehalfOf: carol });
      const first = await send(alice, guid, 'first to be pinned');
      const second = await send(alice, guid, 'second to be pinned');
      await aliceClient.call('POST', `/messages/${second.id}/pin`);
      await carolClient.call('POST', `/messages/${first.id}/pin`);
      const page = await bobClient.call(
        'GET',
        `/groups/${guid}/messages?pinned=1&per_page=100&affix=prepend`,
      );
      expect(page.status).toBe(200);
      expect(idsOf(page.body.data).slice(0, 2)).toEqual([first.id, second.id]);
      expect(page.body.data.length).toBe(listed.body.data.length + 2);
      expect(page.body.meta.cursor).toBeUndefined();
      expect(page.body.data.every((message: Sent) => message.pinnedAt !== undefined)).toBe(true);
    });

    it('lets either user of a one-to-one conversation pin, and both see the pin in the history', async () => {
      const message = await send(alice, bob, 'just between us', 'user');
      const pinned = await bobClient.call('POST', `/messages/${message.id}/pin`);
      expect(pinned.body.data.pinnedBy).toBe(bob);
      const history = await aliceClient.call('GET', `/users/${bob}/messages?per_page=30`);
      expect(JSON.stringify(history.body)).not.toContain('@private');
      const seen = (history.body.data as Sent[]).find((item) => item.id === message.id);
      expect(seen?.pinnedBy).toBe(bob);
      const pins = await aliceClient.call('GET', `/users/${bob}/messages?pinned=1`);
      expect(idsOf(pins.body.data)).toEqual([message.id]);
    });

    it('pins as the app (`app_system`) through the server API without onBehalfOf', async () => {
      const message = await send(bob, guid, 'an announcement');
      const pinned = await api.call('POST', `/messages/${message.id}/pin`);
      expect(pinned.status).toBe(200);
      expect(pinned.body.data.pinnedBy).toBe('app_system');
    });

    it('answers a non-member and another app as for a missing message, and pins nothing', async () => {
      const message = await send(alice, guid, 'members only');
      const outsider = await malloryClient.call('POST', `/messages/${message.id}/pin`);
      expect(outsider.status).toBe(404);
      expect(outsider.body.error.code).toBe('ERR_MESSAGE_ID_NOT_FOUND');
      const otherApp = await callServerApi(api.url, APP_TWO, 'POST', `/messages/${message.id}/pin`);
      expect(otherApp.status).toBe(404);
      const read = await api.call('GET', `/messages/${message.id}`);
      expect(read.body.data.pinnedAt).toBeUndefined();
    });

    it('refuses pinning an action message, a bad id and a list of pins outside one conversation', async () => {
      const history = await api.call('GET', `/groups/${guid}/messages?category=action`);
      const action = (history.body.data as Sent[])[0];
      expect(action).toBeDefined();
      const onAction = await aliceClient.call('POST', `/messages/${action?.id}/pin`);
      expect(onAction.status).toBe(400);
      expect(onAction.body.error.code).toBe('ERR_MESSAGE_ACTION_NOT_ALLOWED');
      const badId = await aliceClient.call('POST', '/messages/not-a-number/pin');
      expect(badId.status).toBe(404);
      expect(badId.body.error.details.id).toBe('not-a-number');
      const everywhere = await aliceClient.call('GET', '/messages?pinned=1');
      expect(everywhere.status).toBe(400);
      expect(everywhere.body.error.details.field).toBe('pinned');
    });
  });

  describe('saved messages', () => {
    it("saves a message for its saver alone: the saver's other session hears of it, the answer has savedAt", async () => {
      const message = await send(bob, alice, 'save this for later', 'user');
      const saved = await aliceClient.call('POST', `/messages/${message.id}/save`);
      expect(saved.status).toBe(200);
      expect(saved.body.data.savedAt).toBeGreaterThan(0);
      expect(JSON.stringify(saved.body)).not.toContain('@private');
      const frame = await aliceOtherSession.next(
        (candidate) => candidate.type === 'message_saved' && candidate.body?.message?.id === message.id,
        'the save frame on the other session',
      );
      expect(frame.body.action).toBe('saved');
      // A pin in the same conversation reaches bob after the save would have: he got no save frame.
      await aliceClient.call('POST', `/messages/${message.id}/pin`);
      await bobClient.next(
        (candidate) => candidate.type === 'message_pinned' && candidate.body?.message?.id === message.id,
        'the later pin frame',
      );
      expect(bobClient.frames.some((candidate) => candidate.type === 'message_saved')).toBe(false);
      const asBob = await bobClient.call('GET', `/messages/${message.id}`);
      expect(asBob.body.data.savedAt).toBeUndefined();
    });

    it("lists the saver's saved messages of every conversation, newest save first; another user's list stays theirs", async () => {
      const inGroup = await send(carol, guid, 'saved from the group');
      const direct = await send(bob, alice, 'saved from the chat', 'user');
      await aliceClient.call('POST', `/messages/${inGroup.id}/save`);
      await aliceClient.call('POST', `/messages/${direct.id}/save`);
      const mine = await aliceClient.call('GET', '/messages?saved=1&per_page=100&affix=prepend');
      expect(mine.status).toBe(200);
      expect(idsOf(mine.body.data).slice(0, 2)).toEqual([direct.id, inGroup.id]);
      expect(mine.body.meta.cursor).toBeUndefined();
      const rest = await api.call('GET', '/messages?saved=1', { onBehalfOf: alice });
      expect(idsOf(rest.body.data)).toEqual(idsOf(mine.body.data));
      const bobs = await bobClient.call('GET', '/messages?saved=1');
      expect(idsOf(bobs.body.data)).not.toContain(direct.id);
    });

    it('unsaves: the message leaves the list and loses savedAt', async () => {
      const message = await send(carol, guid, 'saved and unsaved');
      await bobClient.call('POST', `/messages/${message.id}/save`);
      const unsaved = await bobClient.call('DELETE', `/messages/${message.id}/save`);
      expect(unsaved.status).toBe(200);
      expect(unsaved.body.data.savedAt).toBeUndefined();
      const list = await bobClient.call('GET', '/messages?saved=1');
      expect(idsOf(list.body.data)).not.toContain(message.id);
    });

    it('forgets the pin and saves of a message deleted for good', async () => {
      const message = await send(carol, guid, 'to be deleted for good');
      await aliceClient.call('POST', `/messages/${message.id}/save`);
      await aliceClient.call('POST', `/messages/${message.id}/pin`);
      const deleted = await api.call('DELETE', `/messages/${message.id}`, { body: { permanent: true } });
      expect(deleted.status).toBe(200);
      const saved = await aliceClient.call('GET', '/messages?saved=1&per_page=100');
      expect(idsOf(saved.body.data)).not.toContain(message.id);
      const pinned = await aliceClient.call('GET', `/groups/${guid}/messages?pinned=1&per_page=100`);
      expect(idsOf(pinned.body.data)).not.toContain(message.id);
    });

    it("refuses a save of a message the user cannot see, and the server API's save without a user", async () => {
      const message = await send(alice, guid, 'not for mallory');
      const outsider = await malloryClient.call('POST', `/messages/${message.id}/save`);
      expect(outsider.status).toBe(404);
      const noUser = await api.call('POST', `/messages/${message.id}/save`);
      expect(noUser.status).toBe(400);
      expect(noUser.body.error.details.field).toBe('onBehalfOf');
      const both = await aliceClient.call('GET', `/groups/${guid}/messages?pinned=1&saved=1`);
      expect(both.status).toBe(400);
      expect(both.body.error.details.field).toBe('saved');
    });
  });

  describe("fuzz: bad bodies, ids and queries on this change's routes", () => {
    const BAD_BODIES: unknown[] = [[], 'text', 42, null, { pinned: 'yes', id: [], savedAt: -1 }];
    const BAD_IDS = ['%00', 'a'.repeat(300), '..', 'x%2Fy', '-1', '1e3'];
    const BAD_QUERY =
      '?pinned=maybe&saved=2&pinnedBy=everyone&limit=0&per_page=abc&updatedAt=x&id=y' +
      '&participatedByMe=perhaps&fromDate=z&toDate=-5';

    it('answers every bad body, id and query with a 4xx (naming the field when 400), never a 5xx', async () => {
      const problems: string[] = [];
      const check = (what: string, status: number, body: { error?: { details?: { field?: unknown } } }) => {
        if (status >= 500 || status < 400) problems.push(`${what} → ${status}`);
        if (status === 400 && typeof body?.error?.details?.field !== 'string')
          problems.push(`${what}: no field`);
      };
      const writes = [
        '/messages/{id}/pin',
        '/messages/{id}/save',
        '/users/{id}/conversation/pin',
        '/groups/{id}/conversation/pin',
        '/messages/{id}/thread/subscription',
      ];
      for (const template of writes) {
        for (const id of BAD_IDS) {
          const path = template.replace('{id}', id);
          for (const method of ['POST', 'DELETE']) {
            for (const body of BAD_BODIES) {
              const client = await bobClient.call(method, path, body);
              check(`client ${method} ${path} ${JSON.stringify(body)}`, client.status, client.body);
              const server = await api.call(method, path, { rawBody: JSON.stringify(body), onBehalfOf: bob });
              check(`server ${method} ${path} ${JSON.stringify(body)}`, server.status, server.body);
            }
          }
        }
      }
      const lists = [
        `/groups/${guid}/messages`,
        `/users/${alice}/messages`,
        '/messages',
        '/conversations',
        '/threads',
        `/groups/${guid}/threads`,
        `/users/${alice}/threads`,
      ];
      for (const path of lists) {
        const response = await bobClient.call('GET', `${path}${BAD_QUERY}`);
        check(`client GET ${path} (bad query)`, response.status, response.body);
      }
      for (const path of ['/stats', `/groups/${guid}/messages`, '/conversations']) {
        const response = await api.call('GET', `${path}${BAD_QUERY}`, { onBehalfOf: bob });
        check(`server GET ${path} (bad query)`, response.status, response.body);
      }
      expect(problems).toEqual([]);
    });
  });

  describe('pinned conversations', () => {
    it("puts the user's pinned conversation first, for them alone, with pinnedAt and pinnedBy", async () => {
      await send(bob, carol, 'an older chat', 'user');
      await send(bob, guid, 'a newer group message');
      const pinned = await bobClient.call('POST', `/users/${carol}/conversation/pin`);
      expect(pinned.status).toBe(200);
      expect(pinned.body.data).toMatchObject({ pinnedBy: bob, conversationWith: { uid: carol } });
      const frame = await bobClient.next(
        (candidate) => candidate.type === 'conversation_pinned',
        'the conversation pin frame',
      );
      expect(frame.body.conversation.conversationWith.uid).toBe(carol);
      const list = await bobClient.call('GET', '/conversations?per_page=30');
      expect(list.body.data[0]).toMatchObject({ conversationWith: { uid: carol }, pinnedBy: bob });
      const carols = await carolClient.call('GET', '/conversations?per_page=30');
      const withBob = (
        carols.body.data as Array<{ conversationWith: { uid?: string }; pinnedAt?: number }>
      ).find((conversation) => conversation.conversationWith.uid === bob);
      expect(withBob?.pinnedAt).toBeUndefined();
    });

    it('lists only pinned conversations with pinnedBy=me, none with pinnedBy=system', async () => {
      await bobClient.call('POST', `/groups/${guid}/conversation/pin`);
      const mine = await bobClient.call('GET', '/conversations?pinnedBy=me');
      expect(mine.body.data.length).toBe(2);
      expect(
        mine.body.data.every((conversation: { pinnedBy?: string }) => conversation.pinnedBy === bob),
      ).toBe(true);
      const system = await bobClient.call('GET', '/conversations?pinnedBy=system');
      expect(system.body.data).toEqual([]);
    });

    it('pins a conversation before its first message and unpins it', async () => {
      const pinned = await malloryClient.call('POST', `/users/${carol}/conversation/pin`);
      expect(pinned.status).toBe(200);
      expect(pinned.body.data).toMatchObject({ conversationType: 'user', pinnedBy: mallory });
      const unpinned = await malloryClient.call('DELETE', `/users/${carol}/conversation/pin`);
      expect(unpinned.status).toBe(200);
      expect(unpinned.body.data.pinnedAt).toBeUndefined();
    });

    it('pins on behalf of a user through the server API, and refuses bad names and non-members', async () => {
      const rest = await api.call('POST', `/users/${alice}/conversation/pin`, { onBehalfOf: carol });
      expect(rest.status).toBe(200);
      expect(rest.body.data.pinnedBy).toBe(carol);
      const unknown = await bobClient.call('POST', '/users/nobody-here/conversation/pin');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('ERR_UID_NOT_FOUND');
      const outsider = await malloryClient.call('POST', `/groups/${guid}/conversation/pin`);
      expect(outsider.status).toBeGreaterThanOrEqual(400);
      expect(outsider.status).toBeLessThan(500);
      const badFilter = await bobClient.call('GET', '/conversations?pinnedBy=everyone');
      expect(badFilter.status).toBe(400);
      expect(JSON.stringify(badFilter.body.error)).toContain('pinnedBy');
    });
  });
});
