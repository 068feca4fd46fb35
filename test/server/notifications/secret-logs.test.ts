import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import webpush from 'web-push';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/index.js';
import { connectClient } from '../client-support.js';
import { APP_ONE, ENGINES, textMessage, uniqueId } from '../support.js';
import {
  ManualClock,
  SENDGRID_PROVIDER,
  TWILIO_PROVIDER,
  deliverPastDigestInterval,
  useNotificationFixture,
} from './support.js';

/**
 * An attacker reading the service's logs learns no provider secret: every kind is configured with
 * its secrets through the routes, and a message to an offline user goes out through each hosted
 * service, every one of which refuses it, so each delivery is dead-lettered and logged with why.
 */
const pem = (key: KeyObject): string => key.export({ type: 'pkcs8', format: 'pem' }).toString();
/** The middle line of a PEM key: its secret bytes, whatever the header says. */
const keyLine = (key: string): string => key.split('\n')[1] ?? key;

describe.each(ENGINES)('provider secrets in the logs on %s', (engine) => {
  const lines: string[] = [];
  const clock = new ManualClock(Date.now());
  const fcmKey = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
  const p8Key = pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  const vapid = webpush.generateVAPIDKeys();
  const SECRETS = {
    basicAuthPassword: 'logged-basic-auth-password',
    signingSecret: 'logged-signing-secret-0123',
    smtpPassword: 'logged-smtp-password',
    accessToken: 'ya29.logged-google-access-token',
  };
  const fixture = useNotificationFixture(engine, {
    smtpAccount: { username: 'mailer', password: 'the-right-password' },
    options: ({ hosted }) => ({
      clock,
      retry: { maxAttempts: 1 },
      providerBaseUrls: hosted.baseUrls,
    }),
    logger: createLogger((line) => lines.push(line)),
  });
  const { call } = fixture;

  beforeAll(async () => {
    const { hosted, receiver, smtp, pushService } = fixture;
    const { google, apple, sendgrid, twilio } = hosted;
    google.answer = (hosted) =>
      hosted.path === '/token'
        ? { status: 200, body: { access_token: SECRETS.accessToken, expires_in: 3600 } }
        : { status: 401, body: { error: { code: 401, status: 'UNAUTHENTICATED' } } };
    apple.answer = () => ({ status: 403, body: { reason: 'InvalidProviderToken' } });
    sendgrid.answer = () => ({ status: 401, body: { errors: [{ message: 'bad key' }] } });
    twilio.answer = () => ({ status: 401, body: { code: 20003, message: 'Authenticate' } });
    expect(
      (await call('PATCH', '/client-settings', { body: { apiActionOrigins: [receiver.url] } })).status,
    ).toBe(200);
    const webhook = {
      isEnabled: false,
      webhookURL: `${receiver.url}/hook`,
      useBasicAuth: true,
      basicAuthUsername: 'parley',
      basicAuthPassword: SECRETS.basicAuthPassword,
      signingSecret: SECRETS.signingSecret,
    };
    const providers: Array<[string, Record<string, unknown>]> = [
      ['push/custom', webhook],
      ['email/custom', { ...webhook, useStoredEmailID: true }],
      ['sms/custom', { ...webhook, useStoredPhNo: true }],
      [
        'push/fcm',
        {
          serviceAccountCreds: {
            project_id: 'logged-project',
            client_email: 'push@logged-project.iam.gserviceaccount.com',
            private_key: fcmKey,
            private_key_id: 'key-1',
          },
        },
      ],
      ['push/apns', { keyId: 'ABCDE12345', teamId: 'TEAM123456', bundleId: 'com.example.logs', p8Key }],
      [
        'push/webpush',
        {
          isEnabled: true,
          vapidSubject: 'mailto:ops@logs.example',
          vapidPrivateKey: vapid.privateKey,
          allowedEndpointOrigins: [pushService.url],
        },
      ],
      ['email/sendgrid', SENDGRID_PROVIDER],
      [
        'email/smtp',
        {
          isEnabled: true,
          host: '127.0.0.1',
          port: smtp.port,
          username: 'mailer',
          password: SECRETS.smtpPassword,
          fromAddress: 'chat@logs.example',
          allowPrivateNetwork: true,
        },
      ],
      ['sms/twilio', TWILIO_PROVIDER],
    ];
    for (const [kind, body] of providers) {
      const [channel, name] = kind.split('/');
      expect((await call('POST', `/notifications/${channel}/v1/providers/${name}`, { body })).status).toBe(
        200,
      );
    }
    const batch = { intervalInSeconds: 60, notifyForUnreadOnly: false };
    await call('PATCH', '/notifications/v1/settings', {
      body: { preferences: { email: batch, sms: batch } },
    });
  });

  it('logs each refused delivery and why, and never a secret of any provider', async () => {
    const { server, hosted, pushService } = fixture;
    const [alice, bob] = [uniqueId('alice'), uniqueId('bob')];
    for (const uid of [alice, bob]) await call('POST', '/users', { body: { uid, name: `Name of ${uid}` } });
    await call('PATCH', '/notifications/v1/contact-details', {
      body: { email: 'bob@logs.example', phno: '+33612345678' },
      onBehalfOf: bob,
    });
    const device = await connectClient(server.api.server, APP_ONE, bob, { socket: false });
    pushService.statusByPath.set(`/push/${bob}`, 500);
    const tokens = [
      { platform: 'fcm_android', fcmToken: 'logged-fcm-token' },
      { platform: 'apns_ios_device', deviceToken: 'logged-apns-token' },
      {
        platform: 'web_push',
        webPushSubscription: JSON.stringify(pushService.subscription(`/push/${bob}`).toJSON()),
      },
    ];
    for (const token of tokens)
      expect((await device.call('POST', '/notifications/push/v1/tokens', token)).status).toBe(200);

    const deliver = async (text: string) => {
      const sent = await call('POST', '/messages', { body: textMessage(bob, text), onBehalfOf: alice });
      expect(sent.status).toBe(200);
      await deliverPastDigestInterval(server.engine, clock);
    };
    await deliver('through SendGrid');
    // E-mail goes through the first enabled kind: with SendGrid off, through SMTP.
    await call('PUT', '/notifications/email/v1/providers/sendgrid', { body: { isEnabled: false } });
    await deliver('through SMTP');

    const { google, apple, sendgrid, twilio } = hosted;
    expect(google.callsTo('/v1/projects/logged-project/messages:send')).toHaveLength(2);
    expect(apple.callsTo('/3/device/logged-apns-token')).toHaveLength(2);
    expect(pushService.pushesTo(`/push/${bob}`)).toHaveLength(2);
    expect(sendgrid.callsTo('/v3/mail/send')).toHaveLength(1);
    expect(twilio.calls.length).toBeGreaterThanOrEqual(1);
    const logged = lines.join('');
    const deadLettered = lines
      .map((line) => JSON.parse(line) as { msg?: string; event?: string; channel?: string })
      .filter((line) => JSON.stringify(line).includes('notification_dead_lettered'));
    expect(new Set(deadLettered.map((line) => line.channel))).toEqual(new Set(['push', 'email', 'sms']));
    expect(logged).toContain('SMTP 535');

    const secrets = [
      ...Object.values(SECRETS),
      keyLine(fcmKey),
      keyLine(p8Key),
      'PRIVATE KEY',
      vapid.privateKey,
      SENDGRID_PROVIDER.sendGridApiKey,
      TWILIO_PROVIDER.twilioAuthToken,
      device.authToken,
    ];
    expect(secrets.filter((secret) => logged.includes(secret))).toEqual([]);
  });
});
