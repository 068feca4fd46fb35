import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenerateResponse, SearchResponse } from '../../shared/agent.js';
import { postJson } from '../knowledge/server/support.js';
import type { KnowledgeEngine } from '../../knowledge/index.js';
import { agentConfigFromEnv, openAgentEngine, startAgentServer } from '../../knowledge/server/index.js';
import { silentLogger, startChatServer, type ChatServer } from '../../server/index.js';
import { connectClient, type Frame, type TestClient } from '../server/client-support.js';
import { callServerApi } from '../server/support.js';

const APP = { appId: 'paths-app', apiKey: 'paths-full-key', authKey: 'paths-auth-key' };
const GUID = 'finance';
const BUDGET = `# Budget 2026

## Travel
The travel budget for 2026 is forty thousand euros, approved by the board in March.
`;

/** Every string anywhere in a value that looks like an absolute path on some server. */
function absolutePaths(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    for (const match of value.matchAll(/(?:^|[\s"'(=:,])((?:\/|~\/|[A-Za-z]:\\)[^\s"',)]*)/g)) {
      const path = match[1] as string;
      // A bare "/" between words ("and/or") is no path; a path has a folder and a name.
      if (/[\\/][^\\/]+[\\/][^\\/]+/.test(path)) found.push(path);
    }
  } else if (Array.isArray(value)) value.forEach((item) => absolutePaths(item, found));
  else if (value !== null && typeof value === 'object')
    Object.values(value).forEach((item) => absolutePaths(item, found));
  return found;
}

const answerFrom = (agentUid: string) => (frame: Frame) =>
  frame.type === 'message' && frame.sender === agentUid && frame.body?.category === 'message';

/**
 * The attack of issue #18, defect 5: a group member reads the agent's answer (its frame, the
 * history, the message by id) looking for where the cited files lie on the server.
 */
describe('agent answers in chat carry no server paths', () => {
  let root: string;
  let docsDir: string;
  let engine: KnowledgeEngine;
  let agent: Awaited<ReturnType<typeof startAgentServer>>;
  let foreignAgent: Server;
  let chat: ChatServer;
  let alice: TestClient;
  let bob: TestClient;

  const serverApi = (method: string, path: string, body?: unknown) =>
    callServerApi(chat.url, APP, method, path, { body });
  const register = (agentId: string, deploymentUrl: string) =>
    serverApi('POST', '/ai-agents', {
      agentId,
      provider: 'mastra',
      deploymentUrl,
      name: agentId,
      namespace: 'finance',
      enabled: true,
    });

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'parley-paths-')));
    docsDir = join(root, 'home', 'carol', 'private-docs');
    await mkdir(docsDir, { recursive: true });
    await writeFile(join(docsDir, 'budget.md'), BUDGET);
    const config = agentConfigFromEnv({ INGEST_ROOTS: docsDir }, join(root, 'agent'));
    engine = await openAgentEngine(join(root, 'agent'), config);
    const [ingested] = await engine.ingest('finance', [{ kind: 'file', path: join(docsDir, 'budget.md') }]);
    expect(ingested?.status).toBe('indexed');
    agent = await startAgentServer({ config, backend: engine, host: '127.0.0.1', port: 0 });

    // Another vendor's agent, outside this product: it puts server paths everywhere it can.
    foreignAgent = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          text: 'The travel budget is forty thousand euros [1].',
          sources: [
            {
              n: 1,
              documentId: '/srv/vendor/tenants/acme/budget.md',
              title: 'Budget 2026',
              path: '/srv/vendor/tenants/acme/budget.md',
              name: 'C:\\Users\\carol\\budget.md',
              file: '/srv/vendor/tenants/acme/budget.md',
              url: 'file:///srv/vendor/tenants/acme/budget.md',
              heading: 'Travel',
              page: 2,
              snippet: 'forty thousand euros',
            },
            { n: 2, documentId: 'notes-7', title: 'Notes', name: '../../etc/passwd' },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => foreignAgent.listen(0, '127.0.0.1', resolve));
    const foreignUrl = `http://127.0.0.1:${(foreignAgent.address() as AddressInfo).port}/generate`;

    chat = await startChatServer({
      port: 0,
      dataDir: join(root, 'chat'),
      app: APP,
      rateLimits: false,
      logger: silentLogger,
    });
    for (const uid of ['alice', 'bob']) await serverApi('POST', '/users', { uid, name: uid });
    expect((await register('knowledge', `${agent.apiUrl}/agents/knowledge/generate`)).status).toBe(200);
    expect((await register('vendor', foreignUrl)).status).toBe(200);
    await serverApi('POST', '/groups', {
      guid: GUID,
      name: 'Finance',
      type: 'public',
      owner: 'alice',
      members: { participants: ['bob', 'knowledge', 'vendor'] },
    });
    alice = await connectClient(chat, APP, 'alice');
    bob = await connectClient(chat, APP, 'bob');
  });

  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await chat?.close();
    await agent?.close();
    await engine?.close();
    await new Promise<void>((resolve) => (foreignAgent ? foreignAgent.close(() => resolve()) : resolve()));
    await rm(root, { recursive: true, force: true });
  });

  const ask = async (text: string) => {
    const asked = await alice.call('POST', '/messages', {
      receiver: GUID,
      receiverType: 'group',
      category: 'message',
      type: 'text',
      data: { text },
    });
    expect(asked.status).toBe(200);
  };

  it("keeps the file's server path in the agent's own answer, for this machine's window", async () => {
    const response = await fetch(`${agent.apiUrl}/agents/knowledge/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ role: 'user', content: '@agent what is the travel budget?' }],
        toolParams: { namespace: 'finance' },
      }),
    });
    const [source] = GenerateResponse.parse(await response.json()).sources;
    expect(source).toMatchObject({
      title: 'Budget 2026',
      name: 'budget.md',
      path: join(docsDir, 'budget.md'),
    });
  });

  it('names a file dropped into the namespace folder by its path under that folder', async () => {
    const guides = join(engine.namespaceFolder('finance'), 'guides');
    await mkdir(guides, { recursive: true });
    await writeFile(join(guides, 'parking.md'), '# Parking\n\nVisitors park in the zeppelin hangar.\n');
    const search = async () => {
      const { body } = await postJson(`${agent.apiUrl}/tools/searchDocs`, {
        query: 'zeppelin',
        namespace: 'finance',
      });
      return SearchResponse.parse(body).results[0]?.source;
    };
    await expect.poll(search, { timeout: 30_000, interval: 250 }).toBeDefined();
    expect(await search()).toMatchObject({ title: 'Parking', name: 'guides/parking.md' });
  });

  it('posts the knowledge agent answer to the group with title, heading and name, and no path anywhere', async () => {
    await ask('@knowledge what is the travel budget?');
    const frame = await bob.next(answerFrom('knowledge'), 'the knowledge agent answer');
    await chat.agents.bridge.idle();
    const stored = await bob.call('GET', `/messages/${frame.body.id as string}`);
    const history = await bob.call('GET', `/groups/${GUID}/messages?limit=100`);

    expect(frame.body.data.text).toMatch(/forty thousand euros/);
    expect(frame.body.data.metadata.sources[0]).toEqual({
      n: 1,
      documentId: expect.stringMatching(/^[0-9a-f]{24}$/),
      title: 'Budget 2026',
      name: 'budget.md',
      heading: 'Travel',
      snippet: expect.stringContaining('forty thousand euros'),
    });
    for (const seen of [frame.body, stored.body, history.body]) {
      expect(JSON.stringify(seen)).not.toContain(root);
      expect(absolutePaths(seen)).toEqual([]);
    }
  });

  it("strips another agent's paths: only relative names, http(s) URLs and the listed fields reach the chat", async () => {
    await ask('@vendor what is the travel budget?');
    const frame = await bob.next(answerFrom('vendor'), 'the vendor agent answer');

    expect(frame.body.data.metadata.sources).toEqual([
      {
        n: 1,
        title: 'Budget 2026',
        name: 'budget.md',
        page: 2,
        heading: 'Travel',
        snippet: 'forty thousand euros',
      },
      { n: 2, documentId: 'notes-7', title: 'Notes', name: 'passwd' },
    ]);
    expect(absolutePaths(frame.body)).toEqual([]);
  });
});
