import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestResponse, SearchResponse } from '../../../shared/agent.js';
import { postJson, startTestAgent, type TestAgent } from './support.js';

describe('agent tools over HTTP', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent();
    await postJson(`${agent.apiUrl}/tools/ingestSources`, { namespace: 'docs', sources: [agent.docsDir] });
  });
  afterAll(() => agent.close());

  const ingest = (body: unknown) => postJson(`${agent.apiUrl}/tools/ingestSources`, body);
  const search = (body: unknown) => postJson(`${agent.apiUrl}/tools/searchDocs`, body);

  it('ingests a folder under the ingest root, one result per file with its document id and chunks', async () => {
    const { status, body } = await ingest({ namespace: 'folder', sources: [agent.docsDir] });
    expect(status).toBe(200);
    const answer = IngestResponse.parse(body);
    expect(answer.namespace).toBe('folder');
    expect(answer.results).toHaveLength(3);
    for (const result of answer.results) {
      expect(result).toMatchObject({
        status: 'indexed',
        documentId: expect.any(String),
        chunks: expect.any(Number),
      });
    }
  });

  it('ingests raw text from sources and from texts with a title', async () => {
    const { body } = await ingest({
      namespace: 'notes',
      sources: ['The heat shield tiles are bonded to felt pads on the orbiter.'],
      texts: [{ title: 'Parachutes', text: 'The drogue parachute deploys at high altitude.' }],
    });
    const results = IngestResponse.parse(body).results;
    expect(results.map((r) => r.status)).toEqual(['indexed', 'indexed']);
    expect(results[1]?.title).toBe('Parachutes');
  });

  it('reports a failing source without failing the others', async () => {
    await writeFile(join(agent.docsDir, 'slides.pptx'), 'not supported');
    const { status, body } = await ingest({
      namespace: 'mixed',
      files: [join(agent.docsDir, 'slides.pptx'), join(agent.docsDir, 'wing.md')],
    });
    expect(status).toBe(200);
    const [slides, wing] = IngestResponse.parse(body).results;
    expect(slides).toMatchObject({ status: 'failed', error: expect.stringMatching(/pptx/) });
    expect(wing).toMatchObject({ status: 'indexed', title: 'Wing design' });
  });

  it('refuses local paths outside the ingest roots, whether they exist or not', async () => {
    await writeFile(join(agent.outsideDir, 'secret.md'), '# Secret\n\nThe launch code is 1234.\n');
    const { body } = await ingest({
      namespace: 'docs',
      sources: [join(agent.outsideDir, 'secret.md'), join(agent.outsideDir, 'missing.md'), '/etc/passwd'],
      files: [join(agent.docsDir, '..', 'outside', 'secret.md')],
    });
    const results = IngestResponse.parse(body).results;
    expect(results).toHaveLength(4);
    for (const result of results) {
      expect(result).toMatchObject({
        status: 'failed',
        error: 'outside the folders this agent may read (INGEST_ROOTS)',
      });
    }
    const found = SearchResponse.parse((await search({ query: 'launch code', namespace: 'docs' })).body);
    expect(found.results).toEqual([]);
  });

  it('refuses a symlink inside the root that points outside it', async () => {
    await writeFile(join(agent.outsideDir, 'private.md'), '# Private\n\nPayroll figures.\n');
    await symlink(join(agent.outsideDir, 'private.md'), join(agent.docsDir, 'link.md'));
    const { body } = await ingest({ namespace: 'links', files: [join(agent.docsDir, 'link.md')] });
    expect(IngestResponse.parse(body).results[0]).toMatchObject({ status: 'failed' });
  });

  it('ingests files uploaded as multipart/form-data and names them without the server path', async () => {
    const form = new FormData();
    form.set('namespace', 'manuals');
    form.append('files', new File(['# Rotor\n\nThe rotor blades flap to balance lift.\n'], 'rotor.md'));
    const response = await fetch(`${agent.apiUrl}/tools/ingestSources`, { method: 'POST', body: form });
    const answer = IngestResponse.parse(await response.json());
    expect(answer.results[0]).toMatchObject({
      source: 'uploads/manuals/rotor.md',
      status: 'indexed',
      title: 'Rotor',
    });
    const hits = SearchResponse.parse(
      (await search({ query: 'rotor blades', namespace: 'manuals' })).body,
    ).results;
    expect(hits[0]?.source.path).toBe('uploads/manuals/rotor.md');
  });

  it('keeps both of two files uploaded together under the same name', async () => {
    const form = new FormData();
    form.set('namespace', 'twins');
    form.append('files', new File(['# Rotor\n\nRotor blades flap.\n'], 'README.md'));
    form.append('files', new File(['# Tail\n\nThe tail fin steadies yaw.\n'], 'README.md'));
    const response = await fetch(`${agent.apiUrl}/tools/ingestSources`, { method: 'POST', body: form });
    const answer = IngestResponse.parse(await response.json());
    expect(answer.results.map((r) => [r.source, r.status])).toEqual([
      ['uploads/twins/README.md', 'indexed'],
      ['uploads/twins/README (2).md', 'indexed'],
    ]);
    const hits = SearchResponse.parse(
      (await search({ query: 'rotor tail', namespace: 'twins' })).body,
    ).results;
    expect(hits.map((hit) => hit.source.title).sort()).toEqual(['Rotor', 'Tail']);
  });

  it('answers a search with a snippet around the query terms, not the whole passage', async () => {
    const filler = 'The hangar log lists routine checks of hinges, tyres and cabin seals. '.repeat(10);
    const text = `${filler}The zeppelin envelope was patched after the storm.`;
    await ingest({ namespace: 'snippets', texts: [{ title: 'Hangar log', text }] });
    const [hit] = SearchResponse.parse(
      (await search({ query: 'zeppelin envelope', namespace: 'snippets' })).body,
    ).results;
    expect(hit?.text).toContain('zeppelin envelope was patched');
    expect(hit!.text.length).toBeLessThan(text.length / 2);
  });

  it('searches a namespace and returns passages with their sources', async () => {
    const { status, body } = await search({
      query: 'angle of attack lift',
      namespace: 'docs',
      maxResults: 2,
    });
    expect(status).toBe(200);
    const answer = SearchResponse.parse(body);
    expect(answer).toMatchObject({ namespace: 'docs', query: 'angle of attack lift' });
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results.length).toBeLessThanOrEqual(2);
    expect(answer.results[0]?.source).toMatchObject({
      title: 'Wing design',
      path: join(agent.docsDir, 'wing.md'),
    });
  });

  it('rejects maxResults outside 1..100 naming the field', async () => {
    for (const maxResults of [0, 101]) {
      const { status, body } = await search({ query: 'lift', namespace: 'docs', maxResults });
      expect(status).toBe(400);
      expect(body).toEqual({ error: expect.stringMatching(/^maxResults: /) });
    }
  });

  it('rejects a namespace that could leave the knowledge folder', async () => {
    const { status, body } = await ingest({ namespace: '../etc', texts: [{ text: 'x' }] });
    expect(status).toBe(400);
    expect(body).toEqual({ error: expect.stringMatching(/^namespace: a namespace is 1-64 of a-z/) });
  });

  it('rejects a body that is not JSON', async () => {
    const { status, body } = await ingest('{"namespace":');
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'body: not valid JSON' });
  });

  it('rejects a body labelled multipart/form-data that is not one, naming the body', async () => {
    const response = await fetch(`${agent.apiUrl}/tools/ingestSources`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: 'not a form',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'body: not valid multipart form data' });
  });

  it('lists both tools the Mastra way, with JSON schemas', async () => {
    const tools = (await (await fetch(`${agent.apiUrl}/tools`)).json()) as Record<
      string,
      { id: string; inputSchema: string }
    >;
    expect(Object.keys(tools)).toEqual(['ingestSources', 'searchDocs']);
    const schema = JSON.parse(tools.searchDocs!.inputSchema) as {
      json: { properties: Record<string, unknown> };
    };
    expect(Object.keys(schema.json.properties)).toEqual(['query', 'namespace', 'maxResults']);
    const one = await fetch(`${agent.apiUrl}/tools/searchDocs`);
    expect(((await one.json()) as { id: string }).id).toBe('searchDocs');
  });

  it('executes a tool with its input in data', async () => {
    const { status, body } = await postJson(`${agent.apiUrl}/tools/searchDocs/execute`, {
      data: { query: 'compressor pressure', namespace: 'docs' },
    });
    expect(status).toBe(200);
    expect(SearchResponse.parse(body).results[0]?.source.title).toBe('Gas turbines');
  });

  it('answers 404 for an unknown tool and 400 for an execute body without data', async () => {
    expect((await fetch(`${agent.apiUrl}/tools/deleteAll`)).status).toBe(404);
    const unknown = await postJson(`${agent.apiUrl}/tools/deleteAll/execute`, { data: {} });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'tool not found' } });
    const noData = await postJson(`${agent.apiUrl}/tools/searchDocs/execute`, { query: 'lift' });
    expect(noData).toMatchObject({
      status: 400,
      body: { error: 'data: the tool input goes in {"data": …}' },
    });
  });
});
