import { afterEach, describe, expect, it } from 'vitest';
import { AgentApiError, AgentClient } from '../../shared/agent-client.js';
import { sendJson, startRecordingServer, type RecordingServer } from '../support/http.js';

const searchAnswer = {
  results: [{ text: 'Lift grows…', score: 3.1, source: { documentId: 'd1', title: 'wing.pdf', page: 2 } }],
  namespace: 'docs',
  query: 'lift',
};

describe('AgentClient', () => {
  let server: RecordingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('posts a search to /api/tools/searchDocs and returns the typed answer', async () => {
    server = await startRecordingServer((_req, res) => sendJson(res, 200, searchAnswer));
    const client = new AgentClient({ baseUrl: `${server.url}/api` });
    const answer = await client.search({ query: 'lift', namespace: 'docs' });
    expect(answer.results[0]?.source.page).toBe(2);
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/api/tools/searchDocs' });
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ query: 'lift', namespace: 'docs' });
  });

  it('sends the API key as a bearer token only when it has one', async () => {
    server = await startRecordingServer((_req, res) => sendJson(res, 200, searchAnswer));
    await new AgentClient({ baseUrl: `${server.url}/api`, apiKey: 's3cret' }).search({ query: 'lift' });
    await new AgentClient({ baseUrl: `${server.url}/api` }).search({ query: 'lift' });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer s3cret');
    expect(server.requests[1]!.headers.authorization).toBeUndefined();
  });

  it('calls generate on the configured agent id', async () => {
    server = await startRecordingServer((_req, res) => sendJson(res, 404, { error: 'agent not found' }));
    const client = new AgentClient({ baseUrl: `${server.url}/api`, agentId: 'helpdesk' });
    await expect(client.generate({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow();
    expect(server.requests[0]!.url).toBe('/api/agents/helpdesk/generate');
  });

  it('surfaces the agent error body as an AgentApiError with status and message', async () => {
    server = await startRecordingServer((_req, res) => sendJson(res, 429, { error: 'too many requests' }));
    const error = await new AgentClient({ baseUrl: `${server.url}/api` })
      .ingest({ namespace: 'docs', sources: ['a.md'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentApiError);
    expect(error).toMatchObject({ status: 429, message: 'too many requests' });
  });

  it('rejects an answer that does not match the contract, naming the field', async () => {
    server = await startRecordingServer((_req, res) =>
      sendJson(res, 200, { results: 'nope', namespace: 'docs', query: 'q' }),
    );
    await expect(new AgentClient({ baseUrl: `${server.url}/api` }).search({ query: 'q' })).rejects.toThrow(
      /unexpected response from POST \/tools\/searchDocs: results/,
    );
  });
});
