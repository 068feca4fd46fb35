import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
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

const sendEvents = (res: ServerResponse, frames: unknown[]) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const frame of frames)
    res.write(`data: ${typeof frame === 'string' ? frame : JSON.stringify(frame)}\n\n`);
  res.end();
};

describe('AgentClient streams and library', () => {
  let server: RecordingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const clientOf = (started: RecordingServer) => new AgentClient({ baseUrl: `${started.url}/api` });

  it('ingests with progress: every step in order, then the answer from the done event', async () => {
    const answer = { namespace: 'docs', results: [{ source: 'a.md', status: 'indexed', chunks: 2 }] };
    server = await startRecordingServer((_req, res) =>
      sendEvents(res, [
        { type: 'queued', source: 'a.md' },
        { type: 'parsing', source: 'a.md', page: 1, pages: 1 },
        { type: 'done', response: answer },
        '[DONE]',
      ]),
    );
    const steps: string[] = [];
    const result = await clientOf(server).ingestWithProgress(
      { namespace: 'docs', sources: ['a.md'] },
      (event) => steps.push(event.type),
    );
    expect(steps).toEqual(['queued', 'parsing']);
    expect(result).toEqual(answer);
    expect(server.requests[0]!.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ namespace: 'docs', sources: ['a.md'] });
  });

  it('sends files for ingest as multipart form data', async () => {
    server = await startRecordingServer((_req, res) =>
      sendEvents(res, [{ type: 'done', response: { namespace: 'docs', results: [] } }, '[DONE]']),
    );
    const form = new FormData();
    form.set('namespace', 'docs');
    form.append('files', new File(['# A'], 'a.md'));
    await clientOf(server).ingestWithProgress(form, () => undefined);
    expect(server.requests[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(server.requests[0]!.body).toContain('filename="a.md"');
  });

  it('rejects an ingest whose stream reports an error, with its message', async () => {
    server = await startRecordingServer((_req, res) =>
      sendEvents(res, [{ type: 'error', error: 'namespace "docs" is busy' }, '[DONE]']),
    );
    await expect(
      clientOf(server).ingestWithProgress({ namespace: 'docs', texts: [{ text: 'x' }] }, () => undefined),
    ).rejects.toThrow('namespace "docs" is busy');
  });

  it('streams an answer piece by piece and ends with its sources', async () => {
    const frame = (type: string, payload: Record<string, unknown>) => ({
      type,
      runId: 'r1',
      from: 'AGENT',
      payload,
    });
    const source = { n: 1, documentId: 'd1', title: 'wing.pdf', page: 2, snippet: 'Lift…', score: 2 };
    server = await startRecordingServer((_req, res) =>
      sendEvents(res, [
        frame('start', {}),
        frame('text-delta', { id: 't', text: 'Lift grows ' }),
        frame('text-delta', { id: 't', text: '[1].' }),
        frame('finish', { text: 'Lift grows [1].', sources: [source], addressed: true }),
        '[DONE]',
      ]),
    );
    const pieces: string[] = [];
    const answer = await clientOf(server).stream(
      { messages: [{ role: 'user', content: 'lift?' }] },
      (piece) => pieces.push(piece),
    );
    expect(pieces).toEqual(['Lift grows ', '[1].']);
    expect(answer).toEqual({ text: 'Lift grows [1].', sources: [source], addressed: true });
    expect(server.requests[0]!.url).toBe('/api/agents/knowledge/stream');
  });

  it('rejects a stream that ends without its finish frame', async () => {
    server = await startRecordingServer((_req, res) => sendEvents(res, ['[DONE]']));
    await expect(
      clientOf(server).stream({ messages: [{ role: 'user', content: 'q' }] }, () => undefined),
    ).rejects.toThrow(/ended before it finished/);
  });

  it('calls the library routes with their methods and escaped names', async () => {
    server = await startRecordingServer((req, res) =>
      sendJson(
        res,
        200,
        req.url.endsWith('/documents')
          ? { namespace: 'docs', documents: [] }
          : { namespaces: [], name: 'docs', documents: 0, chunks: 0 },
      ),
    );
    const client = clientOf(server);
    await client.namespaces();
    await client.createNamespace('docs');
    await client.documents('docs');
    await client.removeDocument('docs', 'id/1');
    await client.deleteNamespace('docs');
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/namespaces',
      'POST /api/namespaces',
      'GET /api/namespaces/docs/documents',
      'DELETE /api/namespaces/docs/documents/id%2F1',
      'DELETE /api/namespaces/docs',
    ]);
  });

  it("returns a PDF document's original bytes, and the server's error when there is none", async () => {
    server = await startRecordingServer((req, res) => {
      if (req.url.includes('/d1/')) res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7');
      else sendJson(res, 404, { error: 'only the original of a PDF file is served' });
    });
    const bytes = await clientOf(server).documentFile('docs', 'd1');
    expect(new TextDecoder().decode(bytes)).toBe('%PDF-1.7');
    await expect(clientOf(server).documentFile('docs', 'd2')).rejects.toMatchObject({
      status: 404,
      message: 'only the original of a PDF file is served',
    });
  });
});
