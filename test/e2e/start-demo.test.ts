import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONNECTION_URL, fetchDemoConnection } from '../../desktop/main/demo-connection.js';
import { DEMO_GROUP, DEMO_OPERATOR } from '../../server/demo/index.js';
import { launchChromium } from '../support/browser.js';
import { builtWindow, parleyCommand } from '../support/built.js';

/** `parley start` as a real process on free ports, read back from what it prints. */
describe('parley start', () => {
  let dataDir: string;
  let child: ChildProcessWithoutNullStreams;
  let output = '';
  let chatUrl: string;
  let keys: { appId: string; apiKey: string; authKey: string };

  beforeAll(async () => {
    // The run's build, window included: `parley start` serves the window built beside it, as from dist/.
    await builtWindow();
    dataDir = mkdtempSync(join(tmpdir(), 'parley-start-'));
    child = spawn(
      process.execPath,
      [...(await parleyCommand()), '--data-dir', dataDir, 'start', '--port', '0', '--agent-port', '0'],
      {
        env: { ...process.env, NODE_NO_WARNINGS: '1' },
      },
    );
    child.stderr.resume();
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/^Namespace demo/m.test(output)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`parley start exited with ${code}: ${output}`)));
    });
    chatUrl = /^Chat service: (\S+)/m.exec(output)?.[1] ?? '';
    keys = {
      appId: /^App (\S+)/m.exec(output)?.[1] ?? '',
      apiKey: /REST API key \(fullAccess\): (\S+)/.exec(output)?.[1] ?? '',
      authKey: /auth key \(authOnly[^)]*\): (\S+)/.exec(output)?.[1] ?? '',
    };
  });

  afterAll(async () => {
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the demo app with its fullAccess and authOnly keys', () => {
    expect(keys.appId).toBe('parley-demo');
    expect(keys.apiKey).toMatch(/^[0-9a-f]{40}$/);
    expect(keys.authKey).toMatch(/^[0-9a-f]{40}$/);
    expect(output).toMatch(/^Namespace demo: 3 of 3 documents$/m);
  });

  it('seeds alice and bob in a group with the knowledge agent, registered, enabled and pointed at the local agent', async () => {
    const headers = { apikey: keys.apiKey, appId: keys.appId };
    const members = await (await fetch(`${chatUrl}/v3/groups/parley-demo/members`, { headers })).json();
    expect((members.data as { uid: string }[]).map((member) => member.uid).sort()).toEqual([
      'alice',
      'bob',
      'knowledge',
      'operator',
    ]);
    const agents = await (await fetch(`${chatUrl}/v3/ai-agents`, { headers })).json();
    const agentUrl = /^Knowledge agent: (\S+)/m.exec(output)?.[1];
    expect(agents.data).toEqual([
      expect.objectContaining({
        agentId: 'knowledge',
        enabled: true,
        namespace: 'demo',
        deploymentUrl: `${agentUrl}/agents/knowledge/generate`,
      }),
    ]);
  });

  it('serves /demo with a window per demo user and the settings they log in with', async () => {
    const page = await (await fetch(`${chatUrl}/demo`)).text();
    expect(page).toContain('data-uid="alice"');
    expect(page).toContain('data-uid="bob"');
    const config = await (await fetch(`${chatUrl}/demo/config.json`)).json();
    expect(config).toMatchObject({
      appId: keys.appId,
      authKey: keys.authKey,
      group: { guid: 'parley-demo' },
    });
  });

  it('answers a question to @agent in the demo group from the sample namespace', async () => {
    const login = await fetch(`${chatUrl}/v3/users/alice/auth_tokens`, {
      method: 'POST',
      headers: { appId: keys.appId, apiKey: keys.authKey },
    });
    const { authToken } = (await login.json()).data as { authToken: string };
    const client = { appId: keys.appId, authToken, 'content-type': 'application/json' };
    const asked = await fetch(`${chatUrl}/v3/messages`, {
      method: 'POST',
      headers: client,
      body: JSON.stringify({
        receiver: 'parley-demo',
        receiverType: 'group',
        category: 'message',
        type: 'text',
        data: { text: '@agent where are chats kept?' },
      }),
    });
    const question = (await asked.json()).data as { id: string };
    let answer: { data: { text: string; metadata: { sources: unknown[] } } } | undefined;
    for (let attempt = 0; attempt < 100 && answer === undefined; attempt += 1) {
      const history = await (
        await fetch(`${chatUrl}/v3/groups/parley-demo/messages?per_page=10&affix=append&id=${question.id}`, {
          headers: client,
        })
      ).json();
      answer = (
        history.data as { sender: string; data: { text: string; metadata: { sources: unknown[] } } }[]
      ).find((message) => message.sender === 'knowledge');
      if (answer === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answer?.data.text).toMatch(/chat\.db/);
    expect(answer?.data.metadata.sources.length).toBeGreaterThan(0);
  });

  it('seeds the operator Chats signs in as, an admin of the demo group, and says where Chats is', async () => {
    const headers = { apikey: keys.apiKey, appId: keys.appId };
    const members = await (await fetch(`${chatUrl}/v3/groups/parley-demo/members`, { headers })).json();
    expect(
      (members.data as { uid: string; scope: string }[]).find((m) => m.uid === 'operator'),
    ).toMatchObject({
      scope: 'admin',
    });
    const port = new URL(chatUrl).port;
    expect(output).toMatch(
      new RegExp(
        `^Chats: the knowledge app at http://\\S+/#/chats signs in as operator .* at localhost:${port} \\(a browser on this computer over http, no certificate step; the desktop app over https\\)$`,
        'm',
      ),
    );
  });

  it('hands the desktop app the fingerprint of the certificate the chat service serves, and prints it', async () => {
    const port = Number(new URL(chatUrl).port);
    const served = await new Promise<X509Certificate>((resolve, reject) => {
      const socket = connect(
        { host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false },
        () => {
          resolve(new X509Certificate(socket.getPeerCertificate().raw));
          socket.end();
        },
      );
      socket.once('error', reject);
    });
    const fingerprint = `sha256/${createHash('sha256').update(served.raw).digest('base64')}`;
    const windowUrl = (/^Knowledge agent: (\S+)/m.exec(output)?.[1] ?? '').replace(/\/api$/, '');
    const connection = (await (await fetch(`${windowUrl}/chat-connection.json`)).json()) as {
      host: string;
      certificateFingerprint: string;
    };
    expect(connection).toMatchObject({ host: `localhost:${port}`, certificateFingerprint: fingerprint });
    expect(output).toContain(`certificate ${fingerprint}:`);
  });

  it("serves the connection the desktop app takes as the local demo's, and says where the app reads it", async () => {
    const port = new URL(chatUrl).port;
    const windowUrl = (/^Knowledge agent: (\S+)/m.exec(output)?.[1] ?? '').replace(/\/api$/, '');
    expect(await fetchDemoConnection(`${windowUrl}/chat-connection.json`)).toMatchObject({
      appId: keys.appId,
      operatorUid: 'operator',
      host: `localhost:${port}`,
      authKey: keys.authKey,
    });
    // On another agent port than the default, the desktop app does not find the demo by itself.
    expect(output).toContain(`it reads the demo's connection only from ${DEMO_CONNECTION_URL}`);
  });

  it('shows the demo group at the printed Chats address in a plain browser, with no certificate step', async () => {
    const chatsUrl = /^Chats: the knowledge app at (\S+) signs in/m.exec(output)?.[1];
    if (chatsUrl === undefined) throw new Error(`no Chats address in: ${output}`);
    // No --ignore-certificate-errors, no click-through: as a browser opens it on this computer.
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(20_000);
      await page.goto(chatsUrl);
      await page.getByText(`Signed in as ${DEMO_OPERATOR.name}`).waitFor();
      await page.getByRole('tab', { name: 'Groups' }).click();
      await page.locator('.chats-lists').getByText(DEMO_GROUP.name).first().click();
      await page.locator('.chats-conversation').getByText(DEMO_GROUP.name).first().waitFor();
    } finally {
      await browser.close();
    }
  });
});
