import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from './client-support.js';
import { APP_ONE, createTestStore, startTestServer, type TestServer, type TestStore } from './support.js';

/** `GET /v3/users` filtered by role and status: on the server API as CometChat documents it, on the client API as the SDK asks. */
describe('the users list', () => {
  let store: TestStore;
  let api: TestServer;
  const uidsOf = async (query: string): Promise<string[]> => {
    const response = await api.call('GET', `/users?${query}`);
    expect(response.status).toBe(200);
    return (response.body.data as { uid: string }[]).map((user) => user.uid).sort();
  };

  beforeAll(async () => {
    store = await createTestStore('sqlite');
    api = await startTestServer(store);
    for (const role of ['admin', 'moderator', 'guest']) {
      expect((await api.call('POST', '/roles', { body: { role, name: role } })).status).toBe(200);
    }
    for (const [uid, role] of [
      ['ada', 'admin'],
      ['max', 'moderator'],
      ['gus', 'guest'],
      ['dot', undefined],
    ] as const) {
      await api.call('POST', '/users', { body: { uid, name: uid, ...(role === undefined ? {} : { role }) } });
    }
  });
  afterAll(async () => {
    await api?.close();
    await store?.dispose();
  });

  it('lists only users with one of the roles given as repeated roles parameters', async () => {
    expect(await uidsOf('roles=admin&roles=moderator')).toEqual(['ada', 'max']);
  });

  it('accepts roles as a comma-separated list and as roles[]', async () => {
    expect(await uidsOf('roles=admin,guest')).toEqual(['ada', 'gus']);
    expect(await uidsOf('roles[]=moderator&roles[]=default')).toEqual(['dot', 'max']);
  });

  it('lists only users with the single role given as role', async () => {
    expect(await uidsOf('role=guest')).toEqual(['gus']);
  });

  it('counts only the matching users in the pagination', async () => {
    const response = await api.call('GET', '/users?roles=admin&roles=guest&perPage=1');
    expect(response.body.meta.pagination).toMatchObject({ total: 2, count: 1, total_pages: 2 });
  });

  it('refuses an empty role name, naming where in roles it is', async () => {
    const response = await api.call('GET', '/users?roles=admin,');
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('roles.1: must not be empty');
  });

  it('takes status=online, the SDK word, as available', async () => {
    await api.server.core.users.setStatus(APP_ONE.appId, 'max', 'available');
    expect(await uidsOf('status=online')).toEqual(['max']);
    expect(await uidsOf('status=offline')).toEqual(['ada', 'dot', 'gus']);
  });

  it('refuses any other status, naming the words it takes', async () => {
    const response = await api.call('GET', '/users?status=busy');
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.error)).toContain('must be available (or online) or offline');
  });

  it('filters the client API list by roles too, as the SDK sends them (comma-separated)', async () => {
    const ada = await connectClient(api.server, APP_ONE, 'ada', { socket: false });
    const listed = await ada.call('GET', '/users?per_page=30&page=1&roles=moderator,guest');
    expect(listed.status).toBe(200);
    expect((listed.body.data as { uid: string }[]).map((user) => user.uid).sort()).toEqual(['gus', 'max']);
  });
});
