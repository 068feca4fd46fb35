import { createRoute, type OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Env, Handler, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import * as contract from '../../shared/agent.js';

/*
 * The agent API's routes as OpenAPI definitions, from the zod contracts in shared/agent.ts.
 * `/api/openapi.json` is generated from them, so a route cannot be served without being described.
 */

/**
 * A shared contract under its name in `components.schemas`. Named on a copy: zod-openapi adds
 * `.openapi()` to schemas made after it loads, and shared/ is loaded earlier and knows nothing of it.
 */
const named = <T extends z.ZodType>(schema: T, id: string): T => schema.clone().openapi(id);

/** The shared contracts the document names. */
const schemas = {
  AgentStatus: named(contract.AgentStatus, 'AgentStatus'),
  AgentCard: named(contract.AgentCard, 'AgentCard'),
  AgentCards: named(contract.AgentCards, 'AgentCards'),
  ToolCard: named(contract.ToolCard, 'ToolCard'),
  ToolCards: named(contract.ToolCards, 'ToolCards'),
  GenerateRequest: named(contract.GenerateRequest, 'GenerateRequest'),
  GenerateResponse: named(contract.GenerateResponse, 'GenerateResponse'),
  AgentStreamFrame: named(contract.AgentStreamFrame, 'AgentStreamFrame'),
  IngestRequest: named(contract.IngestRequest, 'IngestRequest'),
  IngestResponse: named(contract.IngestResponse, 'IngestResponse'),
  IngestProgress: named(contract.IngestProgress, 'IngestProgress'),
  SearchRequest: named(contract.SearchRequest, 'SearchRequest'),
  SearchResponse: named(contract.SearchResponse, 'SearchResponse'),
  ExecuteToolRequest: named(contract.ExecuteToolRequest, 'ExecuteToolRequest'),
  NamespaceList: named(contract.NamespaceList, 'NamespaceList'),
  NamespaceSummary: named(contract.NamespaceSummary, 'NamespaceSummary'),
  CreateNamespaceRequest: named(contract.CreateNamespaceRequest, 'CreateNamespaceRequest'),
  NamespaceDeleted: named(contract.NamespaceDeleted, 'NamespaceDeleted'),
  DocumentList: named(contract.DocumentList, 'DocumentList'),
  DocumentRemoved: named(contract.DocumentRemoved, 'DocumentRemoved'),
  DocumentText: named(contract.DocumentText, 'DocumentText'),
  AgentError: named(contract.AgentError, 'AgentError'),
};

const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });
const ok = (schema: z.ZodType, description = 'OK') => ({ 200: { description, ...json(schema) } });
const error = (description: string) => ({ description, ...json(schemas.AgentError) });
const requiredJson = (schema: z.ZodType) => ({ body: { required: true, ...json(schema) } });

/** Answers every route may give: the Host and write checks, the key, and a sanitized failure. */
const common = {
  401: error('AGENT_API_KEY is set and the request carries no valid key'),
  403: error('a Host not naming this machine, or a write from another website'),
  500: error('unexpected failure (sanitized message)'),
};
const writes = { ...common, 415: error('a body other than application/json or multipart/form-data') };
const limited = {
  413: error('body larger than the limit'),
  429: error('rate limit reached; see Retry-After'),
};

const AgentPath = z.object({
  agentId: z.string().openapi({
    param: { name: 'agentId', in: 'path' },
    example: contract.AGENT_KEY,
  }),
});
const ToolPath = z.object({
  toolId: z.string().openapi({
    param: { name: 'toolId', in: 'path' },
    example: 'searchDocs',
  }),
});
export const NamespacePath = z.object({
  namespace: contract.Namespace.clone().openapi({
    param: { name: 'namespace', in: 'path' },
    example: 'docs',
  }),
});
export const DocumentPath = NamespacePath.extend({
  documentId: z.string().openapi({ param: { name: 'documentId', in: 'path' } }),
});

const answerRequest = { params: AgentPath, ...requiredJson(schemas.GenerateRequest) };
const answerRefusals = {
  400: error('invalid request, naming the field'),
  404: error('agent not found'),
  405: error('method other than POST'),
  ...limited,
  ...writes,
};

