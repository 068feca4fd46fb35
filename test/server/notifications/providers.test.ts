import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from '../client-support.js';
import { APP_ONE, ENGINES, createTestStore, textMessage, uniqueId, type TestStore } from '../support.js';
import {
  ManualClock,
  SENDGRID_PROVIDER,
  HostedServices,
  TWILIO_PROVIDER,
  startNotifiedServer,
  type NotifiedServer,
  type StandIn,
} from './support.js';

/**
 * The hosted providers (FCM, APNs, SendGrid, Twilio) configured through CometChat's routes and used
 * through their HTTP APIs. Their services are outside the machine, so local servers stand in for
 * them at the configured base URLs; the tests check the exact requests, the credentials they carry,
 * and what an error answer does (a dead token pruned, a refusal dead-lettered).
 */

const pem = (key: KeyObject): string => key.export({ type: 'pkcs8', format: 'pem' }).toString();

describe.each(ENGINES)('hosted notification providers on %s', (engine) => {
  let store: TestStore;
  let server: NotifiedServer;
  let google: StandIn;
  let apple: StandIn;
  let sendgrid: StandIn;
  let twilio: StandIn;
  let hosted: HostedServices;
  const clock = new ManualClock(Date.now());
  const call: NotifiedServer['api']['call'] = (...args) => server.api.call(...args);
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const serviceAccount = {
    project_id: 'parley-test',
    client_email: 'push@parley-test.iam.gserviceaccount.com',
    private_key: pem(rsa.privateKey),
    private_key_id: 'key-1',
  };
  const apnsConfig = {
    keyId: 'ABCDE12345',
    teamId: 'TEAM123456',
    bundleId: 'com.example.parley',
    p8Key: pem(ec.privateKey),
    includeMutableContent: true,
  };

  beforeAll(async () => {
    store = await createTestStore(engine);
    hosted = await HostedServices.start();
    ({ google, apple, sendgrid, twilio } = hosted);
    google.answer = (hosted) =>
      hosted.path === '/token'
        ? { status: 200, body: { access_token: 'ya29.access', expires_in: 3600, token_type: 'Bearer' } }
        : JSON.parse(hosted.raw).message.token === 'fcm-dead'
          ? {
              status: 404,
              body: { error: { code: 404, status: 'NOT_FOUND', details: [{ errorCode: 'UNREGISTERED' }] } },
            }
          : { status: 200, body: { name: 'projects/parley-test/messages/1' } };
    apple.answer = (hosted) =>
      hosted.path.endsWith('/apns-dead')
        ? { status: 410, body: { reason: 'Unregistered' } }
        : { status: 200 };
    server = await startNotifiedServer(store, {
      clock,
      providerBaseUrls: hosted.baseUrls,
    });
  });
  afterAll(async () => {
    await server?.close();
    await hosted?.close();
    await store?.dispose();
  });

  const createUser = async (): Promise<string> => {
    const uid = uniqueId('user');
    expect((await call('POST', '/users', { body: { uid, name: `Name of ${uid}` } })).status).toBe(200);
    return uid;
  };
  const login = (uid: string): Promise<TestClient> =>
    connectClient(server.api.server, APP_ONE, uid, { socket: false });
  const sendAndDeliver = async (from: string, to: string, text: string): Promise<void> => {
    expect((await call('POST', '/messages', { body: textMessage(to, text), onBehalfOf: from })).status).toBe(
      200,
    );
    await server.engine.idle();
    await server.engine.runDue();
  };
  const tokensOf = async (uid: string): Promise<string[]> =>
    (await call('GET', `/notifications/push/v1/tokens?uid=${uid}`)).body.data.map(
      (t: { token: string }) => t.token,
    );

  describe('FCM', () => {
    beforeAll(async () => {
      const saved = await call('POST', '/notifications/push/v1/providers/fcm', {
        body: {
          providerId: 'default',
          serviceAccountFilename: 'parley-test.json',
          serviceAccountCreds: serviceAccount,
          notificationInPayload: { web: { chat: true, call: false } },
        },
      });
      expect(saved.status).toBe(200);
    });

    it('lists the configuration without the service account credentials', async () => {
      const listed = await call('GET', '/notifications/push/v1/providers/fcm');
      expect(listed.body.data).toEqual([
        expect.objectContaining({
          providerId: 'default',
          isDefault: true,
          serviceAccountFilename: 'parley-test.json',
        }),
      ]);
      expect(JSON.stringify(listed.body)).not.toContain('PRIVATE KEY');
      expect(listed.body.data[0]).not.toHaveProperty('serviceAccountCreds');
    });

    it('gets an access token with a signed assertion and sends each of the recipient’s tokens the notification', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const device = await login(bob);
      const registered = await device.call('POST', '/notifications/push/v1/tokens', {
        platform: 'fcm_web',
        fcmToken: 'fcm-live',
        providerId: 'default',
        timezone: 'Europe/Paris',
      });
      expect(registered.body).toEqual({ data: { success: true } });
      await sendAndDeliver(alice, bob, 'hello over FCM');

      const [tokenCall] = google.callsTo('/token');
      const form = new URLSearchParams(tokenCall?.raw);
      expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
      const { payload, protectedHeader } = await jwtVerify(form.get('assertion') ?? '', rsa.publicKey, {
        issuer: serviceAccount.client_email,
        audience: `${google.url}/token`,
      });
      expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: 'key-1' });
      expect(payload.scope).toBe('https://www.googleapis.com/auth/firebase.messaging');

      const sends = google.callsTo('/v1/projects/parley-test/messages:send');
      expect(sends).toHaveLength(1);
      expect(sends[0]?.headers.authorization).toBe('Bearer ya29.access');
      const { message } = JSON.parse(sends[0]?.raw ?? '{}');
      expect(message.token).toBe('fcm-live');
      expect(message.notification).toEqual({ title: `Name of ${alice}`, body: 'hello over FCM' });
      expect(message.data).toMatchObject({
        title: `Name of ${alice}`,
        body: 'hello over FCM',
        receiver: bob,
      });
      expect(Object.values(message.data).every((value) => typeof value === 'string')).toBe(true);
      // The SDK's registration also carried the device's time zone, which the schedule is read in.
      expect(
        (await call('GET', `/notifications/v1/preferences/timezone?uid=${bob}`)).body.data.timezone,
      ).toBe('Europe/Paris');
    });

    it('prunes a token FCM calls unregistered and keeps the live one', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const device = await login(bob);
      for (const fcmToken of ['fcm-dead', 'fcm-kept'])
        await device.call('POST', '/notifications/push/v1/tokens', { platform: 'fcm_android', fcmToken });
      expect(await tokensOf(bob)).toEqual(expect.arrayContaining(['fcm-dead', 'fcm-kept']));
      await sendAndDeliver(alice, bob, 'is anyone there');
      expect(await tokensOf(bob)).toEqual(['fcm-kept']);
      const delivered = await server.engine.data.outbox.list(APP_ONE.appId, 'delivered', 100);
      expect(delivered.some((row) => row.idempotencyKey.endsWith(`:${bob}`))).toBe(true);
    });
  });

  describe('mutes from the client', () => {
    beforeAll(async () => {
      const saved = await call('POST', '/notifications/push/v1/providers/fcm', {
        body: { serviceAccountCreds: serviceAccount },
      });
      expect(saved.status).toBe(200);
    });

    it('sends no push for a conversation the recipient muted with the SDK route, and pushes again once unmuted', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const device = await login(bob);
      await device.call('POST', '/notifications/push/v1/tokens', {
        platform: 'fcm_web',
        fcmToken: `fcm-${bob}`,
      });
      const sendsToBob = () =>
        google.callsTo('/v1/projects/').filter((c) => JSON.parse(c.raw).message.token === `fcm-${bob}`);
      await device.call('PUT', '/notifications/push/v1/preferences/mute', {
        conversations: [{ id: alice, type: 'oneOnOne' }],
      });
      await sendAndDeliver(alice, bob, 'muted');
      expect(sendsToBob()).toHaveLength(0);
      const logs = await call('GET', `/notifications/v1/logs?uid=${bob}`);
      expect(logs.body.data[0]).toMatchObject({
        notificationTriggered: false,
        reason: expect.stringMatching(/MUTE/),
      });
      await device.call('DELETE', '/notifications/push/v1/preferences/mute', {
        conversations: [{ id: alice, type: 'oneOnOne' }],
      });
      await sendAndDeliver(alice, bob, 'heard');
      expect(sendsToBob()).toHaveLength(1);
    });
  });

  describe('APNs', () => {
    beforeAll(async () => {
      const saved = await call('POST', '/notifications/push/v1/providers/apns', {
        body: { providerId: 'ios', ...apnsConfig },
      });
      expect(saved.status).toBe(200);
    });

    it('lists the configuration without the .p8 key', async () => {
      const listed = await call('GET', '/notifications/push/v1/providers/apns');
      expect(listed.body.data).toEqual([
        expect.objectContaining({ providerId: 'ios', keyId: 'ABCDE12345', isDefault: true }),
      ]);
      expect(JSON.stringify(listed.body)).not.toContain('PRIVATE KEY');
    });

    it('posts over HTTP/2 with an ES256 provider token, the topic and the alert, and prunes a 410 token', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const device = await login(bob);
      for (const deviceToken of ['apns-live', 'apns-dead'])
        await device.call('POST', '/notifications/push/v1/tokens', {
          platform: 'apns_ios_device',
          deviceToken,
          providerId: 'ios',
        });
      await sendAndDeliver(alice, bob, 'hello over APNs');
      const live = apple.callsTo('/3/device/apns-live');
      expect(live).toHaveLength(1);
      const headers = live[0]?.headers ?? {};
      expect(headers['apns-topic']).toBe('com.example.parley');
      expect(headers['apns-push-type']).toBe('alert');
      const jwt = String(headers.authorization).replace(/^bearer /, '');
      const { protectedHeader } = await jwtVerify(jwt, ec.publicKey, { issuer: 'TEAM123456' });
      expect(protectedHeader).toMatchObject({ alg: 'ES256', kid: 'ABCDE12345' });
      expect(JSON.parse(live[0]?.raw ?? '{}').aps).toMatchObject({
        alert: { title: `Name of ${alice}`, body: 'hello over APNs' },
        'mutable-content': 1,
      });
      expect(await tokensOf(bob)).toEqual(['apns-live']);
    });
  });

  describe('SendGrid and Twilio', () => {
    beforeAll(async () => {
      expect(
        (await call('POST', '/notifications/email/v1/providers/sendgrid', { body: SENDGRID_PROVIDER }))
          .status,
      ).toBe(200);
      expect(
        (await call('POST', '/notifications/sms/v1/providers/twilio', { body: TWILIO_PROVIDER })).status,
      ).toBe(200);
      const digest = { intervalInSeconds: 60, notifyForUnreadOnly: false };
      await call('PATCH', '/notifications/v1/settings', {
        body: { preferences: { email: digest, sms: digest } },
      });
      sendgrid.answer = () => ({ status: 202 });
      twilio.answer = () => ({ status: 201, body: { sid: 'SM1' } });
    });

    it('hides the API key and auth token', async () => {
      const answers = [
        await call('GET', '/notifications/email/v1/providers/sendgrid'),
        await call('GET', '/notifications/sms/v1/providers/twilio'),
      ];
      expect(answers[0]?.body.data).toMatchObject({ senderEmail: 'notify@example.com', isEnabled: true });
      expect(JSON.stringify(answers.map((a) => a.body))).not.toMatch(/SG\.secret|twilio-secret/);
    });

    it('mails and texts the stored addresses once the batch interval has passed', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const contact = await call('PATCH', '/notifications/v1/contact-details', {
        body: { email: 'bob@example.com', phno: '+33612345678' },
        onBehalfOf: bob,
      });
      expect(contact.body.data).toEqual({ email: 'bob@example.com', phno: '+33612345678' });
      await sendAndDeliver(alice, bob, 'digest me');
      expect(sendgrid.calls.filter((c) => c.raw.includes('bob@example.com'))).toHaveLength(0);
      clock.advance(61_000);
      await server.engine.runDue();
      await server.engine.runDue();

      const [mail] = sendgrid.callsTo('/v3/mail/send').filter((c) => c.raw.includes('bob@example.com'));
      expect(mail?.headers.authorization).toBe('Bearer SG.secret-api-key');
      const sent = JSON.parse(mail?.raw ?? '{}');
      expect(sent).toMatchObject({
        from: { email: 'notify@example.com', name: 'Parley' },
        template_id: `d-${'0'.repeat(31)}1`,
        asm: { group_id: 4242 },
        personalizations: [{ to: [{ email: 'bob@example.com', name: `Name of ${bob}` }] }],
      });
      expect(sent.personalizations[0].dynamic_template_data.messages).toEqual([
        expect.objectContaining({ message: 'digest me' }),
      ]);

      const [text] = twilio
        .callsTo(`/2010-04-01/Accounts/AC${'a'.repeat(32)}/Messages.json`)
        .filter((c) => c.raw.includes('%2B33612345678'));
      expect(text?.headers.authorization).toBe(
        `Basic ${Buffer.from(`AC${'a'.repeat(32)}:twilio-secret-token`).toString('base64')}`,
      );
      const form = new URLSearchParams(text?.raw);
      expect(form.get('To')).toBe('+33612345678');
      expect(form.get('From')).toBe('+14155550100');
      expect(form.get('Body')).toBe(
        `You've received 1 message(s) from Name of ${alice}! Read them at https://your-website.com.`,
      );
    });

    it('dead-letters at once a mail SendGrid refuses for bad credentials, saying why', async () => {
      sendgrid.answer = () => ({ status: 401, body: { errors: [{ message: 'bad key' }] } });
      const [alice, carol] = [await createUser(), await createUser()];
      await call('PATCH', '/notifications/v1/contact-details', {
        body: { email: 'carol@example.com' },
        onBehalfOf: carol,
      });
      await sendAndDeliver(alice, carol, 'refused');
      clock.advance(61_000);
      await server.engine.runDue();
      await server.engine.runDue();
      const dead = await server.engine.data.outbox.list(APP_ONE.appId, 'dead', 100);
      expect(
        dead.find((row) => row.idempotencyKey.includes(`:${carol}:`) && row.channel === 'email'),
      ).toMatchObject({
        attempts: 1,
        lastError: 'SendGrid answered HTTP 401',
      });
      sendgrid.answer = () => ({ status: 202 });
    });
  });

  describe('bad configurations', () => {
    const refusals = [
      {
        name: 'FCM without credentials',
        path: '/notifications/push/v1/providers/fcm',
        body: {},
        field: 'serviceAccountCreds',
      },
      {
        name: 'FCM with a key that is not RSA',
        path: '/notifications/push/v1/providers/fcm',
        body: { serviceAccountCreds: { ...serviceAccount, private_key: pem(ec.privateKey) } },
        field: 'serviceAccountCreds.private_key',
      },
      {
        name: 'APNs with a malformed key id',
        path: '/notifications/push/v1/providers/apns',
        body: { ...apnsConfig, keyId: 'short' },
        field: 'keyId',
      },
      {
        name: 'APNs with a key that is not a .p8',
        path: '/notifications/push/v1/providers/apns',
        body: { ...apnsConfig, p8Key: 'not a key' },
        field: 'p8Key',
      },
      {
        name: 'SendGrid without a template',
        path: '/notifications/email/v1/providers/sendgrid',
        body: {
          sendGridApiKey: 'k',
          sendGridUnsubscribeGroupID: '1',
          senderName: 'P',
          senderEmail: 'p@example.com',
          allowEmailReplies: false,
        },
        field: 'sendGridTemplateID',
      },
      {
        name: 'Twilio with a malformed account SID',
        path: '/notifications/sms/v1/providers/twilio',
        body: { twilioAccountSID: 'nope', twilioAuthToken: 't', twilioSenderPhoneNumber: '+14155550100' },
        field: 'twilioAccountSID',
      },
      {
        name: 'a providerId with a slash',
        path: '/notifications/push/v1/providers/fcm',
        body: { providerId: 'a/b', serviceAccountCreds: serviceAccount },
        field: 'providerId',
      },
    ];
    it.each(refusals)('refuses $name, naming the field', async ({ path, body, field }) => {
      const response = await call('POST', path, { body });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'ERR_BAD_REQUEST', details: { field } });
    });

    it('refuses a token for a platform no provider kind serves, naming the field', async () => {
      const device = await login(await createUser());
      const response = await device.call('POST', '/notifications/push/v1/tokens', {
        platform: 'pager',
        fcmToken: 'x',
      });
      expect(response.status).toBe(400);
      expect(response.body.error.details).toMatchObject({ field: 'platform' });
    });
  });
});
