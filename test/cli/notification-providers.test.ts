import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnChatServer } from '../support/chat-server-process.js';
import { connectClient } from '../server/client-support.js';
import { APP_ONE, callServerApi, textMessage, type CallOptions } from '../server/support.js';
import { StandIn } from '../server/notifications/support.js';
import { parleyCommand } from '../support/built.js';

/**
 * The hosted notification services' base URLs as the operator gives them to `parley chat-server`:
 * `--fcm-url` and `--fcm-oauth-url` as flags, APNs through `PARLEY_APNS_URL`. Local servers stand
 * in for Google and Apple there; a message to an offline user with a token of each reaches each
 * stand-in with the exact request, through the real CLI process.
 */

const pem = (key: KeyObject): string => key.export({ type: 'pkcs8', format: 'pem' }).toString();

describe('parley chat-server with --fcm-url, --fcm-oauth-url and PARLEY_APNS_URL', () => {
  let dataDir: string;
  let url: string;
  let stop: () => Promise<void>;
  let fcm: StandIn;
  let oauth: StandIn;
  let apns: StandIn;
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const serviceAccount = {
    project_id: 'parley-cli',
    client_email: 'push@parley-cli.iam.gserviceaccount.com',
    private_key: pem(rsa.privateKey),
    private_key_id: 'key-1',
  };

  beforeAll(async () => {
    [fcm, oauth, apns] = await Promise.all([StandIn.start(), StandIn.start(), StandIn.start(true)]);
    oauth.answer = () => ({
      status: 200,
      body: { access_token: 'ya29.cli', expires_in: 3600, token_type: 'Bearer' },
    });
    fcm.answer = () => ({ status: 200, body: { name: 'projects/parley-cli/messages/1' } });
    dataDir = mkdtempSync(join(tmpdir(), 'parley-cli-providers-'));
    const { child, listening } = spawnChatServer({
      command: await parleyCommand(),
      dataDir,
      app: APP_ONE,
      args: ['--rate-limit', 'off', '--fcm-url', fcm.url, '--fcm-oauth-url', oauth.url],
      env: { PARLEY_APNS_URL: apns.url },
    });
    stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    };
    url = await listening;
  });
  afterAll(async () => {
    await stop?.();
    await Promise.all([fcm, oauth, apns].map((standIn) => standIn?.close()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (method: string, path: string, options?: CallOptions) =>
    callServerApi(url, APP_ONE, method, path, options);

  it('sends an offline user’s FCM and APNs tokens their pushes at the base URLs it was started with', async () => {
    for (const uid of ['alice', 'bob'])
      expect((await call('POST', '/users', { body: { uid, name: `Name of ${uid}` } })).status).toBe(200);
    const fcmSaved = await call('POST', '/notifications/push/v1/providers/fcm', {
      body: { serviceAccountCreds: serviceAccount },
    });
    expect(fcmSaved.status).toBe(200);
    const apnsSaved = await call('POST', '/notifications/push/v1/providers/apns', {
      body: {
        keyId: 'ABCDE12345',
        teamId: 'TEAM123456',
        bundleId: 'com.example.cli',
        p8Key: pem(ec.privateKey),
      },
    });
    expect(apnsSaved.status).toBe(200);
    const device = await connectClient({ url }, APP_ONE, 'bob', { socket: false });
    for (const token of [
      { platform: 'fcm_android', fcmToken: 'fcm-bob' },
      { platform: 'apns_ios_device', deviceToken: 'apns-bob' },
    ])
      expect((await device.call('POST', '/notifications/push/v1/tokens', token)).body).toEqual({
        data: { success: true },
      });

    const sent = await call('POST', '/messages', {
      body: textMessage('bob', 'over the flags'),
      onBehalfOf: 'alice',
    });
    expect(sent.status).toBe(200);

    await expect.poll(() => fcm.calls.length + apns.calls.length, { timeout: 30_000, interval: 50 }).toBe(2);
    const [tokenCall] = oauth.callsTo('/token');
    const form = new URLSearchParams(tokenCall?.raw);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    await jwtVerify(form.get('assertion') ?? '', rsa.publicKey, {
      issuer: serviceAccount.client_email,
      audience: `${oauth.url}/token`,
    });
    const [send] = fcm.calls;
    expect(send?.path).toBe('/v1/projects/parley-cli/messages:send');
    expect(send?.headers.authorization).toBe('Bearer ya29.cli');
    const { message } = JSON.parse(send?.raw ?? '{}');
    expect(message.token).toBe('fcm-bob');
    expect(message.data).toMatchObject({ title: 'Name of alice', body: 'over the flags', receiver: 'bob' });

    const [push] = apns.calls;
    expect(push?.path).toBe('/3/device/apns-bob');
    expect(push?.headers['apns-topic']).toBe('com.example.cli');
    const jwt = String(push?.headers.authorization).replace(/^bearer /, '');
    await jwtVerify(jwt, ec.publicKey, { issuer: 'TEAM123456' });
    expect(JSON.parse(push?.raw ?? '{}').aps.alert).toEqual({
      title: 'Name of alice',
      body: 'over the flags',
    });
  });
});