/** The Mastra-compatible routes of the agent. */
export const agentRoutes = {
  status: createRoute({
    method: 'get',
    path: '/api',
    summary: 'Server status',
    responses: { ...ok(schemas.AgentStatus, 'status'), ...common },
  }),
  openApi: createRoute({
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document (public even with AGENT_API_KEY, so Swagger UI can load it)',
    responses: { 200: { description: 'the OpenAPI 3.1 document' }, 403: common[403] },
  }),
  agents: createRoute({
    method: 'get',
    path: '/api/agents',
    summary: 'The agents, keyed by id (Mastra)',
    responses: { ...ok(schemas.AgentCards, 'agents'), ...common },
  }),
  agent: createRoute({
    method: 'get',
    path: '/api/agents/{agentId}',
    summary: 'One agent: name, instructions, tools (Mastra)',
    request: { params: AgentPath },
    responses: { ...ok(schemas.AgentCard, 'agent'), 404: error('agent not found'), ...common },
  }),
  generate: createRoute({
    method: 'post',
    path: '/api/agents/{agentId}/generate',
    summary:
      'Answer a chat from the knowledge namespace (replies only when mentioned unless requireMention is false)',
    request: answerRequest,
    responses: {
      ...ok(
        schemas.GenerateResponse,
        'the answer, ending in a Sources: list, or text "" with addressed: false',
      ),
      ...answerRefusals,
    },
  }),
  stream: createRoute({
    method: 'post',
    path: '/api/agents/{agentId}/stream',
    summary: 'The same answer as server-sent events in Mastra format, ending with data: [DONE]',
    request: answerRequest,
    responses: {
      200: {
        description: 'event stream',
        content: { 'text/event-stream': { schema: schemas.AgentStreamFrame } },
      },
      ...answerRefusals,
    },
  }),
  tools: createRoute({
    method: 'get',
    path: '/api/tools',
    summary: 'The tools, keyed by id (Mastra)',
    responses: { ...ok(schemas.ToolCards, 'tools'), ...common },
  }),
  tool: createRoute({
    method: 'get',
    path: '/api/tools/{toolId}',
    summary: 'One tool',
    request: { params: ToolPath },
    responses: { ...ok(schemas.ToolCard, 'tool'), 404: error('tool not found'), ...common },
  }),
  ingestSources: createRoute({
    method: 'post',
    path: '/api/tools/ingestSources',
    summary:
      'Ingest URLs, paths under INGEST_ROOTS, raw text, or uploaded files into a namespace; ' +
      'with Accept: text/event-stream, each step as it happens',
    request: {
      body: {
        required: true,
        content: {
          'application/json': { schema: schemas.IngestRequest },
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                namespace: { type: 'string' },
                sources: { type: 'array', items: { type: 'string' } },
                files: { type: 'array', items: { type: 'string', format: 'binary' } },
              },
            },
          },
        },
      },
    },
    responses: {
      200: {
        description: 'one result per source; failures do not fail the request',
        content: {
          'application/json': { schema: schemas.IngestResponse },
          'text/event-stream': { schema: schemas.IngestProgress },
        },
      },
      400: error('invalid request, naming the field'),
      ...limited,
      ...writes,
    },
  }),
  searchDocs: createRoute({
    method: 'post',
    path: '/api/tools/searchDocs',
    summary: 'Search a namespace for the best passages with their sources',
    request: requiredJson(schemas.SearchRequest),
    responses: {
      ...ok(schemas.SearchResponse),
      400: error('invalid request, naming the field'),
      413: limited[413],
      ...writes,
    },
  }),
  executeTool: createRoute({
    method: 'post',
    path: '/api/tools/{toolId}/execute',
    summary: 'Run a tool with {data: <its input>} (Mastra); the answer is the tool output',
    request: { params: ToolPath, ...requiredJson(schemas.ExecuteToolRequest) },
    responses: {
      200: {
        description: 'the tool output',
        content: {
          'application/json': { schema: schemas.IngestResponse.or(schemas.SearchResponse) },
        },
      },
      400: error('invalid data, naming the field'),
      404: error('tool not found'),
      ...limited,
      ...writes,
    },
  }),
};

