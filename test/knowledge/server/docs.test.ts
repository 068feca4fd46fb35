import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentApp } from '../../../knowledge/server/index.js';
import { startTestAgent, type TestAgent } from './support.js';

describe('OpenAPI and Swagger UI', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent();
  });
  afterAll(() => agent.close());

  it('describes every route with schemas generated from the zod contracts', async () => {
    const document = (await (await fetch(`${agent.apiUrl}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/agents/{agentId}/generate',
        '/api/agents/{agentId}/stream',
        '/api/tools/ingestSources',
        '/api/tools/searchDocs',
        '/api/tools/{toolId}/execute',
      ]),
    );
    expect(Object.keys(document.components.schemas.SearchRequest!.properties!)).toEqual([
      'query',
      'namespace',
      'maxResults',
    ]);
    expect(document.components.schemas.GenerateResponse!.properties).toHaveProperty('sources');
  });

  it('documents every API route the agent app mounts, and only those', async () => {
    const app = createAgentApp({ config: agent.config, backend: agent.engine });
    const mounted = new Set(
      app.routes
        .filter((route) => route.method !== 'ALL' && route.path.startsWith('/api'))
        .map((route) => `${route.method} ${route.path.replace(/:([^/]+)/g, '{$1}')}`),
    );
    const document = (await (await app.request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    expect([...mounted].sort()).toEqual([...documented].sort());
    expect(mounted).toContain('DELETE /api/namespaces/{namespace}/documents/{documentId}');
  });

  it('describes the knowledge library with the shared schemas', async () => {
    const document = (await (await fetch(`${agent.apiUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    const listed = document.paths['/api/namespaces']!.get!.responses['200']!.content;
    expect(listed).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/NamespaceList' } },
    });
    const text = document.paths['/api/namespaces/{namespace}/documents/{documentId}/text']!.get!;
    expect(text.responses['200']!.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/DocumentText' } },
    });
  });

  it('serves Swagger UI from local files that point at the local document', async () => {
    const page = await (await fetch(`${agent.origin}/swagger-ui`)).text();
    const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets.every((asset) => asset.startsWith('/swagger-ui/'))).toBe(true);
    for (const asset of assets) expect((await fetch(`${agent.origin}${asset}`)).status).toBe(200);
    const init = await (await fetch(`${agent.origin}/swagger-ui/init.js`)).text();
    expect(init).toContain("url: '/api/openapi.json'");
  });

  it('leads from / to Swagger UI when no knowledge app UI is given', async () => {
    // On the app itself: a started server serves the built window at / once the build has made it.
    const app = createAgentApp({ config: agent.config, backend: agent.engine });
    const response = await app.request('/');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/swagger-ui');
  });
});
