import { beforeAll, describe, expect, it } from 'vitest';
import { ChatApiError, ChatServerClient } from '../../shared/chat-server-client.js';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../shared/notification-settings.js';
import { APP_ONE, uniqueId, useTestServer } from './support.js';

/** The typed client of the shared contracts, against the real chat service on an ephemeral port. */
describe('ChatServerClient against the chat service', () => {
  const api = useTestServer();
  let client: ChatServerClient;

  beforeAll(() => {
    client = new ChatServerClient({
      appId: APP_ONE.appId,
      region: 'us',
      host: api.url,
      apiKey: APP_ONE.apiKey,
    });
  });

  const newUser = async (name = 'Someone'): Promise<string> =>
    (await client.createUser({ uid: uniqueId('client-user'), name })).uid;

  it('creates, reads, lists, updates and deletes users', async () => {
    const uid = uniqueId('Ada');
    const created = await client.createUser({ uid, name: 'Ada', tags: ['math'], metadata: { era: 1843 } });
    expect(created).toMatchObject({ uid: uid.toLowerCase(), name: 'Ada', tags: ['math'] });
    expect(await client.getUser(uid)).toMatchObject({ uid: uid.toLowerCase(), metadata: { era: 1843 } });
    const listed = await client.listUsers({ searchKey: uid.toLowerCase(), withTags: true });
    expect(listed.data.map((user) => [user.uid, user.tags])).toEqual([[uid.toLowerCase(), ['math']]]);
    expect(listed.meta.pagination).toMatchObject({ total: 1, current_page: 1 });
    const updated = await client.updateUser(uid, { name: 'Ada Lovelace', unset: ['metadata'] });
    expect(updated.name).toBe('Ada Lovelace');
    expect(updated.metadata).toBeUndefined();
    expect(await client.deleteUser(uid, { permanent: true })).toBe(true);
  });

  it('lists users filtered by several roles and by the SDK’s status word', async () => {
    const role = uniqueId('role').toLowerCase();
    for (const suffix of ['a', 'b', 'c']) {
      await api.call('POST', '/roles', { body: { role: `${role}-${suffix}`, name: suffix } });
    }
    const pilot = (await client.createUser({ uid: uniqueId('pilot'), name: 'Pilot', role: `${role}-a` })).uid;
    const crew = (await client.createUser({ uid: uniqueId('crew'), name: 'Crew', role: `${role}-b` })).uid;
    await client.createUser({ uid: uniqueId('guest'), name: 'Guest', role: `${role}-c` });
    const listed = await client.listUsers({ roles: [`${role}-a`, `${role}-b`], status: 'online' });
    expect(listed.data).toEqual([]);
    const offline = await client.listUsers({ roles: [`${role}-a`, `${role}-b`], status: 'offline' });
    expect(offline.data.map((user) => user.uid).sort()).toEqual([pilot, crew].sort());
  });

  it('creates a user with an auth token, and creates, lists and deletes auth tokens', async () => {
    const uid = uniqueId('tokens');
    const created = await client.createUser({ uid, name: 'Token holder', withAuthToken: true });
    expect(created.authToken).toMatch(new RegExp(`^${uid}_`));
    const forced = await client.createAuthToken(uid, { force: true });
    expect(forced.authToken).not.toBe(created.authToken);
    const listed = await client.listAuthTokens(uid);
    expect(listed.data.map((token) => token.authToken).sort()).toEqual(
      [created.authToken, forced.authToken].sort(),
    );
    expect(await client.deleteAuthToken(uid, forced.authToken)).toBe(true);
    expect((await client.listAuthTokens(uid)).meta.pagination.total).toBe(1);
  });

  it('creates, reads, lists, updates and deletes groups', async () => {
    const owner = await newUser('Owner');
    const guid = uniqueId('client-group');
    const group = await client.createGroup({ guid, name: 'Readers', type: 'public', owner, tags: ['books'] });
    expect(group).toMatchObject({ guid, name: 'Readers', owner, membersCount: 1 });
    expect(await client.getGroup(guid)).toMatchObject({ guid, tags: ['books'] });
    expect((await client.listGroups({ searchKey: guid })).data.map((found) => found.guid)).toEqual([guid]);
    const updated = await client.updateGroup(guid, { description: 'We read.', name: 'Readers Club' });
    expect(updated).toMatchObject({ name: 'Readers Club', description: 'We read.' });
    expect(await client.deleteGroup(guid)).toBe(true);
  });

  it('adds, lists and removes members, lower-casing the UIDs it is given', async () => {
    const owner = await newUser('Owner');
    const member = await newUser('Member');
    const guid = uniqueId('members');
    await client.createGroup({ guid, name: 'Crew', type: 'private', owner });
    const added = await client.addMembers(guid, { moderators: [member.toUpperCase()] });
    expect(added.moderators?.[member]).toMatchObject({ success: true });
    const members = await client.listMembers(guid);
    expect(Object.fromEntries(members.data.map((m) => [m.uid, m.scope]))).toEqual({
      [owner]: 'admin',
      [member]: 'moderator',
    });
    expect(await client.removeMember(guid, member)).toBe(true);
    expect((await client.listMembers(guid)).meta.pagination.total).toBe(1);
  });

  it('sends a message on behalf of a user and a message from a bot', async () => {
    const alice = await newUser('Alice');
    await api.call('POST', '/roles', { body: { role: 'bot', name: 'Bots' } });
    const bot = (await client.createUser({ uid: uniqueId('bot'), name: 'Helper', role: 'bot' })).uid;
    const sent = await client.createMessage(alice, {
      receiver: bot,
      receiverType: 'user',
      category: 'message',
      type: 'text',
      data: { text: 'hello bot' },
    });
    expect(sent).toMatchObject({ sender: alice, receiver: bot, data: { text: 'hello bot' } });
    const answer = await client.sendBotMessage(bot, {
      receiver: alice,
      receiverType: 'user',
      category: 'message',
      type: 'text',
      data: { text: 'hello human' },
    });
    expect(answer).toMatchObject({ sender: bot, receiver: alice, conversationId: sent.conversationId });
    expect(Number(answer.id)).toBeGreaterThan(Number(sent.id));
  });

  it('reads, updates and resets the notification settings', async () => {
    expect(await client.getNotificationSettings()).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
    expect(await client.updateNotificationSettings({ sound: { chat: 'ping' } })).toBe(true);
    expect((await client.getNotificationSettings()).sound).toEqual({ chat: 'ping', call: 'default' });
    expect(await client.resetNotificationSettings()).toBe(true);
    expect(await client.getNotificationSettings()).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it('surfaces a refusal as ChatApiError with the service’s code, status and details', async () => {
    const missing = uniqueId('nobody');
    const refusal = await client.getUser(missing).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ChatApiError);
    expect(refusal).toMatchObject({ status: 404, code: 'ERR_UID_NOT_FOUND', details: { uid: missing } });
  });
});
