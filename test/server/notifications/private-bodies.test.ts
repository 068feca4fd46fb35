import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import webpush from 'web-push';
import { beforeAll, describe, expect, it } from 'vitest';
import { WEB_PUSH_KEY_PATH } from '../../../shared/web-push.js';
import { connectClient } from '../client-support.js';
import { APP_ONE, ENGINES, apiFixtures, textMessage, uniqueId } from '../support.js';
import type { BrowserSubscription } from './mail-and-push.js';
import {
  ManualClock,
  SENDGRID_PROVIDER,
  deliverPastDigestInterval,
  TWILIO_PROVIDER,
  useNotificationFixture,
  useWebhook,
} from './support.js';

/**
 * Issue #20: what every provider actually sends — the hosted services' requests (FCM, APNs,
 * SendGrid, Twilio), the custom webhooks, the SMTP mail and the decrypted Web Push — carries no
 * user's `metadata["@private"]`, even with the app including the message object and all metadata.
 * The public metadata beside it still travels where the payload carries metadata. On both engines:
 * the metadata the payloads present is read back from each one's store.
 */
describe.each(ENGINES)('notification bodies and @private metadata on %s', (engine) => {
  let browser: BrowserSubscription;
  let alice: string;
  let bob: string;
  let group: string;
  const clock = new ManualClock(Date.now());
  const fixture = useNotificationFixture(engine, {
    options: ({ hosted }) => ({ clock, providerBaseUrls: hosted.baseUrls }),
  });
  const { call } = fixture;
  const { createUser, createGroup } = apiFixtures(call);
  const markers = { alice: uniqueId('alice-secret'), bob: uniqueId('bob-secret') };
  const publicMark = uniqueId('public-team');
  const bobEmail = `${uniqueId('bob')}@mail.example`;
  const pem = (key: KeyObject): string => key.export({ type: 'pkcs8', format: 'pem' }).toString();
  // Made before any server starts: a 2048-bit RSA key takes seconds on a busy machine, long enough
  // for a kept-alive connection to the server to time out under a request sent right after.
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p8Key = pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  const vapid = webpush.generateVAPIDKeys();

  const expectNoMarker = (where: string, text: string): void => {
    for (const marker of Object.values(markers)) expect(text, where).not.toContain(marker);
  };
  const ok = async (...args: Parameters<typeof call>): Promise<void> => {
    const response = await call(...args);
    expect(response.status, `${args[0]} ${args[1]}: ${JSON.stringify(response.body)}`).toBe(200);
  };
  /** A message to bob and one to the group, every push delivered and every batch mailed and texted. */
  const sendRound = async (text: string): Promise<void> => {
    await ok('POST', '/messages', { body: textMessage(bob, `${text} direct`), onBehalfOf: alice });
    await ok('POST', '/messages', { body: textMessage(group, `${text} group`, 'group'), onBehalfOf: alice });
    await deliverPastDigestInterval(fixture.server.engine, clock);
  };

  beforeAll(async () => {
    const { google, apple, sendgrid, twilio } = fixture.hosted;
    google.answer = (hosted) =>
      hosted.path === '/token'
        ? { status: 200, body: { access_token: 'ya29.access', expires_in: 3600, token_type: 'Bearer' } }
        : { status: 200, body: { name: 'projects/parley-test/messages/1' } };
    apple.answer = () => ({ status: 200 });
    sendgrid.answer = () => ({ status: 202 });
    twilio.answer = () => ({ status: 201, body: { sid: 'SM1' } });

    const metadata = (marker: string) => ({ '@private': { secret: marker }, public: { team: publicMark } });
    alice = await createUser('alice', { metadata: metadata(markers.alice) });
    bob = await createUser('bob', { metadata: metadata(markers.bob) });
    group = await createGroup(alice, [bob]);
    await ok('PATCH', `/notifications/v1/contact-details?uid=${bob}`, {
      body: { email: bobEmail, phno: '+33612345678' },
    });
    const everything = {
      includeMessageObjectSetting: true,
      includeSenderMetadataSetting: true,
      includeReceiverMetadataSetting: true,
      includeMessageMetadataSetting: true,
    };
    const digest = {
      ...everything,
      intervalInSeconds: 60,
      notifyForUnreadOnly: false,
      maxPerDayPerConversation: 10,
    };
    await ok('PATCH', '/notifications/v1/settings', {
      body: { preferences: { push: everything, email: digest, sms: digest } },
    });

    await ok('POST', '/notifications/push/v1/providers/fcm', {
      body: {
        serviceAccountCreds: {
          project_id: 'parley-test',
          client_email: 'push@parley-test.iam.gserviceaccount.com',
          private_key: pem(rsa.privateKey),
          private_key_id: 'key-1',
        },
      },
    });
    await ok('POST', '/notifications/push/v1/providers/apns', {
      body: {
        keyId: 'ABCDE12345',
        teamId: 'TEAM123456',
        bundleId: 'com.example.parley',
        p8Key,
        includeMutableContent: true,
      },
    });
    await ok('POST', '/notifications/push/v1/providers/webpush', {
      body: {
        isEnabled: true,
        vapidSubject: 'mailto:ops@parley.example',
        vapidPrivateKey: vapid.privateKey,
        allowedEndpointOrigins: [fixture.pushService.url],
      },
    });

    const device = await connectClient(fixture.server.api.server, APP_ONE, bob, { socket: false });
    expect((await device.call('GET', WEB_PUSH_KEY_PATH)).body.data.publicKey).toBe(vapid.publicKey);
    browser = fixture.pushService.subscription(`/push/${bob}`);
    for (const token of [
      { platform: 'fcm_web', fcmToken: 'fcm-bob' },
      { platform: 'apns_ios_device', deviceToken: 'apns-bob' },
      { platform: 'web_push', webPushSubscription: JSON.stringify(browser.toJSON()) },
    ])
      expect((await device.call('POST', '/notifications/push/v1/tokens', token)).status).toBe(200);
  });

  it('leaves it out of what FCM, APNs, Web Push, SendGrid and Twilio receive', async () => {
    const { hosted, pushService } = fixture;
    const { google, apple, sendgrid, twilio } = hosted;
    await ok('POST', '/notifications/email/v1/providers/sendgrid', { body: SENDGRID_PROVIDER });
    await ok('POST', '/notifications/sms/v1/providers/twilio', { body: TWILIO_PROVIDER });
    await sendRound('hosted');
    const pushes = await pushService.waitForPushes(`/push/${bob}`, 2);
    const sent = {
      fcm: google.callsTo('/v1/projects/'),
      apns: apple.callsTo('/3/device/apns-bob'),
      sendgrid: sendgrid.callsTo('/v3/mail/send'),
      twilio: twilio.callsTo('/2010-04-01/'),
    };
    for (const [provider, calls] of Object.entries(sent)) {
      expect(calls, provider).toHaveLength(2);
      for (const hosted of calls) expectNoMarker(provider, hosted.raw + JSON.stringify(hosted.headers));
    }
    const decrypted = pushes.map((push) => browser.decrypt(push.body));
    for (const text of decrypted) expectNoMarker('web push', text);
    // The included metadata still travels, less its private part.
    for (const text of [
      ...sent.fcm.map((c) => c.raw),
      ...sent.apns.map((c) => c.raw),
      ...sent.sendgrid.map((c) => c.raw),
    ])
      expect(text).toContain(publicMark);
    await ok('DELETE', '/notifications/email/v1/providers/sendgrid');
    await ok('DELETE', '/notifications/sms/v1/providers/twilio');
  });

  it('leaves it out of what the custom push, e-mail and SMS webhooks receive', async () => {
    const { receiver } = fixture;
    for (const channel of ['push', 'email', 'sms'] as const)
      expect((await useWebhook(call, channel, `${receiver.url}/${channel}`)).status).toBe(200);
    await sendRound('webhooks');
    for (const channel of ['push', 'email', 'sms'] as const) {
      const calls = await receiver.waitForCalls(`/${channel}`, 2);
      for (const received of calls) {
        expectNoMarker(`${channel} webhook`, received.raw + JSON.stringify(received.headers));
        expect(received.raw, `${channel} webhook`).toContain(publicMark);
      }
    }
    for (const channel of ['push', 'email', 'sms'] as const)
      await ok('DELETE', `/notifications/${channel}/v1/providers/custom`);
  });

  it('leaves it out of the mail sent over SMTP', async () => {
    await ok('POST', '/notifications/email/v1/providers/smtp', {
      body: {
        isEnabled: true,
        host: '127.0.0.1',
        port: fixture.smtp.port,
        fromAddress: 'chat@parley.example',
        allowPrivateNetwork: true,
      },
    });
    await sendRound('smtp');
    const mails = await fixture.smtp.waitForMails(2);
    for (const { parsed } of mails)
      expectNoMarker(
        'smtp',
        [parsed.subject, parsed.text, parsed.html, JSON.stringify([...parsed.headers])].join('\n'),
      );
  });
});
