import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  DEFAULT_USER_NOTIFICATION_PREFERENCES,
} from '../../shared/notification-settings.js';
import {
  APP_ONE,
  APP_TWO,
  ENGINES,
  FORM_DATA,
  apiFixtures,
  getWithHost,
  textMessage,
  uniqueId,
  useTestServer,
} from './support.js';

describe.each(ENGINES)('chat REST API v3 on %s', (engine) => {
  const api = useTestServer(engine);
  const call = api.call;

  const { createUser, createGroup } = apiFixtures(call);
  const send = (sender: string, body: unknown) => call('POST', '/messages', { body, onBehalfOf: sender });
  /** The service interface's example form, sent from one user to another. */
  const sendForm = (sender: string, receiver: string) =>
    send(sender, {
      receiver,
      receiverType: 'user',
      category: 'interactive',
      type: 'form',
      data: FORM_DATA,
    });

  describe('keys and tenancy', () => {
    it('refuses a request without the apikey header with AUTH_ERR_EMPTY_APIKEY', async () => {
      const response = await call('GET', '/users', { apikey: null });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('AUTH_ERR_EMPTY_APIKEY');
    });

    it('refuses an unknown key with AUTH_ERR_APIKEY_NOT_FOUND', async () => {
      const response = await call('GET', '/users', { apikey: 'not-a-key' });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('AUTH_ERR_APIKEY_NOT_FOUND');
    });

    it('refuses an authOnly key on a fullAccess route with AUTH_ERR_NO_ACCESS', async () => {
      const response = await call('GET', '/users', { apikey: APP_ONE.authKey });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('AUTH_ERR_NO_ACCESS');
    });

    it('takes the app from the <appId>.api-<region> host before the appId header', async () => {
      const status = await getWithHost(`${api.url}/v3/users`, `${APP_TWO.appId}.api-eu.example.com`, {
        apikey: APP_TWO.apiKey,
        appId: APP_ONE.appId,
      });
      expect(status).toBe(200);
    });

    it('refuses an unknown app with AUTH_ERR_INVALID_APPID', async () => {
      const response = await call('GET', '/users', { appId: 'no-such-app' });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('AUTH_ERR_INVALID_APPID');
    });

    it('asks which app is meant when several exist and none is named', async () => {
      const response = await call('GET', '/users', { appId: null });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('AUTH_ERR_EMPTY_APPID');
    });

    it('never shows one app the users, groups or messages of another', async () => {
      const alice = await createUser('alice');
      const bob = await createUser('bob');
      const guid = await createGroup(alice, [bob]);
      const sent = await send(alice, textMessage(bob, 'private to app one'));
      const asTwo = { apikey: APP_TWO.apiKey, appId: APP_TWO.appId };
      expect((await call('GET', `/users/${alice}`, asTwo)).body.error.code).toBe('ERR_UID_NOT_FOUND');
      expect((await call('GET', `/groups/${guid}`, asTwo)).body.error.code).toBe('ERR_GUID_NOT_FOUND');
      expect((await call('GET', `/messages/${sent.body.data.id}`, asTwo)).body.error.code).toBe(
        'ERR_MESSAGE_ID_NOT_FOUND',
      );
      const listed = await call('GET', '/messages?limit=1000', asTwo);
      expect(listed.body.data).toEqual([]);
      // The same UID can exist in both apps independently.
      expect(
        (await call('POST', '/users', { ...asTwo, body: { uid: alice, name: 'Other Alice' } })).status,
      ).toBe(200);
      expect((await call('GET', `/users/${alice}`)).body.data.name).toBe(`Name of ${alice}`);
    });

    it('answers an unknown endpoint with ERR_API_NOT_FOUND', async () => {
      const response = await call('GET', '/no-such-thing');
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('ERR_API_NOT_FOUND');
    });
  });

  describe('users', () => {
    it('creates a user with a lower-cased UID and integer-second timestamps', async () => {
      const uid = uniqueId('Mixed-Case');
      const response = await call('POST', '/users', {
        body: {
          uid,
          name: 'Mixed',
          avatar: 'https://example.com/a.png',
          metadata: { team: 'x' },
          tags: ['t1'],
        },
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        uid: uid.toLowerCase(),
        name: 'Mixed',
        status: 'offline',
        role: 'default',
        tags: ['t1'],
      });
      expect(Number.isInteger(response.body.data.createdAt)).toBe(true);
      expect(response.body.data.createdAt).toBeLessThan(1e11);
      expect((await call('GET', `/users/${uid.toUpperCase()}`)).body.data.uid).toBe(uid.toLowerCase());
    });

    it('includes an auth token when withAuthToken is set', async () => {
      const uid = uniqueId('token');
      const response = await call('POST', '/users', { body: { uid, name: 'T', withAuthToken: true } });
      expect(response.body.data.authToken).toMatch(new RegExp(`^${uid}_`));
    });

    it('refuses a UID that exists already with ERR_UID_ALREADY_EXISTS', async () => {
      const uid = await createUser();
      const response = await call('POST', '/users', { body: { uid, name: 'again' } });
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('ERR_UID_ALREADY_EXISTS');
    });

    it('refuses a UID longer than 100 characters, naming the field', async () => {
      const response = await call('POST', '/users', { body: { uid: 'u'.repeat(101), name: 'long' } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('ERR_BAD_REQUEST');
      expect(response.body.error.details.field).toBe('uid');
    });

    it('refuses more than 25 tags, naming the limit', async () => {
      const tags = Array.from({ length: 26 }, (_, i) => `t${i}`);
      const response = await call('POST', '/users', { body: { uid: uniqueId('tags'), name: 'n', tags } });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(/^tags: at most 25 tags/);
    });

    it('refuses unknown members and wrong types, naming the field', async () => {
      const unknown = await call('POST', '/users', {
        body: { uid: uniqueId('x'), name: 'n', nickname: 'z' },
      });
      expect(unknown.status).toBe(400);
      const wrongType = await call('POST', '/users', { body: { uid: uniqueId('x'), name: 42 } });
      expect(wrongType.body.error.details.field).toBe('name');
    });

    it('refuses a body that is not JSON', async () => {
      const response = await call('POST', '/users', { rawBody: '{"uid": ' });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toBe('body: not valid JSON');
    });

    it('lists users matching a search key with page metadata', async () => {
      const marker = uniqueId('findme');
      await createUser(`${marker}-a`);
      await createUser(`${marker}-b`);
      const response = await call('GET', `/users?searchKey=${marker}&perPage=1&page=2`);
      expect(response.status).toBe(200);
      expect(response.body.data).toHaveLength(1);
      expect(response.body.meta.pagination).toEqual({
        total: 2,
        count: 1,
        per_page: 1,
        current_page: 2,
        total_pages: 2,
      });
    });

    it('refuses a page size over 1000', async () => {
      const response = await call('GET', '/users?perPage=1001');
      expect(response.status).toBe(400);
      expect(response.body.error.details.field).toBe('perPage');
    });

    it('updates a user and unsets attributes', async () => {
      const uid = await createUser('upd', { avatar: 'https://example.com/x.png' });
      const response = await call('PUT', `/users/${uid}`, { body: { name: 'Renamed', unset: ['avatar'] } });
      expect(response.body.data.name).toBe('Renamed');
      expect(response.body.data.avatar).toBeUndefined();
      expect(Number.isInteger(response.body.data.updatedAt)).toBe(true);
    });

    it('deletes a user, after which it is not found', async () => {
      const uid = await createUser('del');
      const deleted = await call('DELETE', `/users/${uid}`);
      expect(deleted.body.data.success).toBe(true);
      const response = await call('GET', `/users/${uid}`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('ERR_UID_NOT_FOUND');
    });
  });

  describe('auth tokens', () => {
    it('creates, lists and deletes auth tokens', async () => {
      const uid = await createUser('auth');
      const created = await call('POST', `/users/${uid}/auth_tokens`, { body: { force: true } });
      expect(created.body.data).toMatchObject({ uid });
      const token = created.body.data.authToken as string;
      const listed = await call('GET', `/users/${uid}/auth_tokens`);
      expect(listed.body.data.map((t: { authToken: string }) => t.authToken)).toEqual([token]);
      expect((await call('DELETE', `/users/${uid}/auth_tokens/${token}`)).body.data.success).toBe(true);
      expect((await call('GET', `/users/${uid}/auth_tokens`)).body.data).toEqual([]);
    });

    it('answers ERR_AUTH_TOKEN_NOT_FOUND for a token the user does not have', async () => {
      const uid = await createUser('auth');
      const response = await call('DELETE', `/users/${uid}/auth_tokens/nope`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('ERR_AUTH_TOKEN_NOT_FOUND');
    });

    it('answers ERR_UID_NOT_FOUND for tokens of an unknown user', async () => {
      const response = await call('POST', `/users/${uniqueId('ghost')}/auth_tokens`, { body: {} });
      expect(response.body.error.code).toBe('ERR_UID_NOT_FOUND');
    });
  });

  describe('groups and members', () => {
    it('creates a group whose onBehalfOf user is its admin owner', async () => {
      const owner = await createUser('owner');
      const guid = uniqueId('Grp');
      const response = await call('POST', '/groups', {
        body: { guid, name: 'G', type: 'public', tags: ['a'] },
        onBehalfOf: owner,
      });
      expect(response.body.data).toMatchObject({
        guid: guid.toLowerCase(),
        owner,
        scope: 'admin',
        hasJoined: true,
        membersCount: 1,
        conversationId: `group_${guid.toLowerCase()}`,
        tags: ['a'],
      });
    });

    it('refuses a password group without a password, naming the field', async () => {
      const response = await call('POST', '/groups', {
        body: { guid: uniqueId('pw'), name: 'P', type: 'password' },
      });
      expect(response.body.error.details.field).toBe('password');
    });

    it('refuses a GUID that exists already', async () => {
      const owner = await createUser();
      const guid = await createGroup(owner);
      const response = await call('POST', '/groups', { body: { guid, name: 'again', type: 'public' } });
      expect(response.body.error.code).toBe('ERR_GUID_ALREADY_EXISTS');
    });

    it('gets, lists, updates and deletes a group', async () => {
      const owner = await createUser();
      const guid = await createGroup(owner);
      expect((await call('GET', `/groups/${guid}`)).body.data.name).toBe(`Group ${guid}`);
      const listed = await call('GET', `/groups?searchKey=${guid}`);
      expect(listed.body.data.map((g: { guid: string }) => g.guid)).toEqual([guid]);
      expect(listed.body.meta.pagination.total).toBe(1);
      const updated = await call('PUT', `/groups/${guid}`, {
        body: { name: 'Renamed', description: 'about' },
      });
      expect(updated.body.data).toMatchObject({ name: 'Renamed', description: 'about' });
      expect((await call('DELETE', `/groups/${guid}`)).body.data.success).toBe(true);
      const gone = await call('GET', `/groups/${guid}`);
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe('ERR_GUID_NOT_FOUND');
    });

    it('lists only the groups the onBehalfOf user joined when hasJoined is set', async () => {
      const member = await createUser();
      const joined = await createGroup(member);
      await createGroup(await createUser());
      const response = await call('GET', '/groups?hasJoined=true&perPage=1000', { onBehalfOf: member });
      expect(response.body.data.map((g: { guid: string }) => g.guid)).toEqual([joined]);
    });

    it('adds members per scope and reports each UID, unknown ones as failures', async () => {
      const owner = await createUser();
      const guid = await createGroup(owner);
      const admin = await createUser();
      const participant = await createUser();
      const ghost = uniqueId('ghost');
      const response = await call('POST', `/groups/${guid}/members`, {
        body: { admins: [admin], participants: [participant, ghost] },
      });
      expect(response.body.data.admins[admin]).toMatchObject({
        success: true,
        data: { category: 'action', type: 'groupMember' },
      });
      expect(response.body.data.admins[admin].data.data.action).toBe('added');
      expect(response.body.data.participants[ghost]).toMatchObject({
        success: false,
        error: { code: 'ERR_UID_NOT_FOUND' },
      });
      const members = await call('GET', `/groups/${guid}/members`);
      const scopes = Object.fromEntries(
        members.body.data.map((m: { uid: string; scope: string }) => [m.uid, m.scope]),
      );
      expect(scopes).toEqual({ [owner]: 'admin', [admin]: 'admin', [participant]: 'participant' });
      expect(members.body.meta.pagination.total).toBe(3);
    });

    it('kicks a member, and refuses to kick a non-member with ERR_NOT_A_MEMBER', async () => {
      const owner = await createUser();
      const member = await createUser();
      const guid = await createGroup(owner, [member]);
      expect((await call('DELETE', `/groups/${guid}/members/${member}`)).body.data.success).toBe(true);
      const again = await call('DELETE', `/groups/${guid}/members/${member}`);
      expect(again.status).toBe(403);
      expect(again.body.error.code).toBe('ERR_NOT_A_MEMBER');
    });

    it('answers ERR_GUID_NOT_FOUND for members of an unknown group', async () => {
      const response = await call('GET', `/groups/${uniqueId('none')}/members`);
      expect(response.body.error.code).toBe('ERR_GUID_NOT_FOUND');
    });
  });

  describe('sending messages (A1, A2)', () => {
    it('sends a text message on behalf of a user with entities and the conversation id', async () => {
      const alice = await createUser('alice');
      const bob = await createUser('bob');
      const response = await send(alice, {
        ...textMessage(bob, 'hello'),
        muid: 'm-1',
        tags: ['x'],
        data: { text: 'hello', metadata: { k: 'v' } },
      });
      expect(response.status).toBe(200);
      const message = response.body.data;
      expect(message).toMatchObject({
        sender: alice,
        receiver: bob,
        receiverType: 'user',
        category: 'message',
        type: 'text',
        muid: 'm-1',
        tags: ['x'],
      });
      expect(typeof message.id).toBe('string');
      expect(message.conversationId).toBe([alice, bob].sort().join('_user_'));
      expect(message.data.text).toBe('hello');
      expect(message.data.metadata).toEqual({ k: 'v' });
      expect(message.data.entities.sender).toMatchObject({ entityType: 'user', entity: { uid: alice } });
      expect(message.data.entities.receiver).toMatchObject({
        entityType: 'user',
        entity: { uid: bob, conversationId: message.conversationId },
      });
      expect(Number.isInteger(message.sentAt) && Number.isInteger(message.updatedAt)).toBe(true);
    });

    it('requires the onBehalfOf header, naming it', async () => {
      const bob = await createUser();
      const response = await call('POST', '/messages', { body: textMessage(bob, 'hi') });
      expect(response.status).toBe(400);
      expect(response.body.error.details.field).toBe('onBehalfOf');
    });

    it('refuses an unknown sender with ERR_UID_NOT_FOUND', async () => {
      const bob = await createUser();
      const response = await send(uniqueId('ghost'), textMessage(bob, 'hi'));
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('ERR_UID_NOT_FOUND');
    });

    it('refuses an unknown receiver, naming the receiver field', async () => {
      const alice = await createUser();
      const user = await send(alice, textMessage(uniqueId('ghost'), 'hi'));
      expect(user.body.error).toMatchObject({ code: 'ERR_UID_NOT_FOUND', details: { field: 'receiver' } });
      const group = await send(alice, textMessage(uniqueId('ghost'), 'hi', 'group'));
      expect(group.body.error.code).toBe('ERR_GUID_NOT_FOUND');
    });

    it('sends to a group the sender belongs to, with the group entity', async () => {
      const owner = await createUser();
      const guid = await createGroup(owner);
      const response = await send(owner, textMessage(guid, 'hi all', 'group'));
      expect(response.body.data.conversationId).toBe(`group_${guid}`);
      expect(response.body.data.data.entities.receiver).toMatchObject({
        entityType: 'group',
        entity: { guid, membersCount: 1 },
      });
    });

    it('sends a bot message from the bot user in the path (A2)', async () => {
      await call('POST', '/roles', { body: { role: 'bot', name: 'Bots' } });
      const bot = await createUser('bot', { role: 'bot' });
      const bob = await createUser();
      const response = await call('POST', `/bots/${bot}/messages`, { body: textMessage(bob, 'beep') });
      expect(response.body.data).toMatchObject({ sender: bot, receiver: bob, data: { text: 'beep' } });
    });

    it('sends custom, media and interactive form messages', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const custom = await send(alice, {
        receiver: bob,
        receiverType: 'user',
        category: 'custom',
        type: 'location',
        data: { customData: { lat: 1 } },
      });
      expect(custom.body.data.data.customData).toEqual({ lat: 1 });
      const image = await send(alice, {
        receiver: bob,
        receiverType: 'user',
        category: 'message',
        type: 'image',
        data: {
          attachments: [
            {
              url: 'https://example.com/p.png',
              name: 'p.png',
              mimeType: 'image/png',
              extension: 'png',
              size: '10',
            },
          ],
        },
      });
      expect(image.body.data.data.attachments[0].url).toBe('https://example.com/p.png');
      const form = await sendForm(alice, bob);
      expect(form.status).toBe(200);
      expect(form.body.data.data.interactiveData.title).toBe('Book a visit');
    });

    it('keeps secret apiAction header values out of responses', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const data = structuredClone(FORM_DATA) as {
        interactiveData: { submitElement: Record<string, unknown> };
      };
      data.interactiveData.submitElement.action = {
        actionType: 'apiAction',
        url: 'https://example.com/hook',
        method: 'POST',
        headers: { apikey: 'secret-value', 'Content-Type': 'application/json' },
      };
      const response = await send(alice, {
        receiver: bob,
        receiverType: 'user',
        category: 'interactive',
        type: 'form',
        data,
      });
      expect(JSON.stringify(response.body)).not.toContain('secret-value');
    });

    it('refuses an invalid interactive form, naming the field at fault', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const data = { ...FORM_DATA, interactionGoal: { type: 'allOf', elementIds: ['noSuchElement'] } };
      const response = await send(alice, {
        receiver: bob,
        receiverType: 'user',
        category: 'interactive',
        type: 'form',
        data,
      });
      expect(response.status).toBe(400);
      expect(response.body.error.details.field).toBe('data.interactionGoal.elementIds.0');
    });

    it('refuses over 25 tags and text over 65,536 bytes', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const tags = Array.from({ length: 26 }, (_, i) => `t${i}`);
      expect((await send(alice, { ...textMessage(bob, 'x'), tags })).body.error.details.field).toBe('tags');
      const long = await send(alice, textMessage(bob, 'x'.repeat(65_537)));
      expect(long.status).toBe(400);
      expect(long.body.error.message).toMatch(/65536 bytes/);
    });

    it('sends one message per receiver of multipleReceivers and reports each', async () => {
      const alice = await createUser();
      const [bob, carol] = [await createUser(), await createUser()];
      const guid = await createGroup(alice);
      const response = await send(alice, {
        category: 'message',
        type: 'text',
        data: { text: 'to everyone' },
        multipleReceivers: { uids: [bob, carol], guids: [guid] },
      });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body.data.uids).sort()).toEqual([bob, carol].sort());
      expect(response.body.data.guids[guid]).toMatchObject({ receiverType: 'group', receiver: guid });
    });

    it('stores nothing when one of multipleReceivers is unknown', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const ghost = uniqueId('ghost');
      const response = await send(alice, {
        category: 'message',
        type: 'text',
        data: { text: 'all or nothing' },
        multipleReceivers: { uids: [bob, ghost] },
      });
      expect(response.status).toBe(404);
      expect(response.body.error.details.field).toBe('multipleReceivers.uids');
      const history = await call('GET', `/users/${bob}/messages`, { onBehalfOf: alice });
      expect(history.body.data).toEqual([]);
    });
  });

  describe('reading, editing and deleting messages', () => {
    it('pages through messages with limit and the meta.next cursor', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const ids: string[] = [];
      for (const text of ['one', 'two', 'three'])
        ids.push((await send(alice, textMessage(bob, text))).body.data.id);
      const conversationId = [alice, bob].sort().join('_user_');
      const first = await call('GET', `/messages?conversationId=${conversationId}&limit=2`);
      expect(first.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 2));
      expect(first.body.meta.current).toEqual({ limit: 2, count: 2 });
      expect(first.body.meta.next).toMatchObject({ affix: 'append', id: ids[1] });
      const next = await call(
        'GET',
        `/messages?conversationId=${conversationId}&limit=2&affix=append&id=${first.body.meta.next.id}`,
      );
      expect(next.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(2));
      const before = await call(
        'GET',
        `/messages?conversationId=${conversationId}&affix=prepend&id=${ids[2]}&limit=1`,
      );
      expect(before.body.data.map((m: { id: string }) => m.id)).toEqual([ids[1]]);
    });

    it('gets one message, and answers ERR_MESSAGE_ID_NOT_FOUND for an unknown id', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const sent = await send(alice, textMessage(bob, 'fetch me'));
      expect((await call('GET', `/messages/${sent.body.data.id}`)).body.data.data.text).toBe('fetch me');
      const missing = await call('GET', '/messages/999999999');
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('ERR_MESSAGE_ID_NOT_FOUND');
    });

    it('edits a message and answers with the edited action message', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const sent = await send(alice, textMessage(bob, 'typo'));
      const response = await call('PUT', `/messages/${sent.body.data.id}`, {
        body: { data: { text: 'fixed' }, tags: ['t'] },
        onBehalfOf: alice,
      });
      expect(response.body.data).toMatchObject({
        category: 'action',
        type: 'message',
        data: { action: 'edited' },
      });
      expect(response.body.data.data.entities.on.entity).toMatchObject({
        id: sent.body.data.id,
        data: { text: 'fixed' },
        editedBy: alice,
        tags: ['t'],
      });
      expect((await call('GET', `/messages/${sent.body.data.id}`)).body.data.data.text).toBe('fixed');
    });

    it('deletes a message and answers with the deleted action message', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const sent = await send(alice, textMessage(bob, 'oops'));
      const response = await call('DELETE', `/messages/${sent.body.data.id}`, { onBehalfOf: alice });
      expect(response.body.data).toMatchObject({ category: 'action', data: { action: 'deleted' } });
      const after = await call('GET', `/messages/${sent.body.data.id}`);
      expect(Number.isInteger(after.body.data.deletedAt)).toBe(true);
      expect(after.body.data.deletedBy).toBe(alice);
    });

    it('lists the messages between the onBehalfOf user and another user', async () => {
      const alice = await createUser();
      const bob = await createUser();
      await send(alice, textMessage(bob, 'a to b'));
      await send(bob, textMessage(alice, 'b to a'));
      const response = await call('GET', `/users/${bob}/messages`, { onBehalfOf: alice });
      expect(response.body.data.map((m: { data: { text: string } }) => m.data.text)).toEqual([
        'a to b',
        'b to a',
      ]);
      expect(response.body.meta.pagination.total).toBe(2);
    });

    it('lists group messages for a member', async () => {
      const owner = await createUser();
      const guid = await createGroup(owner);
      await send(owner, textMessage(guid, 'in the group', 'group'));
      const member = await call('GET', `/groups/${guid}/messages?category=message`, { onBehalfOf: owner });
      expect(member.body.data.map((m: { data: { text: string } }) => m.data.text)).toEqual(['in the group']);
    });
  });

  describe('conversations', () => {
    it('lists the conversations of a user with the last message and the other party', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const guid = await createGroup(alice, [bob]);
      await send(alice, textMessage(bob, 'direct'));
      await send(alice, textMessage(guid, 'group talk', 'group'));
      const response = await call('GET', '/conversations', { onBehalfOf: bob });
      expect(response.body.data.map((c: { conversationId: string }) => c.conversationId)).toEqual([
        `group_${guid}`,
        [alice, bob].sort().join('_user_'),
      ]);
      const direct = response.body.data[1];
      expect(direct).toMatchObject({
        conversationType: 'user',
        unreadMessageCount: '1',
        conversationWith: { uid: alice },
      });
      expect(direct.lastMessage.data.text).toBe('direct');
      expect(response.body.meta.pagination.total).toBe(2);
    });

    it('gets the conversation with one user or group', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const guid = await createGroup(alice);
      await send(alice, textMessage(bob, 'hi'));
      await send(alice, textMessage(guid, 'hi group', 'group'));
      const withUser = await call('GET', `/users/${bob}/conversation`, { onBehalfOf: alice });
      expect(withUser.body.data).toMatchObject({ conversationType: 'user', conversationWith: { uid: bob } });
      const withGroup = await call('GET', `/groups/${guid}/conversation`, { onBehalfOf: alice });
      expect(withGroup.body.data).toMatchObject({
        conversationType: 'group',
        conversationWith: { guid, scope: 'admin' },
      });
    });

    it('answers ERR_CONVERSATION_NOT_FOUND before the first message', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const response = await call('GET', `/users/${bob}/conversation`, { onBehalfOf: alice });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('ERR_CONVERSATION_NOT_FOUND');
    });
  });

  describe('interactions', () => {
    it('marks form elements as interacted and reports when the goal is met', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const form = await sendForm(alice, bob);
      const response = await call('PATCH', `/messages/${form.body.data.id}/interacted`, {
        body: { interactions: ['submitVisit'] },
        onBehalfOf: bob,
      });
      expect(response.status).toBe(200);
      expect(response.body.data.interactionGoalCompleted).toBe(true);
      const stored = await call('GET', `/messages/${form.body.data.id}`);
      expect(stored.body.data.data.interactions).toEqual([
        { elementId: 'submitVisit', interactedAt: expect.any(Number) },
      ]);
    });

    it('refuses an element the form does not have, naming it', async () => {
      const alice = await createUser();
      const bob = await createUser();
      const form = await sendForm(alice, bob);
      const response = await call('PATCH', `/messages/${form.body.data.id}/interacted`, {
        body: { interactions: ['nope'] },
        onBehalfOf: bob,
      });
      expect(response.status).toBe(400);
      expect(response.body.error.details.field).toBe('interactions.0');
    });
  });

  describe('notification settings (A3-A5) and preferences', () => {
    it('reads the defaults until they are changed', async () => {
      const response = await call('GET', '/notifications/v1/settings', {
        apikey: APP_TWO.apiKey,
        appId: APP_TWO.appId,
      });
      expect(response.body.data).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
    });

    it('merges a partial update deeply and resets to the defaults', async () => {
      const patched = await call('PATCH', '/notifications/v1/settings', {
        body: { preferences: { group: { messagesSetting: 1 } }, sound: { chat: 'ping' } },
      });
      expect(patched.body).toEqual({ data: { success: true } });
      const after = (await call('GET', '/notifications/v1/settings')).body.data;
      expect(after.preferences.group.messagesSetting).toBe(1);
      expect(after.preferences.group.repliesSetting).toBe(
        DEFAULT_NOTIFICATION_SETTINGS.preferences.group.repliesSetting,
      );
      expect(after.sound).toEqual({ chat: 'ping', call: 'default' });
      expect((await call('DELETE', '/notifications/v1/settings')).body).toEqual({ data: { success: true } });
      expect((await call('GET', '/notifications/v1/settings')).body.data).toEqual(
        DEFAULT_NOTIFICATION_SETTINGS,
      );
    });

    it('refuses unknown members and wrong types, naming the field', async () => {
      const unknown = await call('PATCH', '/notifications/v1/settings', {
        body: { preferences: { group: { loud: true } } },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.message).toMatch(/loud/);
      const wrongType = await call('PATCH', '/notifications/v1/settings', { body: { sound: { chat: 3 } } });
      expect(wrongType.body.error.details.field).toBe('sound.chat');
    });

    it('reads, updates and resets one user’s preferences', async () => {
      const uid = await createUser();
      const read = await call('GET', `/notifications/v1/preferences?uid=${uid}`);
      expect(read.body.data).toEqual(DEFAULT_USER_NOTIFICATION_PREFERENCES);
      const updated = await call('PATCH', `/notifications/v1/preferences?uid=${uid}`, {
        body: { mutePreferences: { dnd: 2 } },
      });
      expect(updated.body.data.mutePreferences.dnd).toBe(2);
      const reset = await call('DELETE', `/notifications/v1/preferences?uid=${uid}`);
      expect(reset.body.data).toEqual(DEFAULT_USER_NOTIFICATION_PREFERENCES);
    });

    it('needs the uid of an existing user for preferences', async () => {
      expect((await call('GET', '/notifications/v1/preferences')).body.error.details.field).toBe('uid');
      expect(
        (await call('GET', `/notifications/v1/preferences?uid=${uniqueId('ghost')}`)).body.error.code,
      ).toBe('ERR_UID_NOT_FOUND');
    });
  });
});

describe('rate limits', () => {
  const api = useTestServer('sqlite', { rateLimits: { corePerMinute: 1, standardPerMinute: 2 } });

  it('answers ERR_TOO_MANY_REQUESTS with Retry-After once an app exceeds its limit', async () => {
    expect((await api.call('GET', '/users')).status).toBe(200);
    expect((await api.call('GET', '/users')).status).toBe(200);
    const refused = await api.call('GET', '/users');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('ERR_TOO_MANY_REQUESTS');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts core operations (creating users) apart from the rest', async () => {
    expect((await api.call('POST', '/users', { body: { uid: 'first', name: 'F' } })).status).toBe(200);
    expect((await api.call('POST', '/users', { body: { uid: 'second', name: 'S' } })).body.error.code).toBe(
      'ERR_TOO_MANY_REQUESTS',
    );
  });
});
