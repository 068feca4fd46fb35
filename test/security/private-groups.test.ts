import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from '../server/client-support.js';
import { APP_ONE, ENGINES, uniqueId, apiFixtures, useTestServer } from '../server/support.js';

interface Answer {
  status: number;
  body: unknown;
}

/**
 * The attack: an outsider, logged in as an ordinary user, probes private and password groups
 * through the client API for their names, owners and members. A private group must not exist for
 * them; a password group shows itself (it can be joined) but not who is in it.
 */
describe.each(ENGINES)('private and password groups on %s', (engine) => {
  const api = useTestServer(engine);
  const { createUser } = apiFixtures(api.call);
  let member: TestClient;
  let outsider: TestClient;
  const ids = { owner: '', member: '', outsider: '', hidden: '', locked: '', open: '', missing: '' };

  beforeAll(async () => {
    for (const key of ['owner', 'member', 'outsider'] as const) ids[key] = await createUser(key);
    ids.hidden = uniqueId('hidden');
    ids.locked = uniqueId('locked');
    ids.open = uniqueId('open');
    ids.missing = uniqueId('missing');
    for (const [guid, type] of [
      [ids.hidden, 'private'],
      [ids.locked, 'password'],
      [ids.open, 'public'],
    ] as const) {
      const created = await api.call('POST', '/groups', {
        body: {
          guid,
          name: `Group ${guid}`,
          type,
          ...(type === 'password' ? { password: 'letmein' } : {}),
          members: { participants: [ids.member] },
        },
        onBehalfOf: ids.owner,
      });
      expect(created.status).toBe(200);
    }
    member = await connectClient(api.server, APP_ONE, ids.member, { socket: false });
    outsider = await connectClient(api.server, APP_ONE, ids.outsider, { socket: false });
  });

  /** The outsider's answer about the private group, with its GUID written as the missing one's. */
  const asIfMissing = (answer: Answer): Answer =>
    JSON.parse(JSON.stringify(answer).replaceAll(ids.hidden, ids.missing)) as Answer;
  const guids = (answer: { body: { data: { guid: string }[] } }) =>
    answer.body.data.map((group) => group.guid);

  it('GET /groups lists a private group only to its members', async () => {
    const seenByOutsider = await outsider.call('GET', '/groups?per_page=100');
    expect(guids(seenByOutsider)).toEqual(expect.arrayContaining([ids.locked, ids.open]));
    expect(guids(seenByOutsider)).not.toContain(ids.hidden);
    expect(seenByOutsider.body.meta.pagination.total).toBe(2);
    const searched = await outsider.call('GET', `/groups?searchKey=${ids.hidden}`);
    expect(searched.body.data).toEqual([]);
    expect(guids(await member.call('GET', '/groups?per_page=100'))).toContain(ids.hidden);
  });

  it('answers an outsider about a private group exactly as about a group that does not exist', async () => {
    const probes: [string, (guid: string) => string, unknown?][] = [
      ['GET', (guid) => `/groups/${guid}`],
      ['GET', (guid) => `/groups/${guid}/members`],
      ['GET', (guid) => `/groups/${guid}/messages`],
      ['GET', (guid) => `/groups/${guid}/conversation`],
      ['POST', (guid) => `/groups/${guid}/conversation/read`],
      ['POST', (guid) => `/groups/${guid}/members`, {}],
      ['DELETE', (guid) => `/groups/${guid}/members`],
    ];
    for (const [method, path, body] of probes) {
      const hidden = await outsider.call(method, path(ids.hidden), body);
      const missing = await outsider.call(method, path(ids.missing), body);
      expect(missing.status, `${method} ${path('…')}`).toBe(404);
      expect(asIfMissing(hidden), `${method} ${path('…')}`).toEqual(missing);
    }
    const send = (guid: string) =>
      outsider.call('POST', '/messages', {
        receiver: guid,
        receiverType: 'group',
        category: 'message',
        type: 'text',
        data: { text: 'knock knock' },
      });
    expect(asIfMissing(await send(ids.hidden))).toEqual(await send(ids.missing));
  });

  it('lists the members of a password group only to its members', async () => {
    const outsiders = await outsider.call('GET', `/groups/${ids.locked}/members`);
    expect(outsiders.status).toBe(403);
    expect(outsiders.body.error.code).toBe('ERR_NOT_A_MEMBER');
    expect(JSON.stringify(outsiders.body)).not.toContain(ids.owner);
    const members = await member.call('GET', `/groups/${ids.locked}/members`);
    expect(members.body.data.map((entry: { uid: string }) => entry.uid).sort()).toEqual(
      [ids.member, ids.owner].sort(),
    );
  });

  it('lists the members of a private group to its members and of a public group to anyone', async () => {
    const inside = await member.call('GET', `/groups/${ids.hidden}/members`);
    expect(inside.status).toBe(200);
    expect(inside.body.data).toHaveLength(2);
    const open = await outsider.call('GET', `/groups/${ids.open}/members`);
    expect(open.status).toBe(200);
    expect(open.body.data).toHaveLength(2);
  });

  it('still shows the server API every group and its members', async () => {
    const listed = await api.call('GET', '/groups?perPage=100');
    expect(guids(listed)).toEqual(expect.arrayContaining([ids.hidden, ids.locked, ids.open]));
    const members = await api.call('GET', `/groups/${ids.hidden}/members`, { onBehalfOf: ids.outsider });
    expect(members.status).toBe(200);
    expect(members.body.data).toHaveLength(2);
    expect((await api.call('GET', `/groups/${ids.hidden}`)).body.data.name).toBe(`Group ${ids.hidden}`);
  });
});
