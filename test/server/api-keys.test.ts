import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connectClient } from './client-support.js';
import { APP_ONE, APP_TWO, ENGINES, callServerApi, useTestServer } from './support.js';

/** `/apikeys` as a REST client calls it: keys stored as hashes, scopes enforced, revocation at once. */
describe.each(ENGINES)('API keys on %s', (engine) => {
  const api = useTestServer(engine);
  const withKey = (apikey: string) => (method: string, path: string, body?: unknown) =>
    api.call(method, path, { apikey, ...(body === undefined ? {} : { body }) });

  const create = async (name: string, scope?: string) => {
    const created = await api.call('POST', '/apikeys', { body: { name, ...(scope ? { scope } : {}) } });
    expect(created.status).toBe(200);
    return created.body.data as { apiKey: string; name: string; scope: string; createdAt: number };
  };

  it('answers a new key once, in full, and lists it by its id only', async () => {
    const key = await create('Reporting job', 'fullAccess');
    expect(key).toMatchObject({ name: 'Reporting job', scope: 'fullAccess' });
    expect(key.apiKey).toMatch(/^[0-9a-f]{40}$/);
    expect((await withKey(key.apiKey)('GET', '/users')).status).toBe(200);
    const listed = await api.call('GET', '/apikeys?searchKey=reporting');
    expect(listed.body.data).toHaveLength(1);
    const id = listed.body.data[0].apiKey as string;
    expect(id).toMatch(/^[0-9a-f]{12}$/);
    expect(JSON.stringify(listed.body)).not.toContain(key.apiKey);
    const byKey = await api.call('GET', `/apikeys/${key.apiKey}`);
    const byId = await api.call('GET', `/apikeys/${id}`);
    expect(byKey.body.data).toEqual(byId.body.data);
    expect(byId.body.data).toEqual({
      apiKey: id,
      name: 'Reporting job',
      scope: 'fullAccess',
      createdAt: key.createdAt,
    });
  });

  it('keeps no key in the clear in the store', async () => {
    const key = await create('Stored hashed', 'fullAccess');
    const rows = await sql<Record<string, unknown>>`select * from app_keys`.execute(api.server.core.store.db);
    const stored = JSON.stringify(rows.rows);
    for (const secret of [key.apiKey, APP_ONE.apiKey, APP_ONE.authKey, APP_TWO.apiKey]) {
      expect(stored).not.toContain(secret);
    }
  });

  it('refuses a revoked key on the very next request', async () => {
    const key = await create('Leaked', 'fullAccess');
    const attacker = withKey(key.apiKey);
    expect((await attacker('GET', '/users')).status).toBe(200);
    const revoked = await api.call('DELETE', `/apikeys/${key.apiKey}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.success).toBe(true);
    const refused = await attacker('GET', '/users');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('AUTH_ERR_APIKEY_NOT_FOUND');
    expect((await attacker('POST', '/apikeys', { name: 'Back door', scope: 'fullAccess' })).status).toBe(401);
  });

  it('lets an authOnly key log users in and nothing else, until it is given fullAccess', async () => {
    const key = await create('Widget');
    expect(key.scope).toBe('authOnly');
    await api.call('POST', '/users', { body: { uid: 'widget-visitor', name: 'Widget visitor' } });
    const login = await callServerApi(api.url, APP_ONE, 'POST', '/users/widget-visitor/auth_tokens', {
      apikey: key.apiKey,
      body: {},
      headers: { resource: 'widget' },
    });
    expect(login.status).toBe(200);
    expect(login.body.data.authToken).toEqual(expect.any(String));
    const refused = await withKey(key.apiKey)('GET', '/apikeys');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('AUTH_ERR_NO_ACCESS');
    const widened = await api.call('PUT', `/apikeys/${key.apiKey}`, { body: { scope: 'fullAccess' } });
    expect(widened.body.data.scope).toBe('fullAccess');
    expect((await withKey(key.apiKey)('GET', '/apikeys')).status).toBe(200);
    const narrowed = await api.call('PUT', `/apikeys/${key.apiKey}`, {
      body: { scope: 'authOnly', name: 'Widget only' },
    });
    expect(narrowed.body.data).toMatchObject({ scope: 'authOnly', name: 'Widget only' });
    expect((await withKey(key.apiKey)('GET', '/users')).status).toBe(403);
  });

  it("shows and revokes only the caller app's keys", async () => {
    const key = await create('App one only', 'fullAccess');
    const asOther = (method: string, path: string) => callServerApi(api.url, APP_TWO, method, path);
    const others = await asOther('GET', '/apikeys');
    expect(others.status).toBe(200);
    expect(JSON.stringify(others.body)).not.toContain('App one only');
    const revoke = await asOther('DELETE', `/apikeys/${key.apiKey}`);
    expect(revoke.status).toBe(404);
    expect(revoke.body.error.code).toBe('ERR_APIKEY_NOT_FOUND');
    expect(JSON.stringify(revoke.body)).not.toContain(key.apiKey);
    expect((await withKey(key.apiKey)('GET', '/users')).status).toBe(200);
    const crossApp = await callServerApi(api.url, APP_ONE, 'GET', '/apikeys', { apikey: APP_TWO.apiKey });
    expect(crossApp.status).toBe(401);
  });

  it('is not part of the client API', async () => {
    const client = await connectClient(api.server, APP_ONE, 'key-reader', { socket: false }).catch(
      async () => {
        await api.call('POST', '/users', { body: { uid: 'key-reader', name: 'Key reader' } });
        return connectClient(api.server, APP_ONE, 'key-reader', { socket: false });
      },
    );
    const listed = await client.call('GET', '/apikeys');
    expect(listed.status).toBe(404);
    expect(listed.body.error.code).toBe('ERR_API_NOT_FOUND');
  });

  it("refuses to revoke or narrow the app's last fullAccess key", async () => {
    const only = await callServerApi(api.url, APP_TWO, 'GET', '/apikeys?scope=fullAccess');
    expect(only.body.data).toHaveLength(1);
    const id = only.body.data[0].apiKey as string;
    for (const [method, body] of [
      ['DELETE', undefined],
      ['PUT', { scope: 'authOnly' }],
    ] as const) {
      const refused = await callServerApi(api.url, APP_TWO, method, `/apikeys/${id}`, { body });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('ERR_LAST_FULL_ACCESS_KEY');
    }
    expect((await callServerApi(api.url, APP_TWO, 'GET', '/apikeys')).status).toBe(200);
  });

  it.each([
    ['POST', '/apikeys', {}, 'name'],
    ['POST', '/apikeys', { name: '' }, 'name'],
    ['POST', '/apikeys', { name: 'x'.repeat(101) }, 'name'],
    ['POST', '/apikeys', { name: 'k', scope: 'admin' }, 'scope'],
    ['POST', '/apikeys', { name: 42 }, 'name'],
    ['PUT', '/apikeys/{id}', {}, 'name'],
    ['PUT', '/apikeys/{id}', { scope: 'everything' }, 'scope'],
    ['GET', '/apikeys?scope=root', undefined, 'scope'],
  ])('answers %s %s with %j by a 400 naming %s', async (method, path, body, field) => {
    const key = await create(`Fuzz ${field}`);
    const answer = await api.call(
      method,
      path.replace('{id}', key.apiKey),
      body === undefined ? {} : { body },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.field).toBe(field);
  });

  it.each(['nothing-here', '0123456789ab', '%00', 'a'.repeat(500)])(
    'answers the unknown key %s by a 404',
    async (id) => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const answer = await api.call(method, `/apikeys/${encodeURIComponent(id)}`, {
          ...(method === 'PUT' ? { body: { name: 'n' } } : {}),
        });
        expect(answer.status).toBe(404);
        expect(answer.body.error.code).toBe('ERR_APIKEY_NOT_FOUND');
      }
    },
  );
});
