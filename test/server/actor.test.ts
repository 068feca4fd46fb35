import { describe, expect, it } from 'vitest';
import { connectClient } from './client-support.js';
import { APP_ONE, useTestServer } from './support.js';

/**
 * The one `/v3` tree serves both APIs; the caller's credentials decide which one it speaks to.
 * These pin down who reaches what when a route exists for only one of them.
 */
describe('one route tree for the server and client APIs', () => {
  const api = useTestServer('sqlite');

  it("answers a client's call to a server-only route as a route that does not exist, changing nothing", async () => {
    await api.call('POST', '/users', { body: { uid: 'kept', name: 'Kept' } });
    await api.call('POST', '/users', { body: { uid: 'alice-tree', name: 'Alice' } });
    const alice = await connectClient(api.server, APP_ONE, 'alice-tree', { socket: false });
    const refused = await alice.call('DELETE', '/users/kept');
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('ERR_API_NOT_FOUND');
    expect((await api.call('GET', '/users/kept')).status).toBe(200);
  });

  it("answers the server's call to a client-only route as a route that does not exist", async () => {
    const refused = await api.call('GET', '/me', { onBehalfOf: 'kept' });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('ERR_API_NOT_FOUND');
  });

  it('refuses an authOnly key on the server API', async () => {
    const refused = await api.call('GET', '/users', { apikey: APP_ONE.authKey });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('AUTH_ERR_NO_ACCESS');
  });

  it('creates a user on login only for an authOnly key: with a fullAccess key the path issues tokens to existing users', async () => {
    await api.call('PATCH', '/client-settings', { body: { createUsersOnLogin: true } });
    const byServer = await api.call('POST', '/users/newcomer/auth_tokens', { body: {} });
    expect(byServer.status).toBe(404);
    expect(byServer.body.error.code).toBe('ERR_UID_NOT_FOUND');
    const byClient = await api.call('POST', '/users/newcomer/auth_tokens', {
      apikey: APP_ONE.authKey,
      body: {},
    });
    expect(byClient.status).toBe(200);
    expect(byClient.body.data).toMatchObject({ uid: 'newcomer' });
    expect(typeof byClient.body.data.authToken).toBe('string');
  });
});

describe('one rate limit for both APIs', () => {
  const api = useTestServer('sqlite', { rateLimits: { corePerMinute: 100, standardPerMinute: 3 } });

  it("counts an app's client calls and server calls against the same limit", async () => {
    await api.server.core.users.create(APP_ONE.appId, { uid: 'alice-limit', name: 'Alice' });
    // The login and the `PUT /me` that follows it are the first two calls.
    const alice = await connectClient(api.server, APP_ONE, 'alice-limit', { socket: false });
    expect((await api.call('GET', '/users')).status).toBe(200);
    const refused = await alice.call('GET', '/users');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('ERR_TOO_MANY_REQUESTS');
  });
});
