import { describe, expect, it } from 'vitest';
import { ENGINES, apiFixtures, textMessage, useTestServer } from './support.js';

/**
 * Sending a message reads its sender, receivers, groups and memberships from caches; these
 * specifications hold that every change made through the API is visible to the next send.
 */
describe.each(ENGINES)('message sends after changes on %s', (engine) => {
  const api = useTestServer(engine);
  const call = api.call;

  const { createUser, createGroup } = apiFixtures(call);
  const send = (sender: string, body: unknown) => call('POST', '/messages', { body, onBehalfOf: sender });
  const membersCountIn = (response: Awaited<ReturnType<typeof send>>): number =>
    response.body.data.data.entities.receiver.entity.membersCount;

  it('names the sender and receiver as they are after an update', async () => {
    const alice = await createUser();
    const bob = await createUser();
    expect((await send(alice, textMessage(bob, 'before'))).status).toBe(200);
    await call('PUT', `/users/${alice}`, { body: { name: 'Alice Renamed' } });
    await call('PUT', `/users/${bob}`, { body: { name: 'Bob Renamed' } });
    const after = await send(alice, textMessage(bob, 'after'));
    expect(after.body.data.data.entities.sender.entity.name).toBe('Alice Renamed');
    expect(after.body.data.data.entities.receiver.entity.name).toBe('Bob Renamed');
  });

  it('refuses a sender or receiver that was deleted since its last message', async () => {
    const alice = await createUser();
    const bob = await createUser();
    expect((await send(alice, textMessage(bob, 'hi'))).status).toBe(200);
    await call('DELETE', `/users/${bob}`);
    expect((await send(alice, textMessage(bob, 'still there?'))).body.error.code).toBe('ERR_UID_NOT_FOUND');
    await call('DELETE', `/users/${alice}`, { body: { permanent: true } });
    const carol = await createUser();
    expect((await send(alice, textMessage(carol, 'hi'))).body.error.code).toBe('ERR_UID_NOT_FOUND');
  });

  it('counts group members as they are after members join, are kicked or are banned', async () => {
    const owner = await createUser();
    const guid = await createGroup(owner);
    expect(membersCountIn(await send(owner, textMessage(guid, 'alone', 'group')))).toBe(1);
    const joiner = await createUser();
    const banned = await createUser();
    await call('POST', `/groups/${guid}/members`, { body: { participants: [joiner, banned] } });
    expect(membersCountIn(await send(owner, textMessage(guid, 'welcome', 'group')))).toBe(3);
    await call('POST', `/groups/${guid}/members`, { body: { usersToBan: [banned] } });
    await call('DELETE', `/groups/${guid}/members/${joiner}`);
    expect(membersCountIn(await send(owner, textMessage(guid, 'bye', 'group')))).toBe(1);
  });

  it('lets a member send once added, and refuses them once kicked', async () => {
    const owner = await createUser();
    const member = await createUser();
    const guid = await createGroup(owner);
    expect((await send(member, textMessage(guid, 'early', 'group'))).body.error.code).toBe(
      'ERR_NOT_A_MEMBER',
    );
    await call('POST', `/groups/${guid}/members`, { body: { participants: [member] } });
    expect((await send(member, textMessage(guid, 'in', 'group'))).status).toBe(200);
    await call('DELETE', `/groups/${guid}/members/${member}`);
    expect((await send(member, textMessage(guid, 'out', 'group'))).body.error.code).toBe('ERR_NOT_A_MEMBER');
  });

  it('drops a deleted user from the member count of their groups', async () => {
    const owner = await createUser();
    const member = await createUser();
    const guid = await createGroup(owner);
    await call('POST', `/groups/${guid}/members`, { body: { participants: [member] } });
    expect(membersCountIn(await send(owner, textMessage(guid, 'two of us', 'group')))).toBe(2);
    await call('DELETE', `/users/${member}`);
    expect(membersCountIn(await send(owner, textMessage(guid, 'one left', 'group')))).toBe(1);
  });

  it('names a group as it is after an update, and refuses it once deleted', async () => {
    const owner = await createUser();
    const guid = await createGroup(owner);
    expect((await send(owner, textMessage(guid, 'hi', 'group'))).status).toBe(200);
    await call('PUT', `/groups/${guid}`, { body: { name: 'After' } });
    const renamed = await send(owner, textMessage(guid, 'renamed', 'group'));
    expect(renamed.body.data.data.entities.receiver.entity.name).toBe('After');
    await call('DELETE', `/groups/${guid}`);
    expect((await send(owner, textMessage(guid, 'gone', 'group'))).body.error.code).toBe(
      'ERR_GUID_NOT_FOUND',
    );
  });

  it('sends to a group created again under a deleted GUID as the new group', async () => {
    const owner = await createUser();
    const guid = await createGroup(owner);
    expect((await send(owner, textMessage(guid, 'first life', 'group'))).status).toBe(200);
    await call('DELETE', `/groups/${guid}`);
    await call('POST', '/groups', { body: { guid, name: 'Second life', type: 'public' }, onBehalfOf: owner });
    const again = await send(owner, textMessage(guid, 'second life', 'group'));
    expect(again.body.data.data.entities.receiver.entity).toMatchObject({
      name: 'Second life',
      membersCount: 1,
    });
  });

  it('stores each of many concurrent sends once, with its own id', async () => {
    const alice = await createUser();
    const bob = await createUser();
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, index) => send(alice, textMessage(bob, `message ${index}`))),
    );
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const ids = new Set(responses.map((response) => response.body.data.id));
    expect(ids.size).toBe(40);
    const listed = await call('GET', `/users/${bob}/messages?limit=100`, { onBehalfOf: alice });
    expect(listed.body.data.map((message: { data: { text: string } }) => message.data.text).sort()).toEqual(
      responses.map((response) => response.body.data.data.text).sort(),
    );
  });
});
