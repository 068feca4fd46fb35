import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { NamespaceList } from '../../shared/agent.js';
import { launchChromium } from '../support/browser.js';
import { postJson, startTestAgent, type TestAgent } from '../knowledge/server/support.js';
import { rawRequest } from './agent-support.js';
import { parleyCommand } from '../support/built.js';

/**
 * The attack of issue #18, defect 1, by DNS rebinding: the attacker's name resolves to 127.0.0.1,
 * so the browser sends the agent requests with `Host: evil.example:<port>` and a matching `Origin`
 * it considers same-origin. The agent must serve nothing to such a Host, and never grant CORS.
 */
describe('the knowledge agent serves only host names of this machine', () => {
  let agent: TestAgent | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  const withDocs = async (env: Record<string, string> = {}) => {
    const started = await startTestAgent({ env });
    const seeded = await postJson(
      `${started.apiUrl}/tools/ingestSources`,
      { namespace: 'docs', texts: [{ text: 'Budget notes.' }] },
      env.AGENT_API_KEY ? { authorization: `Bearer ${env.AGENT_API_KEY}` } : {},
    );
    expect(seeded.status).toBe(200);
    agent = started;
    return started;
  };
  const port = () => new URL(agent!.apiUrl).port;
  const namespaces = async () =>
    NamespaceList.parse(await (await fetch(`${agent!.apiUrl}/namespaces`)).json()).namespaces.map(
      (summary) => summary.name,
    );

  it('refuses a foreign Host with a matching Origin on reads, deletes and preflights, without CORS headers', async () => {
    await withDocs();
    const foreign = { host: `evil.example:${port()}`, origin: `http://evil.example:${port()}` };
    const list = await rawRequest(`${agent!.apiUrl}/namespaces`, { headers: foreign });
    const remove = await rawRequest(`${agent!.apiUrl}/namespaces/docs`, {
      method: 'DELETE',
      headers: foreign,
    });
    const preflight = await rawRequest(`${agent!.apiUrl}/namespaces/docs`, {
      method: 'OPTIONS',
      headers: { ...foreign, 'access-control-request-method': 'DELETE' },
    });

    for (const response of [list, remove, preflight]) {
      expect(response.status).toBe(403);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(JSON.parse(response.body)).toEqual({
        error: `host "evil.example:${port()}" is not served: this agent answers localhost, 127.0.0.1, [::1] and the names in AGENT_ALLOWED_HOSTS`,
      });
    }
    expect(await namespaces()).toContain('docs');
  });

  it('refuses a rebound page in Chromium: its own-origin reads and deletes are refused', async () => {
    await withDocs();
    const browser = await launchChromium({ resolveAllHostsToLoopback: true });
    try {
      const page = await browser.newPage();
      const landing = await page.goto(`http://evil.example:${port()}/`);
      expect(landing?.status()).toBe(403);
      const statuses = await page.evaluate(async () => [
        (await fetch('/api/namespaces')).status,
        (await fetch('/api/namespaces/docs', { method: 'DELETE' })).status,
      ]);
      expect(statuses).toEqual([403, 403]);
    } finally {
      await browser.close();
    }
    expect(await namespaces()).toContain('docs');
  });

  it('refuses a foreign Host even with the right AGENT_API_KEY', async () => {
    const key = 'agent-key-rebinding-7c1d';
    await withDocs({ AGENT_API_KEY: key });
    const response = await rawRequest(`${agent!.apiUrl}/namespaces`, {
      headers: { host: `evil.example:${port()}`, authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(403);
  });

  it('serves localhost, 127.0.0.1, [::1], IP addresses and the names in AGENT_ALLOWED_HOSTS', async () => {
    await withDocs({ AGENT_ALLOWED_HOSTS: 'agent.internal, Knowledge.Example.com' });
    const statuses = [];
    for (const host of [
      'localhost',
      '127.0.0.1',
      '[::1]',
      '192.168.1.20',
      'agent.internal',
      'knowledge.example.com',
      'app.localhost',
    ]) {
      statuses.push(
        (await rawRequest(`${agent!.apiUrl}/namespaces`, { headers: { host: `${host}:${port()}` } })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200]);
    const other = await rawRequest(`${agent!.apiUrl}/namespaces`, {
      headers: { host: `other.example:${port()}` },
    });
    expect(other.status).toBe(403);
  });

  it('refuses a browser write marked Sec-Fetch-Site: cross-site even without an Origin', async () => {
    await withDocs();
    const response = await rawRequest(`${agent!.apiUrl}/namespaces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ name: 'planted' }),
    });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toEqual({
      error: 'POST refused: a browser request from another site (Sec-Fetch-Site: cross-site)',
    });
    expect(await namespaces()).not.toContain('planted');
  });

  it('refuses a write from an origin outside CORS_ORIGINS and takes one from a listed origin', async () => {
    await withDocs({ CORS_ORIGINS: 'https://chat.example.com' });
    const create = (origin: string, name: string) =>
      rawRequest(`${agent!.apiUrl}/namespaces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ name }),
      });
    const refused = await create('http://localhost:3000', 'from-dev-server');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({
      error:
        'POST from origin "http://localhost:3000" refused: only this agent\'s own pages and the origins in CORS_ORIGINS may change it',
    });
    const listed = await create('https://chat.example.com', 'from-chat');
    expect(listed.status).toBe(201);
    expect(listed.headers['access-control-allow-origin']).toBe('https://chat.example.com');
    expect(await namespaces()).toEqual(expect.arrayContaining(['docs', 'from-chat']));
    expect(await namespaces()).not.toContain('from-dev-server');
  });

  it('refuses a text/plain body from a server too, naming the accepted types', async () => {
    await withDocs();
    const response = await rawRequest(`${agent!.apiUrl}/namespaces`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ name: 'typed-plain' }),
    });
    expect(response.status).toBe(415);
    expect(JSON.parse(response.body)).toEqual({
      error: 'Content-Type "text/plain" refused: send application/json or multipart/form-data',
    });
    expect(await namespaces()).not.toContain('typed-plain');
  });

  it('parley agent serves the names of --allowed-host and AGENT_ALLOWED_HOSTS, and no other', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parley-allowed-host-'));
    const child = spawn(
      process.execPath,
      [
        ...(await parleyCommand()),
        ...['--data-dir', dataDir, 'agent', '--port', '0'],
        ...['--allowed-host', 'kb.office.test', '--allowed-host', 'kb2.office.test'],
      ],
      { env: { ...process.env, AGENT_API_KEY: '', AGENT_ALLOWED_HOSTS: 'agent.internal' } },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      let apiUrl = '';
      for await (const line of createInterface({ input: child.stdout })) {
        apiUrl = /listening on (http:\/\/\S+\/api)/.exec(line)?.[1] ?? '';
        if (apiUrl) break;
      }
      const port = new URL(apiUrl).port;
      const statusFor = async (host: string) =>
        (await rawRequest(`${apiUrl}/namespaces`, { headers: { host: `${host}:${port}` } })).status;
      expect([
        await statusFor('kb.office.test'),
        await statusFor('kb2.office.test'),
        await statusFor('agent.internal'),
        await statusFor('evil.example'),
      ]).toEqual([200, 200, 200, 403]);
    } finally {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
