import { describe, expect, it } from 'vitest';
import { useTestServer } from './support.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is arbitrary JSON */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

async function fetchDocument(url: string): Promise<{ status: number; document: any }> {
  // No apikey, no authToken: the document needs no authentication.
  const response = await fetch(`${url}/v3/openapi.json`);
  return { status: response.status, document: await response.json() };
}

/** Every `$ref` in `value`, with the JSON pointer it names. */
function refsOf(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsOf(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.push(item);
      else refsOf(item, found);
    }
  }
  return found;
}

function resolvePointer(document: any, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<any>((node, part) => (node === undefined ? undefined : node[part]), document);
}

describe('GET /v3/openapi.json', () => {
  const api = useTestServer();

  it('documents every route the chat app mounts, by method and path', async () => {
    const { status, document } = await fetchDocument(api.url);
    expect(status).toBe(200);
    // Middleware (`use`) is mounted for every method; the pages beside the API (/dashboard, /demo,
    // /widget) serve HTML and files, not the API the document describes.
    const mounted = api.server.http.routes
      .filter((route) => route.method !== 'ALL')
      .filter((route) => !/^\/(dashboard|demo|widget)(\/|$)/.test(route.path))
      .map((route) => `${route.method.toLowerCase()} ${route.path.replaceAll(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`),
    );
    expect(mounted.length).toBeGreaterThan(50);
    expect([...new Set(mounted)].filter((route) => !documented.includes(route))).toEqual([]);
    expect(mounted).toContain('post /v3/messages');
    expect(mounted).toContain('put /v3/ai-agents/{agentId}/conversations/{conversationId}/takeover');
  });

  it('is a structurally valid OpenAPI 3.0 document with the apikey, onBehalfOf and authToken schemes', async () => {
    const { document } = await fetchDocument(api.url);
    expect(document.openapi).toMatch(/^3\.0\.\d+$/);
    expect(typeof document.info.title).toBe('string');
    expect(typeof document.info.version).toBe('string');
    const schemes = document.components.securitySchemes;
    expect(schemes.apikey).toMatchObject({ type: 'apiKey', in: 'header', name: 'apikey' });
    expect(schemes.onBehalfOf).toMatchObject({ type: 'apiKey', in: 'header', name: 'onBehalfOf' });
    expect(schemes.authToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'authtoken' });

    for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      expect(path.startsWith('/'), path).toBe(true);
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method} ${path}`;
        expect(METHODS, where).toContain(method);
        expect(Object.keys(operation.responses ?? {}).length, where).toBeGreaterThan(0);
        for (const [code, response] of Object.entries(operation.responses as Record<string, any>)) {
          expect(code === 'default' || /^[1-5]\d\d$/.test(code), where).toBe(true);
          expect(typeof response.description, where).toBe('string');
        }
        const parameters: any[] = operation.parameters ?? [];
        for (const parameter of parameters) {
          expect(['path', 'query', 'header', 'cookie'], where).toContain(parameter.in);
          expect(typeof parameter.name, where).toBe('string');
        }
        const inPath = parameters.filter((parameter) => parameter.in === 'path');
        expect(inPath.map((parameter) => parameter.name).sort(), where).toEqual(templated);
        for (const parameter of inPath) expect(parameter.required, where).toBe(true);
        for (const requirement of operation.security ?? []) {
          for (const name of Object.keys(requirement)) expect(Object.keys(schemes), where).toContain(name);
        }
      }
    }
    for (const ref of refsOf(document)) expect(resolvePointer(document, ref), ref).toBeDefined();
  });

  it('describes the send route with its body and both envelopes, and carries no key', async () => {
    const { document } = await fetchDocument(api.url);
    const send = document.paths['/v3/messages'].post;
    expect(send.security).toEqual([{ apikey: [], onBehalfOf: [] }, { apikey: [] }, { authToken: [] }]);
    // MessageRequest is a union (text, media, custom, interactive): each branch names the receiver.
    const body = send.requestBody.content['application/json'].schema;
    const branches = JSON.stringify(body);
    expect(branches).toContain('"receiver":{');
    expect(branches).toContain('"receiverType":{');
    expect(send.responses['200'].content['application/json'].schema.properties).toHaveProperty('data');
    const refusal = send.responses.default.content['application/json'].schema;
    expect(refusal.properties.error.properties).toHaveProperty('code');
    expect(refusal.properties.error.properties).toHaveProperty('details');
    const onlyServer = document.paths['/v3/users'].post;
    expect(onlyServer.security).toEqual([{ apikey: [], onBehalfOf: [] }, { apikey: [] }]);
    expect(JSON.stringify(document)).not.toContain(api.server.seeded.apiKey);
  });
});
