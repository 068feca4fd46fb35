import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, startChatServer, type ChatServer } from '../../server/index.js';
import webpush from 'web-push';
import { launchChromium } from '../support/browser.js';
import { PROVIDER_KINDS } from '../../server/notifications/index.js';
import { Receiver, SENDGRID_PROVIDER, TWILIO_PROVIDER } from '../server/notifications/support.js';
import { callServerApi } from '../server/support.js';

const APP = { appId: 'dash-app', apiKey: 'dash-full-key', authKey: 'dash-auth-key' };

describe('the /dashboard page', () => {
  let dataDir: string;
  let server: ChatServer;
  let browser: Browser;
  let page: Page;
  let receiver: Receiver;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'parley-dashboard-'));
    server = await startChatServer({ port: 0, dataDir, app: APP, rateLimits: false, logger: silentLogger });
    browser = await launchChromium({ ignoreCertificateErrors: true, resolveAllHostsToLoopback: true });
    receiver = await Receiver.start();
    page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${server.url}/dashboard`);
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is served under a strict content security policy', async () => {
    const response = await fetch(`${server.url}/dashboard`);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('refuses to enter with a key that is not the app’s fullAccess key', async () => {
    await page.getByLabel('App ID').fill(APP.appId);
    await page.getByLabel('REST API key (fullAccess)').fill(APP.authKey);
    await page.getByRole('button', { name: 'Enter' }).click();
    await page.getByRole('status').filter({ hasText: 'fullAccess' }).waitFor();
    expect(await page.locator('#agents').isHidden()).toBe(true);
  });

  it('registers an agent, which then appears in the list and as a chat user', async () => {
    await page.getByLabel('REST API key (fullAccess)').fill(APP.apiKey);
    await page.getByRole('button', { name: 'Enter' }).click();
    await page.locator('#agents').waitFor();
    await page.getByLabel('Deployment URL').fill('http://127.0.0.1:4111/api/agents/knowledge/generate');
    await page.getByLabel('Namespace').fill('handbook');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.locator('#agents tbody tr', { hasText: 'knowledge' }).waitFor();
    const [agent] = await server.agents.registry.list(APP.appId);
    expect(agent).toMatchObject({
      agentId: 'knowledge',
      name: 'Knowledge',
      namespace: 'handbook',
      enabled: true,
    });
    expect(await server.core.users.find(APP.appId, 'knowledge')).toMatchObject({ role: 'agent' });
  });

  it('disables an agent from its row', async () => {
    await page.locator('#agents tbody tr', { hasText: 'knowledge' }).getByLabel('enabled').uncheck();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await server.agents.registry.get(APP.appId, 'knowledge')).enabled).toBe(false);
  });

  it('takes a conversation over from the agent and gives it back', async () => {
    await page.locator('#takeover').getByLabel('Conversation ID').fill('group_support');
    await page.getByRole('button', { name: 'Take over' }).click();
    const row = page.locator('#takeovers tbody tr', { hasText: 'group_support' });
    await row.waitFor();
    expect(await server.agents.takeovers.get(APP.appId, 'knowledge', 'group_support')).toMatchObject({
      takenOver: true,
    });
    await row.getByRole('button', { name: 'Give back to agent' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await server.agents.takeovers.get(APP.appId, 'knowledge', 'group_support')).takenOver).toBe(
      false,
    );
  });
  it('saves a notification provider from the dashboard and never shows its password', async () => {
    const rest = (method: string, path: string, body: unknown) =>
      callServerApi(server.url, { apiKey: APP.apiKey }, method, path, { body });
    await rest('PATCH', '/client-settings', { apiActionOrigins: [receiver.url] });
    await rest('POST', '/users', { uid: 'nora', name: 'Nora' });
    const section = page.locator('#notifications');
    await section.getByLabel('Configuration (JSON)').fill(
      JSON.stringify({
        isEnabled: true,
        webhookURL: `${receiver.url}/push`,
        useBasicAuth: true,
        basicAuthUsername: 'parley',
        basicAuthPassword: 'dashboard-secret-password',
      }),
    );
    await section.getByRole('button', { name: 'Save provider' }).click();
    await page.locator('#providers tbody tr', { hasText: `${receiver.url}/push` }).waitFor();
    expect(await page.content()).not.toContain('dashboard-secret-password');
  });

  it('sends a test push from its button and shows in the delivery log how it went', async () => {
    const section = page.locator('#notifications');
    await section.getByLabel('To user (UID)').fill('nora');
    await section.getByRole('button', { name: 'Test push' }).click();
    const [push] = await receiver.waitForCalls('/push', 1);
    expect(push?.headers.authorization).toBe(
      `Basic ${Buffer.from('parley:dashboard-secret-password').toString('base64')}`,
    );
    expect(push?.body.data).toMatchObject({
      to: { uid: 'nora' },
      notificationDetails: { title: 'Test notification' },
    });
    await section.getByLabel('User (UID)', { exact: true }).fill('nora');
    const row = page.locator('#deliveries tbody tr', { hasText: 'delivered' });
    await expect
      .poll(async () => {
        await section.getByRole('button', { name: 'Show log' }).click();
        return row.count();
      })
      .toBe(1);
    expect(await row.textContent()).toContain('test');
  });

  it('lists a provider of every kind after a reload, and none of their secrets reaches the page', async () => {
    const rest = (method: string, path: string, body: unknown) =>
      callServerApi(server.url, { apiKey: APP.apiKey }, method, path, { body });
    const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();
    const fcmKey = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    const p8Key = pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    const vapid = webpush.generateVAPIDKeys();
    const webhook = {
      isEnabled: true,
      webhookURL: `${receiver.url}/hook`,
      useBasicAuth: true,
      basicAuthUsername: 'parley',
      basicAuthPassword: 'every-kind-basic-password',
      signingSecret: 'every-kind-signing-secret',
    };
    const configs: Record<string, unknown> = {
      'push/custom': webhook,
      'email/custom': { ...webhook, useStoredEmailID: true },
      'sms/custom': { ...webhook, useStoredPhNo: true },
      'push/fcm': {
        serviceAccountCreds: {
          project_id: 'dash-test',
          client_email: 'push@dash-test.iam.gserviceaccount.com',
          private_key: fcmKey,
          private_key_id: 'key-1',
        },
      },
      'push/apns': { keyId: 'ABCDE12345', teamId: 'TEAM123456', bundleId: 'com.example.dash', p8Key },
      'email/sendgrid': SENDGRID_PROVIDER,
      'sms/twilio': TWILIO_PROVIDER,
      'email/smtp': {
        isEnabled: true,
        host: '127.0.0.1',
        port: 2525,
        username: 'mailer',
        password: 'every-kind-smtp-password',
        fromAddress: 'chat@dash.example',
        allowPrivateNetwork: true,
      },
      'push/webpush': {
        isEnabled: true,
        vapidSubject: 'mailto:ops@dash.example',
        vapidPrivateKey: vapid.privateKey,
      },
    };
    const kinds = PROVIDER_KINDS.map((kind) => `${kind.channel}/${kind.name}`);
    expect(Object.keys(configs).sort()).toEqual([...kinds].sort());
    await rest('PATCH', '/client-settings', { apiActionOrigins: [receiver.url] });
    for (const [kind, config] of Object.entries(configs)) {
      const [channel, name] = kind.split('/');
      const saved = await rest('POST', `/notifications/${channel}/v1/providers/${name}`, config);
      expect(saved.status, kind).toBe(200);
    }
    const secrets = [
      'every-kind-basic-password',
      'every-kind-signing-secret',
      fcmKey.split('\n')[1] ?? fcmKey,
      p8Key.split('\n')[1] ?? p8Key,
      'PRIVATE KEY',
      SENDGRID_PROVIDER.sendGridApiKey,
      TWILIO_PROVIDER.twilioAuthToken,
      'every-kind-smtp-password',
      vapid.privateKey,
    ];
    const answering: Array<Promise<string>> = [];
    page.on('response', (response) => {
      if (response.url().includes('/v3/')) answering.push(response.text());
    });
    await page.reload();
    await page.getByLabel('App ID').fill(APP.appId);
    await page.getByLabel('REST API key (fullAccess)').fill(APP.apiKey);
    await page.getByRole('button', { name: 'Enter' }).click();
    const rows = page.locator('#providers tbody tr');
    await expect.poll(() => rows.count()).toBe(kinds.length);
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => `${tr.children[0]?.textContent}/${tr.children[1]?.textContent}`),
    );
    expect(shown.sort()).toEqual([...kinds].sort());
    expect(await page.getByLabel('Channel and provider').locator('option').allTextContents()).toEqual(
      kinds.map((kind) => kind.replace('/', ': ')),
    );
    const answers = await Promise.all(answering);
    const seen = [await page.content(), ...answers].join('\n');
    expect(answers.length).toBeGreaterThan(0);
    expect(secrets.filter((secret) => seen.includes(secret))).toEqual([]);
  });

  it('lists flagged messages with the reason and remark', async () => {
    const call = (method: string, path: string, body: unknown, onBehalfOf?: string) =>
      fetch(`${server.url}/v3${path}`, {
        method,
        headers: {
          appId: APP.appId,
          apikey: APP.apiKey,
          'content-type': 'application/json',
          ...(onBehalfOf === undefined ? {} : { onBehalfOf }),
        },
        body: JSON.stringify(body),
      }).then((response) => response.json() as Promise<{ data: { id: string } }>);
    await call('POST', '/users', { uid: 'flag-sender', name: 'Sender' });
    await call('POST', '/users', { uid: 'flag-reader', name: 'Reader' });
    const sent = await call(
      'POST',
      '/messages',
      {
        receiver: 'flag-reader',
        receiverType: 'user',
        category: 'message',
        type: 'text',
        data: { text: 'buy now' },
      },
      'flag-sender',
    );
    await call(
      'POST',
      `/messages/${sent.data.id}/flagged`,
      { reasonId: 'spam', remark: 'advert' },
      'flag-reader',
    );
    await page.getByRole('button', { name: 'Enter' }).click();
    const row = page.locator('#flagged tbody tr', { hasText: 'buy now' });
    await row.waitFor();
    expect(await row.locator('td').allTextContents()).toEqual([
      sent.data.id,
      'flag-sender',
      'buy now',
      'flag-reader',
      'Spam',
      'advert',
    ]);
  });
});
