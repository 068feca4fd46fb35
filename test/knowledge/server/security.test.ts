import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson, startTestAgent, userTurn, type TestAgent } from './support.js';

describe('agent server safety', () => {
  let agent: TestAgent | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  describe('with AGENT_API_KEY', () => {
    const key = 'agent-key-5f2c9e41';

    it('refuses /api requests without the key with 401', async () => {
      agent = await startTestAgent({ env: { AGENT_API_KEY: key } });
      for (const path of ['', '/agents', '/tools']) {
        const response = await fetch(`${agent.apiUrl}${path}`);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer');
      }
      const generated = await postJson(`${agent.apiUrl}/agents/knowledge/generate`, userTurn('@agent hi'));
      expect(generated.status).toBe(401);
      const wrong = await fetch(`${agent.apiUrl}/agents`, {
        headers: { authorization: 'Bearer not-the-key' },
      });
      expect(wrong.status).toBe(401);
    });

    it('accepts the key as a bearer token or in x-api-key', async () => {
      agent = await startTestAgent({ env: { AGENT_API_KEY: key } });
      expect(
        (await fetch(`${agent.apiUrl}/agents`, { headers: { authorization: `Bearer ${key}` } })).status,
      ).toBe(200);
      expect((await fetch(`${agent.apiUrl}/agents`, { headers: { 'x-api-key': key } })).status).toBe(200);
    });

    it('keeps the interface description and Swagger UI readable so the key can be entered there', async () => {
      agent = await startTestAgent({ env: { AGENT_API_KEY: key } });
      expect((await fetch(`${agent.apiUrl}/openapi.json`)).status).toBe(200);
      expect((await fetch(`${agent.origin}/swagger-ui`)).status).toBe(200);
    });
  });

  it('answers CORS only for the configured origins: its own pages are same-origin and need none', async () => {
    agent = await startTestAgent({ env: { CORS_ORIGINS: 'https://chat.example.com' } });
    const from = (origin: string) => fetch(`${agent!.apiUrl}/agents`, { headers: { origin } });
    expect((await from('https://chat.example.com')).headers.get('access-control-allow-origin')).toBe(
      'https://chat.example.com',
    );
    expect((await from(agent.origin)).headers.get('access-control-allow-origin')).toBeNull();
    expect((await from('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${agent.apiUrl}/agents/knowledge/generate`, {
      method: 'OPTIONS',
      headers: { origin: 'https://chat.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('marks every API answer as varying by Origin, whether the request had one or not', async () => {
    agent = await startTestAgent({ env: { CORS_ORIGINS: 'https://chat.example.com' } });
    const withOrigin = await fetch(`${agent.apiUrl}/agents`, {
      headers: { origin: 'https://chat.example.com' },
    });
    const withoutOrigin = await postJson(`${agent.apiUrl}/tools/searchDocs`, { query: 'wind' });
    expect(withOrigin.headers.get('vary')).toBe('Origin');
    expect(withoutOrigin.status).toBe(200);
    expect(withoutOrigin.headers.get('vary')).toBe('Origin');
  });

  it('limits generate requests per client and answers 429 with Retry-After', async () => {
    agent = await startTestAgent({ env: { AGENT_RATE_LIMIT: '3' } });
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof postJson>> | undefined;
    for (let i = 0; i < 4; i++) {
      limited = await postJson(`${agent.apiUrl}/agents/knowledge/generate`, userTurn('hello'));
      statuses.push(limited.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited!.body).toEqual({
      error: expect.stringMatching(/^too many requests: at most 3 per minute/),
    });
  });

  it('limits ingest requests too, but not searches', async () => {
    agent = await startTestAgent({ env: { AGENT_RATE_LIMIT: '2' } });
    const ingest = () =>
      postJson(`${agent!.apiUrl}/tools/ingestSources`, { texts: [{ text: 'Wind tunnels.' }] });
    expect([(await ingest()).status, (await ingest()).status, (await ingest()).status]).toEqual([
      200, 200, 429,
    ]);
    const searches = await Promise.all(
      [1, 2, 3, 4].map(() => postJson(`${agent!.apiUrl}/tools/searchDocs`, { query: 'wind' })),
    );
    expect(searches.map((search) => search.status)).toEqual([200, 200, 200, 200]);
  });

  it('refuses a generate body over 1 MB with 413', async () => {
    agent = await startTestAgent();
    const big = userTurn(`@agent ${'a'.repeat(1024 * 1024)}`);
    const { status, body } = await postJson(`${agent.apiUrl}/agents/knowledge/generate`, big);
    expect(status).toBe(413);
    expect(body).toEqual({ error: 'request body too large: the limit is 1 MB' });
  });

  it('refuses an ingest body over INGEST_MAX_BYTES with 413', async () => {
    agent = await startTestAgent({ env: { INGEST_MAX_BYTES: '2048' } });
    const { status, body } = await postJson(`${agent.apiUrl}/tools/ingestSources`, {
      texts: [{ text: 'x'.repeat(4096) }],
    });
    expect(status).toBe(413);
    expect(body).toEqual({ error: 'request body too large: the limit is 2048 bytes' });
  });

  it('refuses a chunked body (no Content-Length) over the limit with 413 as it is read', async () => {
    agent = await startTestAgent({ env: { INGEST_MAX_BYTES: '2048' } });
    const json = JSON.stringify({ texts: [{ text: 'x'.repeat(4096) }] });
    const response = await fetch(`${agent.apiUrl}/tools/ingestSources`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // A stream has no known length, so fetch sends it with Transfer-Encoding: chunked.
      body: new Blob([json]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'request body too large: the limit is 2048 bytes' });
  });

  it('answers an internal failure with 500 and a message free of paths, stacks and environment values', async () => {
    agent = await startTestAgent();
    // A namespace whose store folder is a file cannot be opened: the engine fails with a system error.
    await mkdir(join(agent.dataDir, 'knowledge', 'broken'), { recursive: true });
    await writeFile(join(agent.dataDir, 'knowledge', 'broken', '.parley'), 'not a folder');
    const { status, body } = await postJson(`${agent.apiUrl}/tools/searchDocs`, {
      query: 'lift',
      namespace: 'broken',
    });
    expect(status).toBe(500);
    expect(body).toEqual({ error: expect.any(String) });
    const text = JSON.stringify(body);
    expect(text).not.toContain(agent.dataDir);
    expect(text).not.toMatch(/\n\s+at |\bat .*:\d+:\d+/);
    expect(text).not.toMatch(/"\/|'\/| \//);
  });
});
