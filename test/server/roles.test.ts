import { describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '../../shared/roles.js';
import { connectClient } from './client-support.js';
import {
  APP_ONE,
  APP_TWO,
  ENGINES,
  holdRows,
  callServerApi,
  uniqueId,
  until,
  useTestServer,
  waitersOn,
} from './support.js';

/** `/roles` as a REST client calls it, and users' `role` checked against the app's roles. */
describe.each(ENGINES)('roles on %s', (engine) => {
  const api = useTestServer(engine);
  const newRole = async (extra: Record<string, unknown> = {}) => {
    const role = uniqueId('role').toLowerCase();
    const created = await api.call('POST', '/roles', { body: { role, name: `Role ${role}`, ...extra } });
    expect(created.status).toBe(200);
    return role;
  };

  it('creates, reads, lists, updates and unsets a role in CometChat’s shape', async () => {
    const role = await newRole({
      description: 'Support staff',
      metadata: { team: 'support' },
      settings: { listUsers: 'all', sendMessagesTo: 'all' },
    });
    const read = await api.call('GET', `/roles/${role}`);
    expect(read.body.data).toMatchObject({
      role,
      name: `Role ${role}`,
      description: 'Support staff',
      metadata: { team: 'support' },
      settings: { listUsers: 'all', sendMessagesTo: 'all' },
      createdAt: expect.any(Number),
    });
    const listed = await api.call('GET', '/roles?perPage=100');
    expect(listed.body.data.map((entry: { role: string }) => entry.role)).toEqual(
      expect.arrayContaining(['default', role]),
    );
    expect(listed.body.meta.pagination.per_page).toBe(100);
    const updated = await api.call('PUT', `/roles/${role}`, {
      body: { name: 'Support', unset: ['metadata'] },
    });
    expect(updated.body.data).toMatchObject({ role, name: 'Support', description: 'Support staff' });
    expect(updated.body.data.metadata).toBeUndefined();
    expect(updated.body.data.updatedAt).toEqual(expect.any(Number));
  });

  it("accepts a user's role only when the app has it", async () => {
    const role = await newRole();
    const uid = uniqueId('staff').toLowerCase();
    const refused = await api.call('POST', '/users', { body: { uid, name: 'Staff', role: 'no-such-role' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'ERR_ROLE_NOT_FOUND', details: { field: 'role' } });
    expect((await api.call('GET', `/users/${uid}`)).status).toBe(404);
    expect((await api.call('POST', '/users', { body: { uid, name: 'Staff', role } })).body.data.role).toBe(
      role,
    );
    const moved = await api.call('PUT', `/users/${uid}`, { body: { role: 'nowhere' } });
    expect(moved.status).toBe(400);
    expect(moved.body.error.details.field).toBe('role');
    expect((await api.call('GET', `/users/${uid}`)).body.data.role).toBe(role);
  });

  it('refuses to delete a role some user has, and deletes it once nobody has it', async () => {
    const role = await newRole();
    const uid = uniqueId('holder').toLowerCase();
    await api.call('POST', '/users', { body: { uid, name: 'Holder', role } });
    const refused = await api.call('DELETE', `/roles/${role}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ERR_ROLE_DELETE_DENIED');
    expect((await api.call('GET', `/roles/${role}`)).status).toBe(200);
    await api.call('PUT', `/users/${uid}`, { body: { role: 'default' } });
    const deleted = await api.call('DELETE', `/roles/${role}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.success).toBe(true);
    const gone = await api.call('GET', `/roles/${role}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('ERR_ROLE_NOT_FOUND');
  });

  // Nobody in this app has `@agentic` or `agent`: only being built in keeps them.
  it.each(BUILT_IN_ROLES.map(({ role }) => role))(
    'never deletes the built-in role %s, whether or not users have it',
    async (role) => {
      const refused = await api.call('DELETE', `/roles/${encodeURIComponent(role)}`);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('ERR_ROLE_DELETE_DENIED');
      expect((await api.call('GET', `/roles/${encodeURIComponent(role)}`)).status).toBe(200);
    },
  );

  it('puts back a built-in role the app lacks when the app is seeded, as each start does', async () => {
    const { db } = api.server.core.store;
    // An app whose `agent` role was deleted before built-in roles were kept.
    await db.deleteFrom('roles').where('app_id', '=', APP_ONE.appId).where('role', '=', 'agent').execute();
    expect((await api.call('GET', '/roles/agent')).status).toBe(404);
    await api.server.core.apps.ensure(APP_ONE);
    expect((await api.call('GET', '/roles/agent')).body.data).toMatchObject({
      role: 'agent',
      name: 'Parley agent',
    });
  });

  it("keeps an app's roles from other apps and from clients", async () => {
    const role = await newRole();
    const other = await callServerApi(api.url, APP_TWO, 'GET', `/roles/${role}`);
    expect(other.status).toBe(404);
    expect((await callServerApi(api.url, APP_TWO, 'DELETE', `/roles/${role}`)).status).toBe(404);
    expect((await api.call('GET', `/roles/${role}`)).status).toBe(200);
    const authOnly = await api.call('GET', '/roles', { apikey: APP_ONE.authKey });
    expect(authOnly.status).toBe(403);
    await api.call('POST', '/users', { body: { uid: 'role-reader', name: 'Role reader' } });
    const client = await connectClient(api.server, APP_ONE, 'role-reader', { socket: false });
    const asClient = await client.call('POST', '/roles', { role: 'sneaky', name: 'Sneaky' });
    expect(asClient.status).toBe(404);
    expect(asClient.body.error.code).toBe('ERR_API_NOT_FOUND');
  });

  it('refuses a role that exists already', async () => {
    const role = await newRole();
    const again = await api.call('POST', '/roles', { body: { role, name: 'Again' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('ERR_ROLE_ALREADY_EXISTS');
  });

  it.each([
    ['POST', {}, 'role'],
    ['POST', { role: 'has space', name: 'x' }, 'role'],
    ['POST', { role: 'ok', name: '' }, 'name'],
    [
      'POST',
      { role: 'ok', name: 'x', settings: { sendMessagesTo: 'friendsOnly' } },
      'settings.sendMessagesTo',
    ],
    ['POST', { role: 'ok', name: 'x', metadata: 'text' }, 'metadata'],
    ['POST', { role: 'ok', name: 'x', colour: 'red' }, 'colour'],
    ['PUT', { unset: ['name'] }, 'unset.0'],
    ['PUT', { description: 7 }, 'description'],
  ])('answers %s with %j by a 400 naming %s', async (method, body, field) => {
    const path = method === 'POST' ? '/roles' : `/roles/${await newRole()}`;
    const answer = await api.call(method, path, { body });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.error)).toContain(field);
  });

  it.each(['GET', 'PUT', 'DELETE'])('answers %s of a role that does not exist by a 404', async (method) => {
    const answer = await api.call(
      method,
      '/roles/no-such-role',
      method === 'PUT' ? { body: { name: 'n' } } : {},
    );
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('ERR_ROLE_NOT_FOUND');
  });
});

describe('roles on postgres, against a concurrent delete', () => {
  const api = useTestServer('postgres');

  it('refuses a user created with a role that a delete in progress removes', async () => {
    const role = uniqueId('fleeting').toLowerCase();
    expect((await api.call('POST', '/roles', { body: { role, name: 'Fleeting' } })).status).toBe(200);
    const { db } = api.server.core.store;
    // What DELETE /roles/{role} does: lock the role's row, find nobody holding it, delete it.
    const deletion = await holdRows(
      db,
      (trx) =>
        trx
          .selectFrom('roles')
          .select('role')
          .where('app_id', '=', APP_ONE.appId)
          .where('role', '=', role)
          .forUpdate()
          .execute(),
      (trx) => trx.deleteFrom('roles').where('app_id', '=', APP_ONE.appId).where('role', '=', role).execute(),
    );
    const uid = uniqueId('latecomer').toLowerCase();
    const creating = api.call('POST', '/users', { body: { uid, name: 'Latecomer', role } });
    // The create reaches the role's row while the delete holds it.
    await until(async () => (await waitersOn(db, deletion.pid)) === 1);
    deletion.release();
    await deletion.done;
    const created = await creating;
    expect(created.status).toBe(400);
    expect(created.body.error.code).toBe('ERR_ROLE_NOT_FOUND');
    expect((await api.call('GET', `/users/${uid}`)).status).toBe(404);
  });
  it('refuses to delete a role a user is being re-given, once that update holds it', async () => {
    const role = uniqueId('contested').toLowerCase();
    expect((await api.call('POST', '/roles', { body: { role, name: 'Contested' } })).status).toBe(200);
    const uid = uniqueId('mover').toLowerCase();
    expect((await api.call('POST', '/users', { body: { uid, name: 'Mover' } })).status).toBe(200);
    const { db } = api.server.core.store;
    // Another change of the user holds its row, so the update stops after its role check.
    const otherChange = await holdRows(db, (trx) =>
      trx
        .selectFrom('users')
        .select('uid')
        .where('app_id', '=', APP_ONE.appId)
        .where('uid', '=', uid)
        .forUpdate()
        .execute(),
    );
    const updating = api.call('PUT', `/users/${uid}`, { body: { role } });
    await until(async () => (await waitersOn(db, otherChange.pid, 1)) === 1);
    let deleteAnswered = false;
    const deleting = api.call('DELETE', `/roles/${role}`).finally(() => (deleteAnswered = true));
    // The delete either waits behind the update (the role is held) or has already answered.
    await until(async () => deleteAnswered || (await waitersOn(db, otherChange.pid, 2)) === 2);
    otherChange.release();
    await otherChange.done;
    expect((await updating).status).toBe(200);
    const deleted = await deleting;
    expect(deleted.status).toBe(403);
    expect(deleted.body.error.code).toBe('ERR_ROLE_DELETE_DENIED');
    expect((await api.call('GET', `/roles/${role}`)).status).toBe(200);
    expect((await api.call('GET', `/users/${uid}`)).body.data.role).toBe(role);
  });
});
