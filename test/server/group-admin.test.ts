import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from './client-support.js';
import { APP_ONE, APP_TWO, ENGINES, apiFixtures, uniqueId, useTestServer } from './support.js';

/**
 * Group administration over REST, both APIs: who may change scopes, kick, ban, unban, add,
 * update, delete and transfer a group (owner > admin > moderator > participant), the action
 * messages each change writes, and the refusals (403 with CometChat's codes, changing nothing).
 */
describe.each(ENGINES)('group administration on %s', (engine) => {
  const api = useTestServer(engine);
  const { createUser } = apiFixtures(api.call);

  interface Crew {
    guid: string;
    owner: string;
    admin: string;
    moderator: string;
    participant: string;
    outsider: string;
  }

  /** A fresh group with one member of each scope (the owner is an admin), and a user outside it. */
  const crew = async (type: 'public' | 'private' = 'public'): Promise<Crew> => {
    const [owner, admin, moderator, participant, outsider] = await Promise.all(
      ['owner', 'admin', 'moderator', 'participant', 'outsider'].map((prefix) => createUser(prefix)),
    );
    const guid = uniqueId('crew');
    const created = await api.call('POST', '/groups', {
      body: {
        guid,
        name: `Crew ${guid}`,
        type,
        members: { admins: [admin], moderators: [moderator], participants: [participant] },
      },
      onBehalfOf: owner,
    });
    expect(created.status).toBe(200);
    return { guid, owner, admin, moderator, participant, outsider } as Crew;
  };

  const scopes = async (guid: string): Promise<Record<string, string>> => {
    const members = await api.call('GET', `/groups/${guid}/members`);
    return Object.fromEntries(members.body.data.map((m: { uid: string; scope: string }) => [m.uid, m.scope]));
  };

  /** The group's action messages, oldest first: `action` and the UID it was `on`. */
  const actions = async (guid: string) => {
    const history = await api.call('GET', `/groups/${guid}/messages?category=action&perPage=100`);
    return (
      history.body.data as {
        data: { action: string; extras?: unknown; entities: { on: { entity: { uid: string } } } };
      }[]
    ).map((message) => ({
      action: message.data.action,
      on: message.data.entities.on.entity.uid,
      ...(message.data.extras === undefined ? {} : { extras: message.data.extras }),
    }));
  };

  const refusal = (response: { status: number; body: { error?: { code: string } } }) => ({
    status: response.status,
    code: response.body.error?.code,
  });

  describe('changing a scope (PUT /groups/{guid}/members/{uid})', () => {
    it('answers the new scope and writes a scopeChanged action with the old and new scope', async () => {
      const c = await crew();
      const changed = await api.call('PUT', `/groups/${c.guid}/members/${c.participant}`, {
        body: { scope: 'moderator' },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ guid: c.guid, uid: c.participant, scope: 'moderator' });
      expect(changed.body.data.joinedAt).toBeGreaterThan(0);
      expect((await scopes(c.guid))[c.participant]).toBe('moderator');
      expect((await actions(c.guid)).at(-1)).toEqual({
        action: 'scopeChanged',
        on: c.participant,
        extras: { scope: { new: 'moderator', old: 'participant' } },
      });
    });

    it('lets a moderator make a participant a moderator, but not an admin', async () => {
      const c = await crew();
      const toAdmin = await api.call('PUT', `/groups/${c.guid}/members/${c.participant}`, {
        body: { scope: 'admin' },
        onBehalfOf: c.moderator,
      });
      expect(refusal(toAdmin)).toEqual({ status: 403, code: 'ERR_GROUP_NO_SCOPE_CLEARANCE' });
      expect((await scopes(c.guid))[c.participant]).toBe('participant');
      const toModerator = await api.call('PUT', `/groups/${c.guid}/members/${c.participant}`, {
        body: { scope: 'moderator' },
        onBehalfOf: c.moderator,
      });
      expect(toModerator.status).toBe(200);
    });

    it('refuses a participant with ERR_GROUP_NO_MODERATOR_SCOPE and changes nothing', async () => {
      const c = await crew();
      const before = await actions(c.guid);
      const response = await api.call('PUT', `/groups/${c.guid}/members/${c.moderator}`, {
        body: { scope: 'participant' },
        onBehalfOf: c.participant,
      });
      expect(refusal(response)).toEqual({ status: 403, code: 'ERR_GROUP_NO_MODERATOR_SCOPE' });
      expect((await scopes(c.guid))[c.moderator]).toBe('moderator');
      expect(await actions(c.guid)).toEqual(before);
    });

    it('refuses a moderator re-scoping an admin; lets an admin re-scope another admin, as the UI Kit offers', async () => {
      const c = await crew();
      const byModerator = await api.call('PUT', `/groups/${c.guid}/members/${c.admin}`, {
        body: { scope: 'participant' },
        onBehalfOf: c.moderator,
      });
      expect(refusal(byModerator)).toEqual({ status: 403, code: 'ERR_GROUP_NO_SCOPE_CLEARANCE' });
      const second = await createUser('admin');
      await api.call('POST', `/groups/${c.guid}/members`, { body: { admins: [second] } });
      const byAdmin = await api.call('PUT', `/groups/${c.guid}/members/${second}`, {
        body: { scope: 'participant' },
        onBehalfOf: c.admin,
      });
      expect(byAdmin.status).toBe(200);
      expect((await scopes(c.guid))[second]).toBe('participant');
    });

    it("never changes the owner's scope, not even for the app", async () => {
      const c = await crew();
      const byApp = await api.call('PUT', `/groups/${c.guid}/members/${c.owner}`, {
        body: { scope: 'participant' },
      });
      expect(refusal(byApp)).toEqual({ status: 403, code: 'ERR_GROUP_NO_SCOPE_CLEARANCE' });
      expect((await scopes(c.guid))[c.owner]).toBe('admin');
    });

    it('refuses a member changing their own scope with ERR_GROUP_NO_SELF_ACTION', async () => {
      const c = await crew();
      const response = await api.call('PUT', `/groups/${c.guid}/members/${c.admin}`, {
        body: { scope: 'moderator' },
        onBehalfOf: c.admin,
      });
      expect(refusal(response)).toEqual({ status: 403, code: 'ERR_GROUP_NO_SELF_ACTION' });
    });

    it('answers ERR_SAME_SCOPE, ERR_NOT_A_MEMBER and ERR_GROUP_NOT_JOINED for what cannot change', async () => {
      const c = await crew();
      const same = await api.call('PUT', `/groups/${c.guid}/members/${c.moderator}`, {
        body: { scope: 'moderator' },
      });
      expect(refusal(same)).toEqual({ status: 400, code: 'ERR_SAME_SCOPE' });
      expect(same.body.error.details.field).toBe('scope');
      const outsider = await api.call('PUT', `/groups/${c.guid}/members/${c.outsider}`, {
        body: { scope: 'moderator' },
      });
      expect(refusal(outsider)).toEqual({ status: 403, code: 'ERR_NOT_A_MEMBER' });
      const byOutsider = await api.call('PUT', `/groups/${c.guid}/members/${c.participant}`, {
        body: { scope: 'moderator' },
        onBehalfOf: c.outsider,
      });
      expect(refusal(byOutsider)).toEqual({ status: 403, code: 'ERR_GROUP_NOT_JOINED' });
    });
  });

  describe('promoting and demoting (PUT /groups/{guid}/promote, DELETE /groups/{guid}/demote)', () => {
    it('moves a member one scope up or down, with scopeChanged actions', async () => {
      const c = await crew();
      const owner = await connectClient(api.server, APP_ONE, c.owner, { socket: false });
      const promoted = await owner.call('PUT', `/groups/${c.guid}/promote`, { uid: c.participant });
      expect(promoted.body.data).toMatchObject({ uid: c.participant, scope: 'moderator' });
      expect(
        (await owner.call('PUT', `/groups/${c.guid}/promote`, { uid: c.participant })).body.data.scope,
      ).toBe('admin');
      expect(refusal(await owner.call('PUT', `/groups/${c.guid}/promote`, { uid: c.participant }))).toEqual({
        status: 400,
        code: 'ERR_SAME_SCOPE',
      });
      const demoted = await owner.call('DELETE', `/groups/${c.guid}/demote`, { uid: c.moderator });
      expect(demoted.body.data.scope).toBe('participant');
      expect((await actions(c.guid)).slice(-3).map((entry) => entry.extras)).toEqual([
        { scope: { new: 'moderator', old: 'participant' } },
        { scope: { new: 'admin', old: 'moderator' } },
        { scope: { new: 'participant', old: 'moderator' } },
      ]);
    });

    it('refuses a moderator promoting to admin, and a participant demoting anyone', async () => {
      const c = await crew();
      await api.call('POST', `/groups/${c.guid}/members`, { body: { moderators: [c.outsider] } });
      const moderator = await connectClient(api.server, APP_ONE, c.moderator, { socket: false });
      expect(refusal(await moderator.call('PUT', `/groups/${c.guid}/promote`, { uid: c.outsider }))).toEqual({
        status: 403,
        code: 'ERR_GROUP_NO_SCOPE_CLEARANCE',
      });
      const participant = await connectClient(api.server, APP_ONE, c.participant, { socket: false });
      expect(
        refusal(await participant.call('DELETE', `/groups/${c.guid}/demote`, { uid: c.moderator })),
      ).toEqual({
        status: 403,
        code: 'ERR_GROUP_NO_MODERATOR_SCOPE',
      });
      expect(refusal(await participant.call('PUT', `/groups/${c.guid}/promote`, {}))).toEqual({
        status: 400,
        code: 'ERR_BAD_REQUEST',
      });
      expect(await scopes(c.guid)).toMatchObject({ [c.outsider]: 'moderator', [c.moderator]: 'moderator' });
    });
  });

  describe('kicking (DELETE /groups/{guid}/members/{uid})', () => {
    it('lets a moderator kick a participant, who may join again, with a kicked action', async () => {
      const c = await crew();
      const kicked = await api.call('DELETE', `/groups/${c.guid}/members/${c.participant}`, {
        onBehalfOf: c.moderator,
      });
      expect(kicked.body.data.success).toBe(true);
      expect((await scopes(c.guid))[c.participant]).toBeUndefined();
      expect((await actions(c.guid)).at(-1)).toEqual({ action: 'kicked', on: c.participant });
      const client = await connectClient(api.server, APP_ONE, c.participant, { socket: false });
      expect((await client.call('POST', `/groups/${c.guid}/members`, {})).status).toBe(200);
    });

    it('refuses a participant, a moderator kicking an admin, and anyone kicking the owner', async () => {
      const c = await crew();
      const cases: [string, string, string][] = [
        [c.participant, c.moderator, 'ERR_GROUP_NO_MODERATOR_SCOPE'],
        [c.moderator, c.admin, 'ERR_GROUP_NO_SCOPE_CLEARANCE'],
        [c.admin, c.admin, 'ERR_GROUP_NO_SELF_ACTION'],
        [c.admin, c.owner, 'ERR_GROUP_NO_SCOPE_CLEARANCE'],
      ];
      for (const [by, on, code] of cases) {
        const response = await api.call('DELETE', `/groups/${c.guid}/members/${on}`, { onBehalfOf: by });
        expect(refusal(response), `${by} kicks ${on}`).toEqual({ status: 403, code });
      }
      const byApp = await api.call('DELETE', `/groups/${c.guid}/members/${c.owner}`);
      expect(refusal(byApp)).toEqual({ status: 403, code: 'ERR_GROUP_NO_SCOPE_CLEARANCE' });
      const second = await createUser('admin');
      await api.call('POST', `/groups/${c.guid}/members`, { body: { admins: [second] } });
      const adminOnAdmin = await api.call('DELETE', `/groups/${c.guid}/members/${second}`, {
        onBehalfOf: c.admin,
      });
      expect(refusal(adminOnAdmin)).toEqual({ status: 403, code: 'ERR_GROUP_NO_SCOPE_CLEARANCE' });
      expect(Object.keys(await scopes(c.guid))).toHaveLength(5);
    });
  });

  describe('banning (POST, DELETE, GET /groups/{guid}/bannedusers)', () => {
    it('bans a member: out of the group, listed as banned, with a banned action', async () => {
      const c = await crew();
      const banned = await api.call('POST', `/groups/${c.guid}/bannedusers/${c.participant}`, {
        onBehalfOf: c.moderator,
      });
      expect(banned.body.data.success).toBe(true);
      expect((await scopes(c.guid))[c.participant]).toBeUndefined();
      expect((await actions(c.guid)).at(-1)).toEqual({ action: 'banned', on: c.participant });
      const listed = await api.call('GET', `/groups/${c.guid}/bannedusers`);
      expect(listed.body.data).toEqual([
        expect.objectContaining({ uid: c.participant, name: `Name of ${c.participant}` }),
      ]);
      expect(listed.body.data[0].bannedAt).toBeGreaterThan(0);
      expect(listed.body.meta.pagination).toMatchObject({ total: 1, count: 1 });
    });

    it('keeps a banned user out: they cannot rejoin, nor be re-added, until unbanned', async () => {
      const c = await crew();
      await api.call('POST', `/groups/${c.guid}/bannedusers/${c.participant}`);
      const client = await connectClient(api.server, APP_ONE, c.participant, { socket: false });
      expect(refusal(await client.call('POST', `/groups/${c.guid}/members`, {}))).toEqual({
        status: 403,
        code: 'ERR_BANNED_GROUPMEMBER',
      });
      const readded = await api.call('POST', `/groups/${c.guid}/members`, {
        body: { participants: [c.participant] },
      });
      expect(readded.body.data.participants[c.participant]).toMatchObject({
        success: false,
        error: { code: 'ERR_BANNED_GROUPMEMBER' },
      });
      expect((await scopes(c.guid))[c.participant]).toBeUndefined();
      const unbanned = await api.call('DELETE', `/groups/${c.guid}/bannedusers/${c.participant}`, {
        onBehalfOf: c.admin,
      });
      expect(unbanned.body.data.success).toBe(true);
      expect((await actions(c.guid)).at(-1)).toEqual({ action: 'unbanned', on: c.participant });
      expect((await api.call('GET', `/groups/${c.guid}/bannedusers`)).body.data).toEqual([]);
      expect((await client.call('POST', `/groups/${c.guid}/members`, {})).status).toBe(200);
    });

    it('bans a user who is not a member, so they cannot join', async () => {
      const c = await crew();
      expect((await api.call('POST', `/groups/${c.guid}/bannedusers/${c.outsider}`)).status).toBe(200);
      const client = await connectClient(api.server, APP_ONE, c.outsider, { socket: false });
      expect(refusal(await client.call('POST', `/groups/${c.guid}/members`, {})).code).toBe(
        'ERR_BANNED_GROUPMEMBER',
      );
    });

    it('answers ERR_ALREADY_BANNED and ERR_NOT_A_BANNED_USER', async () => {
      const c = await crew();
      await api.call('POST', `/groups/${c.guid}/bannedusers/${c.participant}`);
      expect(refusal(await api.call('POST', `/groups/${c.guid}/bannedusers/${c.participant}`))).toEqual({
        status: 409,
        code: 'ERR_ALREADY_BANNED',
      });
      expect(refusal(await api.call('DELETE', `/groups/${c.guid}/bannedusers/${c.moderator}`))).toEqual({
        status: 404,
        code: 'ERR_NOT_A_BANNED_USER',
      });
    });

    it('refuses participants banning, unbanning and listing bans, and moderators banning admins', async () => {
      const c = await crew();
      await api.call('POST', `/groups/${c.guid}/bannedusers/${c.outsider}`);
      const asParticipant = { onBehalfOf: c.participant };
      for (const [method, path] of [
        ['POST', `/groups/${c.guid}/bannedusers/${c.moderator}`],
        ['DELETE', `/groups/${c.guid}/bannedusers/${c.outsider}`],
        ['GET', `/groups/${c.guid}/bannedusers`],
      ] as const) {
        expect(refusal(await api.call(method, path, asParticipant)), `${method} ${path}`).toEqual({
          status: 403,
          code: 'ERR_GROUP_NO_MODERATOR_SCOPE',
        });
      }
      const onAdmin = await api.call('POST', `/groups/${c.guid}/bannedusers/${c.admin}`, {
        onBehalfOf: c.moderator,
      });
      expect(refusal(onAdmin)).toEqual({ status: 403, code: 'ERR_GROUP_NO_SCOPE_CLEARANCE' });
      expect((await api.call('GET', `/groups/${c.guid}/bannedusers`)).body.data).toHaveLength(1);
    });

    it('finds banned users by searchKey', async () => {
      const c = await crew();
      await api.call('POST', `/groups/${c.guid}/bannedusers/${c.outsider}`);
      await api.call('POST', `/groups/${c.guid}/bannedusers/${c.participant}`);
      const found = await api.call('GET', `/groups/${c.guid}/bannedusers?searchKey=outsider`);
      expect(found.body.data.map((user: { uid: string }) => user.uid)).toEqual([c.outsider]);
    });
  });

  describe('adding members', () => {
    it('lets only admins add: a moderator acting for the app is refused with ERR_GROUP_NO_ADMIN_SCOPE', async () => {
      const c = await crew();
      const byModerator = await api.call('POST', `/groups/${c.guid}/members`, {
        body: { participants: [c.outsider] },
        onBehalfOf: c.moderator,
      });
      expect(refusal(byModerator)).toEqual({ status: 403, code: 'ERR_GROUP_NO_ADMIN_SCOPE' });
      const byAdmin = await api.call('POST', `/groups/${c.guid}/members`, {
        body: { participants: [c.outsider] },
        onBehalfOf: c.admin,
      });
      expect(byAdmin.body.data.participants[c.outsider]).toMatchObject({ success: true });
    });

    it('re-scopes a member it names again with a scopeChanged action, and reports ERR_SAME_SCOPE', async () => {
      const c = await crew();
      const response = await api.call('POST', `/groups/${c.guid}/members`, {
        body: { moderators: [c.participant], admins: [c.admin] },
      });
      expect(response.body.data.moderators[c.participant].data.data.action).toBe('scopeChanged');
      expect(response.body.data.admins[c.admin]).toMatchObject({
        success: false,
        error: { code: 'ERR_SAME_SCOPE' },
      });
      expect(response.body.data.usersToBan).toEqual({});
    });

    it('lets a client admin add members through the SDK route, every list answered', async () => {
      const c = await crew();
      const admin = await connectClient(api.server, APP_ONE, c.admin, { socket: false });
      const response = await admin.call('PUT', `/groups/${c.guid}/members`, {
        participants: [c.outsider],
      });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body.data).sort()).toEqual([
        'admins',
        'moderators',
        'participants',
        'usersToBan',
      ]);
      expect((await scopes(c.guid))[c.outsider]).toBe('participant');
      const participant = await connectClient(api.server, APP_ONE, c.participant, { socket: false });
      const refused = await participant.call('PUT', `/groups/${c.guid}/members`, { admins: [c.outsider] });
      expect(refusal(refused)).toEqual({ status: 403, code: 'ERR_GROUP_NO_ADMIN_SCOPE' });
    });
  });

  describe('updating and deleting a group', () => {
    it('lets a client moderator update from a whole Group object, ignoring what is not a group field', async () => {
      const c = await crew();
      const moderator = await connectClient(api.server, APP_ONE, c.moderator, { socket: false });
      const updated = await moderator.call('PUT', `/groups/${c.guid}`, {
        guid: c.guid,
        name: 'Renamed crew',
        type: 'public',
        hasJoined: false,
        membersCount: 0,
        isBanned: false,
        owner: c.moderator,
      });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ name: 'Renamed crew', owner: c.owner, hasJoined: true });
      const participant = await connectClient(api.server, APP_ONE, c.participant, { socket: false });
      const refused = await participant.call('PUT', `/groups/${c.guid}`, {
        name: 'Mine now',
        type: 'public',
      });
      expect(refusal(refused)).toEqual({ status: 403, code: 'ERR_GROUP_NO_MODERATOR_SCOPE' });
      expect((await api.call('GET', `/groups/${c.guid}`)).body.data.name).toBe('Renamed crew');
    });

    it('lets admins delete a group, not moderators', async () => {
      const c = await crew();
      const moderator = await connectClient(api.server, APP_ONE, c.moderator, { socket: false });
      expect(refusal(await moderator.call('DELETE', `/groups/${c.guid}`))).toEqual({
        status: 403,
        code: 'ERR_GROUP_NO_ADMIN_SCOPE',
      });
      const admin = await connectClient(api.server, APP_ONE, c.admin, { socket: false });
      expect((await admin.call('DELETE', `/groups/${c.guid}`)).body.data.success).toBe(true);
      expect(refusal(await api.call('GET', `/groups/${c.guid}`))).toEqual({
        status: 404,
        code: 'ERR_GUID_NOT_FOUND',
      });
    });
  });

  describe('ownership', () => {
    it('keeps the owner in the group until they transfer it; then they may leave', async () => {
      const c = await crew();
      const owner = await connectClient(api.server, APP_ONE, c.owner, { socket: false });
      expect(refusal(await owner.call('DELETE', `/groups/${c.guid}/members`))).toEqual({
        status: 403,
        code: 'ERR_GROUP_NO_CLEARANCE',
      });
      const transferred = await owner.call('PATCH', `/groups/${c.guid}/owner`, { owner: c.participant });
      expect(transferred.status).toBe(200);
      expect(transferred.body.data.message).toContain(c.participant);
      expect((await api.call('GET', `/groups/${c.guid}`)).body.data.owner).toBe(c.participant);
      expect((await scopes(c.guid))[c.participant]).toBe('admin');
      expect((await actions(c.guid)).at(-1)).toEqual({
        action: 'scopeChanged',
        on: c.participant,
        extras: { scope: { new: 'admin', old: 'participant' } },
      });
      expect((await owner.call('DELETE', `/groups/${c.guid}/members`)).status).toBe(200);
    });

    it('lets only the owner transfer, and only to a member', async () => {
      const c = await crew();
      const admin = await connectClient(api.server, APP_ONE, c.admin, { socket: false });
      expect(refusal(await admin.call('PATCH', `/groups/${c.guid}/owner`, { owner: c.admin }))).toEqual({
        status: 403,
        code: 'ERR_GROUP_NO_CLEARANCE',
      });
      const owner = await connectClient(api.server, APP_ONE, c.owner, { socket: false });
      expect(refusal(await owner.call('PATCH', `/groups/${c.guid}/owner`, { owner: c.outsider }))).toEqual({
        status: 403,
        code: 'ERR_NOT_A_MEMBER',
      });
      expect((await api.call('GET', `/groups/${c.guid}`)).body.data.owner).toBe(c.owner);
    });

    it('lets the app name a new owner with PUT /groups/{guid}', async () => {
      const c = await crew();
      const updated = await api.call('PUT', `/groups/${c.guid}`, { body: { owner: c.moderator } });
      expect(updated.body.data.owner).toBe(c.moderator);
      expect((await scopes(c.guid))[c.moderator]).toBe('admin');
    });
  });

  describe('as an attacker', () => {
    it('answers an outsider about a private group exactly as about a missing one', async () => {
      const c = await crew('private');
      const missing = uniqueId('missing');
      const outsider = await connectClient(api.server, APP_ONE, c.outsider, { socket: false });
      const probes: [string, (guid: string) => string, unknown?][] = [
        ['PUT', (guid) => `/groups/${guid}/members/${c.participant}`, { scope: 'admin' }],
        ['DELETE', (guid) => `/groups/${guid}/members/${c.participant}`],
        ['POST', (guid) => `/groups/${guid}/bannedusers/${c.participant}`],
        ['DELETE', (guid) => `/groups/${guid}/bannedusers/${c.participant}`],
        ['GET', (guid) => `/groups/${guid}/bannedusers`],
        ['PUT', (guid) => `/groups/${guid}/members`, { participants: [c.outsider] }],
        ['PUT', (guid) => `/groups/${guid}`, { name: 'taken', type: 'public' }],
        ['DELETE', (guid) => `/groups/${guid}`],
        ['PATCH', (guid) => `/groups/${guid}/owner`, { owner: c.outsider }],
        ['PUT', (guid) => `/groups/${guid}/promote`, { uid: c.participant }],
        ['DELETE', (guid) => `/groups/${guid}/demote`, { uid: c.participant }],
      ];
      for (const [method, path, body] of probes) {
        const hidden = await outsider.call(method, path(c.guid), body);
        const absent = await outsider.call(method, path(missing), body);
        expect(absent.status, `${method} ${path('…')}`).toBe(404);
        expect(
          JSON.parse(JSON.stringify(hidden).replaceAll(c.guid, missing)),
          `${method} ${path('…')}`,
        ).toEqual(absent);
      }
      expect(Object.keys(await scopes(c.guid))).toHaveLength(4);
    });

    it("refuses another app's key every administrative route of this app's group", async () => {
      const c = await crew();
      const other = { apikey: APP_TWO.apiKey, appId: APP_TWO.appId };
      for (const [method, path, body] of [
        ['PUT', `/groups/${c.guid}/members/${c.participant}`, { scope: 'admin' }],
        ['DELETE', `/groups/${c.guid}/members/${c.participant}`, undefined],
        ['POST', `/groups/${c.guid}/bannedusers/${c.participant}`, undefined],
        ['DELETE', `/groups/${c.guid}/bannedusers/${c.participant}`, undefined],
        ['GET', `/groups/${c.guid}/bannedusers`, undefined],
        ['PUT', `/groups/${c.guid}`, { name: 'taken' }],
        ['DELETE', `/groups/${c.guid}`, undefined],
      ] as const) {
        const response = await api.call(method, path, { ...other, body });
        expect(refusal(response), `${method} ${path}`).toEqual({ status: 404, code: 'ERR_GUID_NOT_FOUND' });
      }
      expect(Object.keys(await scopes(c.guid))).toHaveLength(4);
    });

    it('answers bad bodies and ids with a 4xx naming the field, never a 5xx, changing nothing', async () => {
      const c = await crew();
      const member = `/groups/${c.guid}/members/${c.participant}`;
      const cases: [string, string, { body?: unknown; rawBody?: string }, string][] = [
        ['PUT', member, { body: { scope: 'king' } }, 'scope'],
        ['PUT', member, { body: { scope: 3 } }, 'scope'],
        ['PUT', member, { body: { scope: 'admin', extra: true } }, 'extra'],
        ['PUT', member, { body: [] }, ''],
        ['PUT', member, { rawBody: '{"scope":' }, ''],
        ['PUT', `/groups/${c.guid}/members/bad%20uid!`, { body: { scope: 'admin' } }, 'uid'],
        ['POST', `/groups/${c.guid}/bannedusers/${'x'.repeat(200)}`, {}, 'uid'],
        ['DELETE', `/groups/bad%20guid/bannedusers/${c.participant}`, {}, 'guid'],
        ['GET', `/groups/${c.guid}/bannedusers?perPage=-1`, {}, 'perPage'],
        ['GET', `/groups/${c.guid}/bannedusers?page=abc`, {}, 'page'],
        ['PUT', `/groups/${c.guid}`, { body: { name: '' } }, 'name'],
      ];
      for (const [method, path, options, field] of cases) {
        const response = await api.call(method, path, options);
        const what = `${method} ${path} ${JSON.stringify(options)}`;
        expect(response.status, what).toBeGreaterThanOrEqual(400);
        expect(response.status, what).toBeLessThan(500);
        // The field at fault is named: as `details.field`, or (an unknown key) in the message.
        expect(`${response.body.error.details.field} ${response.body.error.message}`, what).toContain(field);
      }
      const client = await connectClient(api.server, APP_ONE, c.owner, { socket: false });
      const transfer = await client.call('PATCH', `/groups/${c.guid}/owner`, { owner: 42 });
      expect(transfer.status).toBe(400);
      expect(transfer.body.error.details.field).toBe('owner');
      expect(await scopes(c.guid)).toMatchObject({ [c.participant]: 'participant', [c.owner]: 'admin' });
    });
  });

  describe('in realtime', () => {
    let watcher: TestClient;
    let target: TestClient;
    let c: Crew;
    beforeAll(async () => {
      c = await crew();
      watcher = await connectClient(api.server, APP_ONE, c.moderator);
      target = await connectClient(api.server, APP_ONE, c.participant);
    });

    const actionFrame =
      (action: string) => (frame: { type?: string; body?: { data?: { action?: string } } }) =>
        frame.type === 'message' && frame.body?.data?.action === action;

    it('sends members the scopeChanged action with its scopes', async () => {
      const admin = await connectClient(api.server, APP_ONE, c.admin, { socket: false });
      await admin.call('PUT', `/groups/${c.guid}/members/${c.participant}`, { scope: 'moderator' });
      const frame = await watcher.next(actionFrame('scopeChanged'), 'the scopeChanged action');
      expect(frame.body.data.extras).toEqual({ scope: { new: 'moderator', old: 'participant' } });
      expect(frame.body.data.entities.on.entity.uid).toBe(c.participant);
    });

    it('sends the kicked action to the members and to the kicked user', async () => {
      await api.call('DELETE', `/groups/${c.guid}/members/${c.participant}`, { onBehalfOf: c.admin });
      for (const client of [watcher, target]) {
        const frame = await client.next(actionFrame('kicked'), `the kicked action for ${client.uid}`);
        expect(frame.body.data.entities.by.entity.uid).toBe(c.admin);
      }
    });
  });
});
