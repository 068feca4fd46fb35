import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatClientError, sessionKey } from '../../../shared/chat-client/index.js';
import { ChatService, APP_ID } from '../support/chat-service.js';
import { clientOf, closeClients, MemoryStorage, Wire } from '../support/client.js';
import { waitFor } from '../support/wait.js';

let service: ChatService;
let wire: Wire;
beforeEach(async () => {
  service = await ChatService.start();
  wire = new Wire();
});
afterEach(async () => {
  await closeClients();
  await service.close();
});

describe('logging in', () => {
  it('by UID asks for an auth token with the auth key, then loads the user with it', async () => {
    const client = clientOf(service, {}, wire);
    const me = await client.login({ uid: 'alice' });
    expect(me).toMatchObject({ uid: 'alice', name: 'Alice Martin' });
    const [issue] = wire.calls('POST', '/v3/users/alice/auth_tokens');
    expect(issue?.headers).toMatchObject({ apikey: 'test-auth-key', appid: APP_ID });
    const [putMe] = wire.calls('PUT', '/v3/me');
    expect(putMe?.headers.authtoken).toBe(me.authToken);
    expect(putMe?.headers.resource).toBe(client.sessionId);
  });

  it('keeps the auth token under a namespaced storage key', async () => {
    const storage = new MemoryStorage();
    const me = await clientOf(service, { storage }).login({ uid: 'alice' });
    expect(JSON.parse(storage.getItem(sessionKey(APP_ID))!)).toEqual({
      uid: 'alice',
      authToken: me.authToken,
    });
    expect(sessionKey(APP_ID)).toBe(`parley:${APP_ID}:session`);
  });

  it('reuses the stored token of the same user after a reload instead of issuing a new one', async () => {
    const storage = new MemoryStorage();
    const first = await clientOf(service, { storage }, wire).login({ uid: 'alice' });
    const me = await clientOf(service, { storage }, wire).login({ uid: 'alice' });
    expect(me.authToken).toBe(first.authToken);
    expect(wire.calls('POST', '/v3/users/alice/auth_tokens')).toHaveLength(1);
  });

  it('falls back to the auth key when the stored token was revoked', async () => {
    const storage = new MemoryStorage();
    storage.setItem(sessionKey(APP_ID), JSON.stringify({ uid: 'alice', authToken: 'revoked' }));
    const me = await clientOf(service, { storage }).login({ uid: 'alice' });
    expect(me.authToken).not.toBe('revoked');
  });

  it('by auth token needs no auth key', async () => {
    const issued = await service.admin.createAuthToken('bob');
    const client = clientOf(service, { authKey: undefined });
    await expect(client.login({ authToken: issued.authToken })).resolves.toMatchObject({ uid: 'bob' });
  });

  it('by UID without an auth key fails with a clear error', async () => {
    const client = clientOf(service, { authKey: undefined });
    await expect(client.login({ uid: 'alice' })).rejects.toThrow('authKey is required to log in by UID');
  });

  it('as an unknown user reports the service error code', async () => {
    const error = await clientOf(service)
      .login({ uid: 'nobody' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatClientError);
    expect((error as ChatClientError).code).toBe('ERR_UID_NOT_FOUND');
  });

  it('against an unreachable service reports a retryable network error', async () => {
    await service.stop();
    const error = await clientOf(service)
      .login({ uid: 'alice' })
      .catch((e: unknown) => e);
    expect((error as ChatClientError).code).toBe('ERR_NETWORK');
    expect((error as ChatClientError).retryable).toBe(true);
  });

  it('opens the socket, authenticated with the JWT of /me', async () => {
    const client = clientOf(service, {}, wire);
    const me = await client.login({ uid: 'alice' });
    await waitFor(() => client.connection === 'connected', 'the socket');
    expect(wire.frames[0]).toMatchObject({
      type: 'auth',
      sender: 'alice',
      body: { auth: me.jwt, deviceId: client.sessionId },
    });
  });
});

describe('logging out', () => {
  it('ends the session on the service, closes the socket and removes the stored token', async () => {
    const storage = new MemoryStorage();
    const client = clientOf(service, { storage }, wire);
    const me = await client.login({ uid: 'alice' });
    await waitFor(() => client.connection === 'connected', 'the socket');
    await client.logout();
    expect(wire.calls('DELETE', '/v3/me')).toHaveLength(1);
    expect(storage.getItem(sessionKey(APP_ID))).toBeNull();
    expect(client.me).toBeUndefined();
    expect(client.connection).toBe('stopped');
    await expect(
      clientOf(service, { authKey: undefined }).login({ authToken: me.authToken }),
    ).rejects.toMatchObject({
      code: 'AUTH_ERR_AUTH_TOKEN_NOT_FOUND',
    });
  });

  it('ends the session when the service no longer knows the token', async () => {
    const client = clientOf(service);
    const me = await client.login({ uid: 'alice' });
    const ended = new Promise((resolve) => client.events.on('sessionEnded', resolve));
    await service.admin.deleteAuthToken('alice', me.authToken);
    await expect(client.conversations()).rejects.toMatchObject({ code: 'AUTH_ERR_AUTH_TOKEN_NOT_FOUND' });
    await ended;
    expect(client.me).toBeUndefined();
  });
});
