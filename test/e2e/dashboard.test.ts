import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, startChatServer, type ChatServer } from '../../server/index.js';
import { launchChromium } from '../support/browser.js';
import { Receiver } from '../server/notifications/support.js';
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
    expect(await server.services.users.find(APP.appId, 'knowledge')).toMatchObject({ role: 'agent' });
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
});
