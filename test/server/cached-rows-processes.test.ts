import { describe, expect, it } from 'vitest';
import { useProcessPair } from '../support/process-pair.js';
import { APP_ONE, apiFixtures, textMessage } from './support.js';

/**
 * Two `parley chat-server` processes on one PostgreSQL database, joined over Redis, each caching
 * the users, memberships and blocks every send reads. Each test first lets process B cache the
 * rows (a send through B succeeds), changes them through process A, and asks B at once: the
 * answer must follow the change, with no wait for a notice to arrive.
 */
describe('rows cached by one process after another changed them', () => {
  const { a, b } = useProcessPair(APP_ONE);
  const fixtures = () => apiFixtures(a);

  const sendGroup = (call: typeof a, sender: string, guid: string, text: string) =>
    call('POST', '/messages', { body: textMessage(guid, text, 'group'), onBehalfOf: sender });

  it.each([
    ['kicked', 'DELETE', (guid: string, uid: string) => `/groups/${guid}/members/${uid}`],
    ['banned', 'POST', (guid: string, uid: string) => `/groups/${guid}/bannedusers/${uid}`],
  ])('refuses through B a member %s through A', async (_change, method, path) => {
    const owner = await fixtures().createUser();
    const member = await fixtures().createUser();
    const guid = await fixtures().createGroup(owner, [member]);
    expect((await sendGroup(b, member, guid, 'in')).status).toBe(200);
    expect((await a(method, path(guid, member))).status).toBe(200);
    const refused = await sendGroup(b, member, guid, 'still in?');
    expect(refused.body.error.code).toBe('ERR_NOT_A_MEMBER');
  });

  it('no longer shows through B the messages of a group whose member was kicked through A', async () => {
    const owner = await fixtures().createUser();
    const member = await fixtures().createUser();
    const guid = await fixtures().createGroup(owner, [member]);
    expect((await sendGroup(b, owner, guid, 'before the kick')).status).toBe(200);
    expect((await b('GET', `/groups/${guid}/messages`, { onBehalfOf: member })).status).toBe(200);
    expect((await a('DELETE', `/groups/${guid}/members/${member}`)).status).toBe(200);
    const read = await b('GET', `/groups/${guid}/messages`, { onBehalfOf: member });
    expect(read.status).not.toBe(200);
  });

  it('refuses through B an API key revoked through A', async () => {
    const created = await a('POST', '/apikeys', { body: { name: 'Leaked', scope: 'fullAccess' } });
    const attacker = { apikey: created.body.data.apiKey as string };
    expect((await b('GET', '/users', attacker)).status).toBe(200);
    expect((await a('DELETE', `/apikeys/${attacker.apikey}`)).status).toBe(200);
    const refused = await b('GET', '/users', attacker);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('AUTH_ERR_APIKEY_NOT_FOUND');
  });

  it('refuses through B one-to-one messages both ways between users one blocked through A', async () => {
    const alice = await fixtures().createUser();
    const bob = await fixtures().createUser();
    expect((await b('POST', '/messages', { body: textMessage(bob, 'hi'), onBehalfOf: alice })).status).toBe(
      200,
    );
    expect((await b('POST', '/messages', { body: textMessage(alice, 'hi'), onBehalfOf: bob })).status).toBe(
      200,
    );
    const blocked = await a('POST', `/users/${alice}/blockedusers`, { body: { blockedUids: [bob] } });
    expect(blocked.status).toBe(200);
    const toBob = await b('POST', '/messages', { body: textMessage(bob, 'hello?'), onBehalfOf: alice });
    expect(toBob.body.error.code).toBe('ERR_BLOCKED_RECEIVER');
    const toAlice = await b('POST', '/messages', { body: textMessage(alice, 'hello?'), onBehalfOf: bob });
    expect(toAlice.body.error.code).toBe('ERR_BLOCKED_SENDER');
  });

  it('refuses through B a kick by a moderator demoted through A', async () => {
    const owner = await fixtures().createUser();
    const moderator = await fixtures().createUser();
    const member = await fixtures().createUser();
    const guid = await fixtures().createGroup(owner, [moderator, member]);
    const scope = (value: string) =>
      a('PUT', `/groups/${guid}/members/${moderator}`, { body: { scope: value } });
    expect((await scope('moderator')).status).toBe(200);
    expect((await sendGroup(b, moderator, guid, 'as moderator')).status).toBe(200);
    expect((await scope('participant')).status).toBe(200);
    const kick = await b('DELETE', `/groups/${guid}/members/${member}`, { onBehalfOf: moderator });
    expect(kick.body.error.code).toBe('ERR_GROUP_NO_MODERATOR_SCOPE');
  });

  it('counts through B a member added through A', async () => {
    const owner = await fixtures().createUser();
    const joiner = await fixtures().createUser();
    const guid = await fixtures().createGroup(owner);
    const count = async () => (await b('GET', `/groups/${guid}`)).body.data.membersCount as number;
    expect(await count()).toBe(1);
    const added = await a('POST', `/groups/${guid}/members`, { body: { participants: [joiner] } });
    expect(added.status).toBe(200);
    expect(await count()).toBe(2);
  });

  it('lets through B users unblocked through A message each other again', async () => {
    const alice = await fixtures().createUser();
    const bob = await fixtures().createUser();
    const blocks = `/users/${alice}/blockedusers`;
    expect((await a('POST', blocks, { body: { blockedUids: [bob] } })).status).toBe(200);
    const refused = await b('POST', '/messages', { body: textMessage(bob, 'hi'), onBehalfOf: alice });
    expect(refused.body.error.code).toBe('ERR_BLOCKED_RECEIVER');
    expect((await a('DELETE', blocks, { body: { blockedUids: [bob] } })).status).toBe(200);
    const sent = await b('POST', '/messages', { body: textMessage(bob, 'hi again'), onBehalfOf: alice });
    expect(sent.status).toBe(200);
  });

  it('refuses through B a send by a user deleted through A', async () => {
    const alice = await fixtures().createUser();
    const bob = await fixtures().createUser();
    expect((await b('POST', '/messages', { body: textMessage(bob, 'hi'), onBehalfOf: alice })).status).toBe(
      200,
    );
    expect((await a('DELETE', `/users/${alice}`)).status).toBe(200);
    const refused = await b('POST', '/messages', {
      body: textMessage(bob, 'still here?'),
      onBehalfOf: alice,
    });
    expect(refused.body.error.code).toBe('ERR_UID_NOT_FOUND');
  });
});
