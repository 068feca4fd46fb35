import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../shared/server-kit/index.js';
import { postJson, startTestAgent, type TestAgent } from './support.js';

describe('agent request lines', () => {
  let agent: TestAgent | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  it('logs one line per request with method, route pattern, status and time, never the body', async () => {
    const lines: string[] = [];
    agent = await startTestAgent({ logger: createLogger((line) => lines.push(line)) });
    await postJson(`${agent.apiUrl}/tools/searchDocs`, { query: 'confidential wind tunnel' });
    await fetch(`${agent.apiUrl}/agents/somebody-else`);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toEqual([
      expect.objectContaining({
        level: 'info',
        event: 'request',
        method: 'POST',
        route: '/api/tools/searchDocs',
        status: 200,
        ms: expect.any(Number),
        time: expect.any(String),
      }),
      expect.objectContaining({ event: 'request', route: '/api/agents/:agentId', status: 404 }),
    ]);
    expect(lines.join('')).not.toContain('confidential');
  });

  it('refuses a searchDocs request without a body, naming the body', async () => {
    agent = await startTestAgent();
    const { status, body } = await postJson(`${agent.apiUrl}/tools/searchDocs`, '');
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'body: a JSON body is required' });
  });
});
