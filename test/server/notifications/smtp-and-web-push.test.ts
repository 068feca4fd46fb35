import webpush from 'web-push';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WEB_PUSH_KEY_PATH } from '../../../shared/web-push.js';
import { createLogger } from '../../../server/index.js';
import { NotificationEngine, notificationDataOf } from '../../../server/notifications/index.js';
import { connectClient } from '../client-support.js';
import {
  APP_ONE,
  APP_TWO,
  ENGINES,
  apiFixtures,
  createTestStore,
  textMessage,
  type TestStore,
} from '../support.js';
import { PushServiceStandIn, SmtpSink, verifyVapid, type BrowserSubscription } from './mail-and-push.js';
import { ManualClock, startNotifiedServer, type NotifiedServer } from './support.js';

/**
 * Parley's own providers inside the real chat server: e-mail batches over SMTP to a real SMTP
 * server, and Web Push to a stand-in push service that decrypts what it receives, with the
 * engine's clock moved by hand for the batch interval.
 */
describe.each(ENGINES)('SMTP and Web Push providers on %s', (engine) => {
  let store: TestStore;
  let server: NotifiedServer;
  let smtp: SmtpSink;
  let pushService: PushServiceStandIn;
  const clock = new ManualClock();
  const online = new Set<string>();
  const vapid = webpush.generateVAPIDKeys();
  const call: NotifiedServer['api']['call'] = (...args) => server.api.call(...args);

  const smtpConfig = () => ({
    isEnabled: true,
    host: '127.0.0.1',
    port: smtp.port,
    username: 'mailer',
    password: 'smtp-password-123',
    fromAddress: 'chat@parley.example',
    fromName: 'Parley',
    allowPrivateNetwork: true,
  });
  const webPushConfig = () => ({
    isEnabled: true,
    vapidSubject: 'mailto:ops@parley.example',
    vapidPrivateKey: vapid.privateKey,
    allowedEndpointOrigins: [pushService.url],
  });

  beforeAll(async () => {
    store = await createTestStore(engine);
    smtp = await SmtpSink.start({ username: 'mailer', password: 'smtp-password-123' });
    pushService = await PushServiceStandIn.start();
    server = await startNotifiedServer(store, {
      clock,
      presence: { isOnline: (_appId, uid) => online.has(uid) },
    });
    expect(
      (await call('POST', '/notifications/email/v1/providers/smtp', { body: smtpConfig() })).status,
    ).toBe(200);
    expect(
      (await call('POST', '/notifications/push/v1/providers/webpush', { body: webPushConfig() })).status,
    ).toBe(200);
  });
  afterEach(async () => {
    await call('DELETE', '/notifications/v1/settings');
    online.clear();
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
    await pushService?.close();
    await store?.dispose();
  });

  const { createUser, sendMessage } = apiFixtures(call);
  const send = async (sender: string, body: unknown) => (await sendMessage(sender, body)).id;
  const settle = async (): Promise<void> => {
    await server.engine.idle();
    await server.engine.runDue();
  };
  const withEmail = async (uid: string): Promise<string> => {
    const email = `${uid}@mail.example`;
    const response = await call('PATCH', `/notifications/v1/contact-details?uid=${uid}`, { body: { email } });
    expect(response.status).toBe(200);
    return email;
  };
  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.envelopeTo.includes(address));
  const patchSettings = async (body: unknown): Promise<void> => {
    expect((await call('PATCH', '/notifications/v1/settings', { body })).status).toBe(200);
  };
  const digestRules = (rules: Record<string, unknown>) => patchSettings({ preferences: { email: rules } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- log entries are read as JSON
  const logsOf = async (uid: string, query = ''): Promise<any[]> =>
    (await call('GET', `/notifications/v1/logs?uid=${uid}${query}`)).body.data;

  describe('e-mail over SMTP', () => {
    it('mails one batch per conversation once the interval has passed, with the rendered subject and lines', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const address = await withEmail(bob);
      await digestRules({ intervalInSeconds: 600 });
      for (const text of ['one', 'two']) await send(alice, textMessage(bob, text));
      await settle();
      clock.advance(599_000);
      await server.engine.runDue();
      expect(mailsTo(address)).toHaveLength(0);
      clock.advance(1_000);
      await server.engine.runDue();
      await expect.poll(() => mailsTo(address).length, { timeout: 15_000 }).toBe(1);
      const [mail] = mailsTo(address);
      expect(mail?.parsed.subject).toBe(`New messages from Name of ${alice}`);
      expect(mail?.parsed.text).toBe(`Name of ${alice}: one\nName of ${alice}: two\n`);
      expect(mail?.parsed.to).toMatchObject({ value: [{ address, name: `Name of ${bob}` }] });
      expect(mail?.parsed.from?.value).toEqual([{ address: 'chat@parley.example', name: 'Parley' }]);
      expect(smtp.logins.at(-1)).toBe('mailer:smtp-password-123');
    });

    it('uses the privacy templates for the subject and the lines when the app says so', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const address = await withEmail(bob);
      await patchSettings({
        preferences: { email: { intervalInSeconds: 60 } },
        templates: {
          usePrivacyTemplate: 2,
          emailSubjectTemplatePrivacy: {
            subjectOneOnOne: 'You have new messages',
            subjectGroup: 'New group messages',
          },
        },
      });
      await send(alice, textMessage(bob, 'the launch code is 1234'));
      await settle();
      clock.advance(60_000);
      await server.engine.runDue();
      await expect.poll(() => mailsTo(address).length, { timeout: 15_000 }).toBe(1);
      const [mail] = mailsTo(address);
      expect(mail?.parsed.subject).toBe('You have new messages');
      expect(mail?.parsed.text).toBe(`Name of ${alice}: New message\n`);
      expect(mail?.parsed.text).not.toContain('1234');
    });

    it('leaves read messages out with notifyForUnreadOnly', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const address = await withEmail(bob);
      await digestRules({ intervalInSeconds: 60, notifyForUnreadOnly: true });
      const seen = await send(alice, textMessage(bob, 'seen'));
      await send(alice, textMessage(bob, 'unseen'));
      await settle();
      const read = await call('POST', `/users/${alice}/conversation/read`, {
        body: { messageId: seen },
        onBehalfOf: bob,
      });
      expect(read.status).toBe(200);
      clock.advance(60_000);
      await server.engine.runDue();
      await expect.poll(() => mailsTo(address).length, { timeout: 15_000 }).toBe(1);
      expect(mailsTo(address)[0]?.parsed.text).toBe(`Name of ${alice}: unseen\n`);
    });

    it('stops at maxPerDayPerConversation and maxPerDay, and logs why', async () => {
      const bob = await createUser();
      const address = await withEmail(bob);
      const [alice, carol] = [await createUser(), await createUser()];
      await digestRules({ intervalInSeconds: 60, maxPerDayPerConversation: 1, maxPerDay: 2 });
      for (const [sender, text] of [
        [alice, 'a1'],
        [alice, 'a2'],
        [carol, 'c1'],
        [await createUser(), 'd1'],
      ] as const) {
        await send(sender, textMessage(bob, text));
        await settle();
        clock.advance(60_000);
        await server.engine.runDue();
      }
      await expect.poll(() => mailsTo(address).length, { timeout: 15_000 }).toBe(2);
      expect(mailsTo(address).map((mail) => mail.parsed.text)).toEqual([
        `Name of ${alice}: a1\n`,
        `Name of ${carol}: c1\n`,
      ]);
      const quota = (await logsOf(bob, '&channel=email')).filter((log) => log.reason === 'QUOTA_PREFERENCE');
      expect(quota).toHaveLength(2);
    });

    it('mails nobody without a stored address, and records why the delivery failed', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      await digestRules({ intervalInSeconds: 60 });
      const before = smtp.mails.length;
      await send(alice, textMessage(bob, 'anyone there?'));
      await settle();
      clock.advance(60_000);
      await server.engine.runDue();
      const outbox = await server.api.server.core.store.db
        .withTables<{ notification_outbox: { channel: string; status: string; last_error: string | null } }>()
        .selectFrom('notification_outbox')
        .select(['status', 'last_error'])
        .where('channel', '=', 'email')
        .where('last_error', 'like', '%no stored e-mail address%')
        .execute();
      expect(outbox).toEqual([{ status: 'dead', last_error: 'the recipient has no stored e-mail address' }]);
      expect(smtp.mails).toHaveLength(before);
    });
  });

  describe('a refused SMTP login', () => {
    it('dead-letters the batch and logs the SMTP status, never the password or the message', async () => {
      const lines: string[] = [];
      const worker = new NotificationEngine(
        server.api.server.core,
        createLogger((line) => lines.push(line)),
        {
          clock,
          pollIntervalMs: false,
        },
      );
      const wrong = await call('PUT', '/notifications/email/v1/providers/smtp', {
        body: { password: 'wrong-password-456' },
      });
      expect(wrong.status).toBe(200);
      try {
        const [alice, bob] = [await createUser(), await createUser()];
        await withEmail(bob);
        await digestRules({ intervalInSeconds: 60 });
        await send(alice, textMessage(bob, 'private words'));
        await server.engine.idle();
        clock.advance(60_000);
        await worker.runDue();
        const logged = lines.join('');
        expect(logged).toContain('SMTP 535');
        expect(logged).not.toContain('wrong-password-456');
        expect(logged).not.toContain('private words');
      } finally {
        await call('PUT', '/notifications/email/v1/providers/smtp', {
          body: { password: 'smtp-password-123' },
        });
      }
    });
  });

  describe('the SMTP provider routes', () => {
    it('never answers the password', async () => {
      const response = await call('GET', '/notifications/email/v1/providers/smtp');
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ host: '127.0.0.1', username: 'mailer' });
      expect(JSON.stringify(response.body)).not.toContain('smtp-password-123');
    });

    it('refuses a configuration without a sender address, naming the field', async () => {
      const { fromAddress: _left, ...rest } = smtpConfig();
      const response = await call('POST', '/notifications/email/v1/providers/smtp', { body: rest });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body.error)).toContain('fromAddress');
    });

    it.each(['[::1]', 'no such host!', 'mailer:secret@smtp.example.com'])(
      'refuses %s as the host, naming the field',
      async (host) => {
        const response = await call('POST', '/notifications/email/v1/providers/smtp', {
          body: { ...smtpConfig(), host },
        });
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ code: 'ERR_BAD_REQUEST', details: { field: 'host' } });
      },
    );

    it('keeps what an update does not name, the password included', async () => {
      expect(
        (await call('PUT', '/notifications/email/v1/providers/smtp', { body: { fromName: 'Parley Chat' } }))
          .status,
      ).toBe(200);
      const { body } = await call('GET', '/notifications/email/v1/providers/smtp');
      expect(body.data).toMatchObject({ fromName: 'Parley Chat', port: smtp.port, username: 'mailer' });
      const [alice, bob] = [await createUser(), await createUser()];
      const address = await withEmail(bob);
      await digestRules({ intervalInSeconds: 60 });
      await send(alice, textMessage(bob, 'still works'));
      await settle();
      clock.advance(60_000);
      await server.engine.runDue();
      await expect.poll(() => mailsTo(address).length, { timeout: 15_000 }).toBe(1);
      expect(mailsTo(address)[0]?.parsed.from?.value[0]?.name).toBe('Parley Chat');
    });

    it("is not another app's", async () => {
      const response = await call('GET', '/notifications/email/v1/providers/smtp', {
        apikey: APP_TWO.apiKey,
        appId: APP_TWO.appId,
      });
      expect(response.body.data).toEqual({});
    });
  });

  describe('Web Push', () => {
    /** Logs `uid` in over the client API and registers a browser subscription as the session's token. */
    const subscribe = async (uid: string, path: string): Promise<BrowserSubscription> => {
      const client = await connectClient(server.api.server, APP_ONE, uid, { socket: false });
      const key = await client.call('GET', WEB_PUSH_KEY_PATH);
      expect(key.body.data.publicKey).toBe(vapid.publicKey);
      const browser = pushService.subscription(path);
      const response = await client.call('POST', '/notifications/push/v1/tokens', {
        platform: 'web_push',
        timezone: 'Europe/Berlin',
        webPushSubscription: JSON.stringify(browser.toJSON()),
      });
      expect(response.status).toBe(200);
      return browser;
    };
    const tokensOf = (uid: string) =>
      notificationDataOf(server.api.server.core).pushTokens.list(APP_ONE.appId, uid);

    it('pushes the rendered notification, encrypted for the browser and signed with the app key', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const browser = await subscribe(bob, `/push/${bob}`);
      await send(alice, textMessage(bob, 'see you at 8'));
      await settle();
      const [push] = await pushService.waitForPushes(`/push/${bob}`, 1);
      const message = JSON.parse(browser.decrypt(push!.body));
      expect(message).toMatchObject({
        title: `Name of ${alice}`,
        body: 'see you at 8',
        conversationId: [alice, bob].sort().join('_user_'),
        sender: alice,
        receiver: bob,
        type: 'chat',
      });
      expect((await verifyVapid(push!, pushService.url)).publicKey).toBe(vapid.publicKey);
    });

    it('pushes nothing to a user who is online', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      await subscribe(bob, `/push/${bob}`);
      online.add(bob);
      await send(alice, textMessage(bob, 'you are here'));
      await settle();
      expect(pushService.pushesTo(`/push/${bob}`)).toHaveLength(0);
    });

    it.each([404, 410])('drops a subscription the push service answers %i to', async (status) => {
      const [alice, bob] = [await createUser(), await createUser()];
      await subscribe(bob, `/push/${bob}`);
      pushService.statusByPath.set(`/push/${bob}`, status);
      expect(await tokensOf(bob)).toHaveLength(1);
      await send(alice, textMessage(bob, 'hello?'));
      await settle();
      await pushService.waitForPushes(`/push/${bob}`, 1);
      await expect.poll(() => tokensOf(bob), { timeout: 15_000 }).toEqual([]);
    });

    it('never calls an endpoint on a private network the provider does not allow, and drops it', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const client = await connectClient(server.api.server, APP_ONE, bob, { socket: false });
      const inner = { ...pushService.subscription('/inner').toJSON(), endpoint: 'http://127.0.0.2:9/inner' };
      await client.call('POST', '/notifications/push/v1/tokens', {
        platform: 'web_push',
        webPushSubscription: JSON.stringify(inner),
      });
      await send(alice, textMessage(bob, 'hello?'));
      await settle();
      await expect.poll(() => tokensOf(bob), { timeout: 15_000 }).toEqual([]);
      expect(pushService.pushesTo('/inner')).toHaveLength(0);
    });

    it('keeps a subscription whose host is not found for now, and tries again later', async () => {
      const [alice, bob] = [await createUser(), await createUser()];
      const client = await connectClient(server.api.server, APP_ONE, bob, { socket: false });
      const lost = { ...pushService.subscription('/lost').toJSON(), endpoint: 'https://push.invalid/lost' };
      await client.call('POST', '/notifications/push/v1/tokens', {
        platform: 'web_push',
        webPushSubscription: JSON.stringify(lost),
      });
      await send(alice, textMessage(bob, 'hello?'));
      await settle();
      expect(await tokensOf(bob)).toHaveLength(1);
      const [pending] = await server.api.server.core.store.db
        .withTables<{ notification_outbox: { channel: string; status: string; last_error: string | null } }>()
        .selectFrom('notification_outbox')
        .select(['status', 'last_error'])
        .where('last_error', 'like', '%push.invalid%')
        .execute();
      expect(pending).toEqual({ status: 'pending', last_error: 'host not found: push.invalid' });
    });

    it('refuses a token that is not a browser subscription, naming the field', async () => {
      const bob = await createUser();
      const client = await connectClient(server.api.server, APP_ONE, bob, { socket: false });
      for (const token of ['not json', JSON.stringify({ endpoint: 'https://push.example/1' })]) {
        const response = await client.call('POST', '/notifications/push/v1/tokens', {
          platform: 'web_push',
          webPushSubscription: token,
        });
        expect(response.status).toBe(400);
        expect(JSON.stringify(response.body.error)).toContain('webPushSubscription');
      }
      expect(await tokensOf(bob)).toEqual([]);
    });

    it('gives the VAPID public key only to logged-in users, and never the private key', async () => {
      const anonymous = await fetch(`${server.api.url}/v3${WEB_PUSH_KEY_PATH}`, {
        headers: { appid: APP_ONE.appId },
      });
      expect(anonymous.status).toBe(401);
      const provider = await call('GET', '/notifications/push/v1/providers/webpush');
      expect(JSON.stringify(provider.body)).not.toContain(vapid.privateKey);
    });

    it('refuses a VAPID key that is not a P-256 private key, naming the field', async () => {
      const response = await call('PUT', '/notifications/push/v1/providers/webpush', {
        body: { vapidPrivateKey: 'bm90LWEta2V5' },
      });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body.error)).toContain('vapidPrivateKey');
    });
  });
});
