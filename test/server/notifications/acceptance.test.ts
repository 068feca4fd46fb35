import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from '../client-support.js';
import { APP_ONE, ENGINES, apiFixtures, createTestStore, textMessage, type TestStore } from '../support.js';
import { PushServiceStandIn, SmtpSink, type BrowserSubscription } from './mail-and-push.js';
import { ManualClock, startNotifiedServer, type NotifiedServer } from './support.js';

/**
 * Issue #20's acceptance, end to end through the real server: a message to an offline user who has
 * a push token (FCM), an e-mail address and a browser subscribed to Web Push produces exactly one
 * push and one Web Push at once and exactly one e-mail once the batch interval has passed (the
 * engine's clock moved by hand), each with the app's rendered templates; a muted conversation
 * produces none; a do-not-disturb schedule defers them: each goes out once when it ends, unless
 * the message was read in the meantime.
 */

/** Stands in for Google: the OAuth token endpoint and FCM's `messages:send`, recording each message. */
class FcmStandIn {
  readonly messages: Array<{ token: string; data: Record<string, string> }> = [];
  url = '';
  private readonly server: Server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      if (request.url === '/token') {
        response.end(JSON.stringify({ access_token: 'stand-in-access-token', expires_in: 3600 }));
        return;
      }
      const { message } = JSON.parse(raw) as { message: { token: string; data: Record<string, string> } };
      this.messages.push(message);
      response.end(JSON.stringify({ name: `projects/parley-test/messages/${this.messages.length}` }));
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  to(token: string): Array<{ token: string; data: Record<string, string> }> {
    return this.messages.filter((message) => message.token === token);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const serviceAccount = {
  project_id: 'parley-test',
  client_email: 'notifier@parley-test.iam.gserviceaccount.com',
  private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string,
  private_key_id: 'key-1',
};
describe.each(ENGINES)('notifications that reach people, on %s', (engine) => {
  let store: TestStore;
  let server: NotifiedServer;
  let smtp: SmtpSink;
  let pushService: PushServiceStandIn;
  let google: FcmStandIn;
  const clock = new ManualClock();
  const vapid = webpush.generateVAPIDKeys();
  const INTERVAL_MS = 300_000;
  const call: NotifiedServer['api']['call'] = (...args) => server.api.call(...args);
  const { createUser } = apiFixtures(call);

  beforeAll(async () => {
    store = await createTestStore(engine);
    smtp = await SmtpSink.start();
    pushService = await PushServiceStandIn.start();
    google = await new FcmStandIn().start();
    server = await startNotifiedServer(store, {
      clock,
      providerBaseUrls: { fcm: google.url, googleOAuth: google.url },
    });
    const providers = [
      ['/notifications/push/v1/providers/fcm', { serviceAccountCreds: serviceAccount }],
      [
        '/notifications/email/v1/providers/smtp',
        {
          isEnabled: true,
          host: '127.0.0.1',
          port: smtp.port,
          fromAddress: 'chat@parley.example',
          allowPrivateNetwork: true,
        },
      ],
      [
        '/notifications/push/v1/providers/webpush',
        {
          isEnabled: true,
          vapidSubject: 'mailto:ops@parley.example',
          vapidPrivateKey: vapid.privateKey,
          allowedEndpointOrigins: [pushService.url],
        },
      ],
    ] as const;
    for (const [path, body] of providers) expect((await call('POST', path, { body })).status).toBe(200);
    const settings = await call('PATCH', '/notifications/v1/settings', {
      body: {
        preferences: { email: { intervalInSeconds: INTERVAL_MS / 1000 } },
        templates: {
          textMessageTemplateDefault: {
            titleOneOnOne: '{{senderDetails.name}} wrote',
            titleGroup: '{{senderDetails.name}} in {{groupDetails.name}}',
            body: '“{{message.data.text}}”',
          },
          emailSubjectTemplateDefault: {
            subjectOneOnOne: 'Unread from {{senderDetails.name}}',
            subjectGroup: 'Unread in {{groupDetails.name}}',
          },
        },
      },
    });
    expect(settings.status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
    await pushService?.close();
    await google?.close();
    await store?.dispose();
  });

  /** A user with an FCM token, an e-mail address and a browser subscribed to Web Push; offline. */
  const reachableUser = async (): Promise<{
    uid: string;
    address: string;
    fcmToken: string;
    browser: BrowserSubscription;
  }> => {
    const uid = await createUser();
    const address = `${uid}@mail.example`;
    await call('PATCH', `/notifications/v1/contact-details?uid=${uid}`, { body: { email: address } });
    const client = await connectClient(server.api.server, APP_ONE, uid, { socket: false });
    const browser = pushService.subscription(`/push/${uid}`);
    const registered = await client.call('POST', '/notifications/push/v1/tokens', {
      platform: 'web_push',
      webPushSubscription: JSON.stringify(browser.toJSON()),
    });
    expect(registered.status).toBe(200);
    const fcmToken = `fcm-token-of-${uid}`;
    const phone = await client.call('POST', '/notifications/push/v1/tokens', {
      platform: 'fcm_android',
      fcmToken,
    });
    expect(phone.status).toBe(200);
    return { uid, address, fcmToken, browser };
  };
  const send = async (sender: string, receiver: string, text: string): Promise<void> => {
    expect(
      (await call('POST', '/messages', { body: textMessage(receiver, text), onBehalfOf: sender })).status,
    ).toBe(200);
  };
  /** Decides what happened, then lets the worker run now and once more after the interval. */
  const runThroughInterval = async (): Promise<void> => {
    await server.engine.idle();
    await server.engine.runDue();
    clock.advance(INTERVAL_MS);
    await server.engine.runDue();
  };
  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.envelopeTo.includes(address));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- log entries are read as JSON
  const logsOf = async (uid: string): Promise<any[]> =>
    (await call('GET', `/notifications/v1/logs?uid=${uid}`)).body.data;

  it('sends exactly one Web Push at once and one e-mail after the interval, each rendered from the templates', async () => {
    const alice = await createUser();
    const bob = await reachableUser();
    await send(alice, bob.uid, 'Dinner at 8?');
    await server.engine.idle();
    await server.engine.runDue();
    const [push] = await pushService.waitForPushes(`/push/${bob.uid}`, 1);
    expect(JSON.parse(bob.browser.decrypt(push!.body))).toMatchObject({
      title: `Name of ${alice} wrote`,
      body: '“Dinner at 8?”',
    });
    await expect.poll(() => google.to(bob.fcmToken).length, { timeout: 15_000 }).toBe(1);
    expect(google.to(bob.fcmToken)[0]?.data).toMatchObject({
      title: `Name of ${alice} wrote`,
      body: '“Dinner at 8?”',
    });
    expect(mailsTo(bob.address)).toHaveLength(0);

    clock.advance(INTERVAL_MS);
    await server.engine.runDue();
    await expect.poll(() => mailsTo(bob.address).length, { timeout: 15_000 }).toBe(1);
    const [mail] = mailsTo(bob.address);
    expect(mail?.parsed.subject).toBe(`Unread from Name of ${alice}`);
    expect(mail?.parsed.text).toBe(`Name of ${alice}: “Dinner at 8?”\n`);

    clock.advance(INTERVAL_MS);
    await server.engine.runDue();
    expect(pushService.pushesTo(`/push/${bob.uid}`)).toHaveLength(1);
    expect(google.to(bob.fcmToken)).toHaveLength(1);
    expect(mailsTo(bob.address)).toHaveLength(1);
  });

  it('sends nothing for a muted conversation', async () => {
    const alice = await createUser();
    const bob = await reachableUser();
    const muted = await call('PUT', `/notifications/v1/preferences/mute?uid=${bob.uid}`, {
      body: { conversations: [{ id: alice, type: 'oneOnOne' }] },
    });
    expect(muted.status).toBe(200);
    await send(alice, bob.uid, 'muted news');
    await runThroughInterval();
    expect(pushService.pushesTo(`/push/${bob.uid}`)).toHaveLength(0);
    expect(google.to(bob.fcmToken)).toHaveLength(0);
    expect(mailsTo(bob.address)).toHaveLength(0);
    expect(await logsOf(bob.uid)).toEqual([expect.objectContaining({ reason: 'MUTE_PREFERENCE' })]);
  });

  it('defers notifications decided in a do-not-disturb schedule to its end, once each, unless read by then', async () => {
    const [alice, carol] = [await createUser(), await createUser()];
    const bob = await reachableUser();
    await call('PATCH', `/notifications/v1/preferences?uid=${bob.uid}`, {
      body: {
        usePrivacyTemplate: false,
        mutePreferences: { schedule: { monday: { from: 900, to: 1700, dnd: true } } },
      },
    });
    clock.set('2026-01-12T12:00:00Z'); // a Monday, inside the schedule (UTC)
    await send(alice, bob.uid, 'during the meeting');
    await send(carol, bob.uid, 'read before the meeting ends');
    await runThroughInterval(); // the e-mail interval ends inside the schedule too
    expect(pushService.pushesTo(`/push/${bob.uid}`)).toHaveLength(0);
    expect(google.to(bob.fcmToken)).toHaveLength(0);
    expect(mailsTo(bob.address)).toHaveLength(0);
    const read = await call('POST', `/users/${carol}/conversation/read`, { body: {}, onBehalfOf: bob.uid });
    expect(read.status).toBe(200);

    clock.set('2026-01-12T17:00:59Z'); // 17:00 is the schedule's last minute
    await server.engine.runDue();
    expect(pushService.pushesTo(`/push/${bob.uid}`)).toHaveLength(0);
    expect(mailsTo(bob.address)).toHaveLength(0);

    clock.set('2026-01-12T17:01:00Z');
    await server.engine.runDue();
    const [push] = await pushService.waitForPushes(`/push/${bob.uid}`, 1);
    expect(JSON.parse(bob.browser.decrypt(push!.body))).toMatchObject({ body: '“during the meeting”' });
    await expect.poll(() => google.to(bob.fcmToken).length, { timeout: 15_000 }).toBe(1);
    expect(google.to(bob.fcmToken)[0]?.data).toMatchObject({ body: '“during the meeting”' });
    await expect.poll(() => mailsTo(bob.address).length, { timeout: 15_000 }).toBe(1);
    expect(mailsTo(bob.address)[0]?.parsed.text).toBe(`Name of ${alice}: “during the meeting”\n`);

    await runThroughInterval();
    expect(pushService.pushesTo(`/push/${bob.uid}`)).toHaveLength(1);
    expect(google.to(bob.fcmToken)).toHaveLength(1);
    expect(mailsTo(bob.address)).toHaveLength(1);
    const logs = await logsOf(bob.uid);
    expect(logs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          sender: carol,
          channel: 'push',
          delivery: expect.objectContaining({ status: 'dropped', lastError: 'MESSAGES_READ' }),
        }),
        expect.objectContaining({ sender: carol, channel: 'email', reason: 'MESSAGES_READ' }),
      ]),
    );
  });
});
