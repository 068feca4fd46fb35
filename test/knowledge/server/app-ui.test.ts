import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeEngine } from '../../../knowledge/index.js';
import {
  agentConfigFromEnv,
  startAgentServer,
  type RunningAgentServer,
} from '../../../knowledge/server/index.js';
import { knowledgeAppUi } from '../../../knowledge/server/app-ui.js';

/** The knowledge app window, served at `/` from its built folder. */
describe('knowledge app UI at /', () => {
  let root: string;
  let engine: KnowledgeEngine;
  let server: RunningAgentServer;
  let origin: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'parley-app-ui-'));
    const folder = join(root, 'ui');
    await mkdir(join(folder, 'assets'), { recursive: true });
    await writeFile(join(folder, 'index.html'), '<!doctype html><title>Parley</title>');
    await writeFile(join(folder, 'assets', 'app.js'), 'console.log("window");');
    await writeFile(join(root, 'outside.txt'), 'not for the browser');
    const config = agentConfigFromEnv({}, join(root, 'data'));
    engine = await KnowledgeEngine.open({ dataDir: join(root, 'data') });
    server = await startAgentServer({
      config,
      backend: engine,
      host: '127.0.0.1',
      port: 0,
      ui: knowledgeAppUi(folder),
    });
    origin = server.apiUrl.replace(/\/api$/, '');
  });
  afterAll(async () => {
    await server.close();
    await engine.close();
    await rm(root, { recursive: true, force: true });
  });

  it('serves the window at / under a policy that runs nothing remote, and lets Chats reach a chat service over TLS or, on loopback, over plain http', async () => {
    const response = await fetch(`${origin}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = response.headers.get('content-security-policy') ?? '';
    const directive = (name: string) => new RegExp(`(?:^|; )${name} ([^;]*)`).exec(policy)?.[1];
    expect(directive('default-src')).toBe("'self'");
    for (const name of ['script-src', 'style-src', 'font-src', 'worker-src']) {
      expect(directive(name)).not.toMatch(/https?:|\*/);
    }
    expect(directive('connect-src')).toBe(
      "'self' https: wss: http://localhost:* ws://localhost:* http://127.0.0.1:* ws://127.0.0.1:*",
    );
    // Plain http only in connect-src, and only to loopback.
    expect(policy.replace(/(?:^|; )connect-src [^;]*/, '')).not.toMatch(/http:/);
    expect(policy).not.toMatch(/unsafe-(inline|eval)/);
    expect(await response.text()).toContain('<title>Parley</title>');
  });

  it('serves the assets of the window with their types', async () => {
    const response = await fetch(`${origin}/assets/app.js`);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves nothing from outside its folder', async () => {
    const response = await fetch(`${origin}/..%2Foutside.txt`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('not for the browser');
  });

  it('keeps the API answering beside it', async () => {
    const response = await fetch(`${server.apiUrl}`);
    expect(await response.json()).toMatchObject({ status: 'ok' });
    expect(response.headers.get('content-security-policy')).toBeNull();
  });
});

describe('knowledge app UI beside the API', () => {
  it('leaves 405 answers of the API routes to the API', async () => {
    const root = await mkdtemp(join(tmpdir(), 'parley-app-ui-'));
    const folder = join(root, 'ui');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'index.html'), '<!doctype html><title>Parley</title>');
    const engine = await KnowledgeEngine.open({ dataDir: join(root, 'data') });
    const server = await startAgentServer({
      config: agentConfigFromEnv({}, join(root, 'data')),
      backend: engine,
      host: '127.0.0.1',
      port: 0,
      ui: knowledgeAppUi(folder),
    });
    try {
      const response = await fetch(`${server.apiUrl}/agents/knowledge/generate`);
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    } finally {
      await server.close();
      await engine.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('serves the chat connection it was started with, uncached, and none when it has none', async () => {
    const folder = join(tmpdir(), 'parley-app-ui-no-files');
    const connection = {
      appId: 'parley-demo',
      region: 'us',
      operatorUid: 'operator',
      host: 'localhost:4000',
      certificateFingerprint: 'sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
      authKey: 'demo-auth-key',
    };
    const served = await knowledgeAppUi(folder, { chatConnection: () => connection }).request(
      '/chat-connection.json',
    );
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toBe('no-store');
    expect(await served.json()).toEqual(connection);
    expect(
      (await knowledgeAppUi(folder, { chatConnection: () => undefined }).request('/chat-connection.json'))
        .status,
    ).toBe(404);
    expect((await knowledgeAppUi(folder).request('/chat-connection.json')).status).toBe(404);
  });
});