/** The knowledge library under `/api/namespaces` (paths relative to it), used by the knowledge app window. */
export const libraryRouteDefinitions = {
  namespaces: createRoute({
    method: 'get',
    path: '/',
    summary: 'The namespaces with their document and chunk counts',
    responses: { ...ok(schemas.NamespaceList), ...common },
  }),
  createNamespace: createRoute({
    method: 'post',
    path: '/',
    summary: 'Create an empty namespace',
    request: requiredJson(schemas.CreateNamespaceRequest),
    responses: {
      201: { description: 'created', ...json(schemas.NamespaceSummary) },
      400: error('invalid name'),
      409: error('the namespace exists'),
      ...writes,
    },
  }),
  deleteNamespace: createRoute({
    method: 'delete',
    path: '/{namespace}',
    summary: 'Delete a namespace with its documents and index',
    request: { params: NamespacePath },
    responses: { ...ok(schemas.NamespaceDeleted), 404: error('namespace not found'), ...writes },
  }),
  documents: createRoute({
    method: 'get',
    path: '/{namespace}/documents',
    summary: "A namespace's documents: title, type, size, pages, chunks, time, warnings",
    request: { params: NamespacePath },
    responses: { ...ok(schemas.DocumentList), 404: error('namespace not found'), ...common },
  }),
  removeDocument: createRoute({
    method: 'delete',
    path: '/{namespace}/documents/{documentId}',
    summary: 'Remove one document from a namespace',
    request: { params: DocumentPath },
    responses: { ...ok(schemas.DocumentRemoved), 404: error('namespace or document not found'), ...writes },
  }),
  reingestDocument: createRoute({
    method: 'post',
    path: '/{namespace}/documents/{documentId}/reingest',
    summary: 'Parse a document again from its file, URL or stored text',
    request: { params: DocumentPath },
    responses: {
      ...writes,
      ...ok(schemas.IngestResponse),
      403: error('the original file is outside the folders this agent may read'),
      404: error('namespace or document not found'),
      ...limited,
    },
  }),
  documentText: createRoute({
    method: 'get',
    path: '/{namespace}/documents/{documentId}/text',
    summary: "A document's stored text (PDF pages joined by a form feed)",
    request: { params: DocumentPath },
    responses: { ...ok(schemas.DocumentText), 404: error('namespace or document not found'), ...common },
  }),
  documentFile: createRoute({
    method: 'get',
    path: '/{namespace}/documents/{documentId}/file',
    summary: "A PDF's original bytes, to open a citation at its page",
    request: { params: DocumentPath },
    responses: {
      200: {
        description: 'the PDF',
        content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
      },
      ...common,
      403: error('the original file is outside the folders this agent may read'),
      404: error('not a PDF, or its file is gone'),
    },
  }),
};

/** The document's header and the two ways to send AGENT_API_KEY. */
export function describeApi(app: OpenAPIHono): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'AGENT_API_KEY',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'AGENT_API_KEY',
  });
}

export const OPENAPI_HEADER: Parameters<OpenAPIHono['getOpenAPI31Document']>[0] = {
  openapi: '3.1.0',
  info: {
    title: 'Parley knowledge agent',
    version: '1.0.0',
    description:
      'Mastra-compatible API of the local knowledge agent: ingest sources into namespaces, search them, ' +
      'and get grounded answers with [n] citations and a Sources: list; and the knowledge library ' +
      'the knowledge app window manages them with.',
  },
  servers: [{ url: '/' }],
  security: [{}, { bearer: [] }, { apiKey: [] }],
};

/**
 * Serves a route and puts its definition into the document. Bodies and path parameters are read
 * and validated in the handlers by the shared toolkit (`readJson`, `parseWith`) against the schemas
 * the definitions document, not by zod-openapi's validator: generate's messages are normalized from
 * Mastra's forms before validation, bodies keep the fast read path (the validator reads through a
 * web Request, which costs searchDocs CPU), and refusals keep naming the field at fault.
 */
export function mountRoute<E extends Env>(
  app: OpenAPIHono<E>,
  route: RouteConfig & { getRoutingPath(): string },
  ...handlers: [...MiddlewareHandler<E>[], Handler<E>]
): void {
  app.openAPIRegistry.registerPath(route);
  app.on(route.method.toUpperCase(), route.getRoutingPath(), ...(handlers as [Handler<E>]));
}
