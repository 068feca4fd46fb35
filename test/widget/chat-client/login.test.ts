import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatClientError, sessionKey } from '../../../shared/chat-client/index.js';
import { clientOf, closeClients, MemoryStorage } from '../support/client.js';
import { APP_ID, ProtocolFake } from '../support/protocol-fake.js';
import { waitFor } from '../support/wait.js';

let fake: ProtocolFake;
beforeEach(async () => {
  fake = await new ProtocolFake().start();
});
afterEach(async () => {
  await closeClients();
  await fake.stop();
});

const calls = (method: string, path: string) =>
  fake.requests.filter((request) => request.method === method && request.path === path);

describe('logging in', () => {
  it('by UID asks for an auth token with the auth key, then loads the user with it', async () => {
    const client = clientOf(fake);
    const me = await client.login({ uid: 'alice' });
    expect(me).toMatchObject({ uid: 'alice', name: 'Alice Martin' });
    const [issue] = calls('POST', '/v3/users/alice/auth_tokens');
    expect(issue?.headers).toMatchObject({ apikey: 'test-auth-key', appid: APP_ID });
    const [putMe] = calls('PUT', '/v3/me');
    expect(putMe?.headers.authtoken).toBe(me.authToken);
    expect(putMe?.headers.resource).toBe(client.sessionId);
    await client.logout();
  });

  it('keeps the auth token under a namespaced storage key', async () => {
    const storage = new MemoryStorage();
    const client = clientOf(fake, { storage });
    const me = await client.login({ uid: 'alice' });
    expect(JSON.parse(storage.getItem(sessionKey(APP_ID))!)).toEqual({
      uid: 'alice',
      authToken: me.authToken,
    });
    expect(sessionKey(APP_ID)).toBe(`parley:${APP_ID}:session`);
    await client.logout();
  });

  it('reuses the stored token of the same user after a reload instead of issuing a new one', async () => {
    const storage = new MemoryStorage();
    const first = await clientOf(fake, { storage }).login({ uid: 'alice' });
    const reloaded = clientOf(fake, { storage });
    const me = await reloaded.login({ uid: 'alice' });
    expect(me.authToken).toBe(first.authToken);
    expect(calls('POST', '/v3/users/alice/auth_tokens')).toHaveLength(1);
    await reloaded.logout();
  });

  it('falls back to the auth key when the stored token was revoked', async () => {
    const storage = new MemoryStorage();
    storage.setItem(sessionKey(APP_ID), JSON.stringify({ uid: 'alice', authToken: 'revoked' }));
    const client = clientOf(fake, { storage });
    const me = await client.login({ uid: 'alice' });
    expect(me.authToken).not.toBe('revoked');
    await client.logout();
  });

  it('by auth token needs no auth key', async () => {
    const issued = await clientOf(fake).login({ uid: 'bob' });
    const client = clientOf(fake, { authKey: undefined });
    await expect(client.login({ authToken: issued.authToken })).resolves.toMatchObject({ uid: 'bob' });
    await client.logout();
  });

  it('by UID without an auth key fails with a clear error', async () => {
    const client = clientOf(fake, { authKey: undefined });
    await expect(client.login({ uid: 'alice' })).rejects.toThrow('authKey is required to log in by UID');
  });

  it('as an unknown user reports the service error code', async () => {
    const error = await clientOf(fake)
      .login({ uid: 'nobody' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatClientError);
    expect((error as ChatClientError).code).toBe('ERR_UID_NOT_FOUND');
  });

  it('against an unreachable service reports a retryable network error', async () => {
    await fake.stop();
    const error = await clientOf(fake)
      .login({ uid: 'alice' })
      .catch((e: unknown) => e);
    expect((error as ChatClientError).code).toBe('ERR_NETWORK');
    expect((error as ChatClientError).retryable).toBe(true);
  });

  it('opens the socket, authenticated with the JWT of /me', async () => {
    const client = clientOf(fake);
    await client.login({ uid: 'alice' });
    await waitFor(() => client.connection === 'connected', 'the socket');
    expect(fake.connectedUids()).toEqual(['alice']);
    await client.logout();
  });
});

describe('logging out', () => {
  it('ends the session on the service, closes the socket and removes the stored token', async () => {
    const storage = new MemoryStorage();
    const client = clientOf(fake, { storage });
    await client.login({ uid: 'alice' });
    await waitFor(() => client.connection === 'connected', 'the socket');
    await client.logout();
    expect(calls('DELETE', '/v3/me')).toHaveLength(1);
    expect(storage.getItem(sessionKey(APP_ID))).toBeNull();
    expect(client.me).toBeUndefined();
    await waitFor(() => fake.connectedUids().length === 0, 'the socket to close');
  });

  it('ends the session when the service no longer knows the token', async () => {
    const client = clientOf(fake);
    const me = await client.login({ uid: 'alice' });
    const ended = new Promise((resolve) => client.events.on('sessionEnded', resolve));
    await fetch(`${fake.url}/v3/me`, {
      method: 'DELETE',
      headers: { appid: APP_ID, authtoken: me.authToken },
    });
    await expect(client.conversations()).rejects.toMatchObject({ code: 'AUTH_ERR_AUTH_TOKEN_NOT_FOUND' });
    await ended;
    expect(client.me).toBeUndefined();
  });
});
