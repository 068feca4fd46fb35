import { z } from 'zod';
import {
  AgentError,
  AgentStreamFrame,
  GenerateRequest,
  GenerateResponse,
  IngestRequest,
  IngestResponse,
  SearchRequest,
  SearchResponse,
} from '../../shared/agent.js';

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });
const error = (description: string) => ({ description, content: json('AgentError') });
const ok = (name: string, description = 'OK') => ({ '200': { description, content: json(name) } });
const common = {
  '401': error('AGENT_API_KEY is set and the request carries no valid key'),
  '500': error('unexpected failure (sanitized message)'),
};
const agentId = {
  name: 'agentId',
  in: 'path',
  required: true,
  schema: { type: 'string', example: 'knowledge' },
};
const toolId = {
  name: 'toolId',
  in: 'path',
  required: true,
  schema: { type: 'string', enum: ['ingestSources', 'searchDocs'] },
};
const limited = {
  '413': error('body larger than the limit'),
  '429': error('rate limit reached; see Retry-After'),
};

/** The OpenAPI 3.1 document of the agent API, its schemas generated from the zod contracts. */
export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Parley knowledge agent',
      version: '1.0.0',
      description:
        'Mastra-compatible API of the local knowledge agent: ingest sources into namespaces, search them, ' +
        'and get grounded answers with [n] citations and a Sources: list.',
    },
    servers: [{ url: '/' }],
    security: [{}, { bearer: [] }, { apiKey: [] }],
    paths: {
      '/api': {
        get: { summary: 'Server status', responses: { '200': { description: 'status' }, ...common } },
      },
      '/api/agents': {
        get: {
          summary: 'The agents, keyed by id (Mastra)',
          responses: { '200': { description: 'agents' }, ...common },
        },
      },
      '/api/agents/{agentId}': {
        get: {
          summary: 'One agent: name, instructions, tools (Mastra)',
          parameters: [agentId],
          responses: { '200': { description: 'agent' }, '404': error('agent not found'), ...common },
        },
      },
      '/api/agents/{agentId}/generate': {
        post: {
          summary:
            'Answer a chat from the knowledge namespace (replies only when mentioned unless requireMention is false)',
          parameters: [agentId],
          requestBody: { required: true, content: json('GenerateRequest') },
          responses: {
            ...ok(
              'GenerateResponse',
              'the answer, ending in a Sources: list, or text "" with addressed: false',
            ),
            '400': error('invalid request, naming the field'),
            '404': error('agent not found'),
            '405': error('method other than POST'),
            ...limited,
            ...common,
          },
        },
      },
      '/api/agents/{agentId}/stream': {
        post: {
          summary: 'The same answer as server-sent events in Mastra format, ending with data: [DONE]',
          parameters: [agentId],
          requestBody: { required: true, content: json('GenerateRequest') },
          responses: {
            '200': {
              description: 'event stream',
              content: { 'text/event-stream': { schema: ref('AgentStreamFrame') } },
            },
            '400': error('invalid request, naming the field'),
            '404': error('agent not found'),
            '405': error('method other than POST'),
            ...limited,
            ...common,
          },
        },
      },
      '/api/tools': {
        get: {
          summary: 'The tools, keyed by id (Mastra)',
          responses: { '200': { description: 'tools' }, ...common },
        },
      },
      '/api/tools/{toolId}': {
        get: {
          summary: 'One tool',
          parameters: [toolId],
          responses: { '200': { description: 'tool' }, '404': error('tool not found'), ...common },
        },
      },
      '/api/tools/{toolId}/execute': {
        post: {
          summary: 'Run a tool with {data: <its input>} (Mastra); the answer is the tool output',
          parameters: [toolId],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { type: 'object', required: ['data'], properties: { data: {} } },
              },
            },
          },
          responses: {
            '200': { description: 'IngestResponse or SearchResponse' },
            '400': error('invalid data'),
            '404': error('tool not found'),
            ...limited,
            ...common,
          },
        },
      },
      '/api/tools/ingestSources': {
        post: {
          summary: 'Ingest URLs, paths under INGEST_ROOTS, raw text, or uploaded files into a namespace',
          requestBody: {
            required: true,
            content: {
              ...json('IngestRequest'),
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
          responses: {
            ...ok('IngestResponse', 'one result per source; failures do not fail the request'),
            '400': error('invalid request'),
            ...limited,
            ...common,
          },
        },
      },
      '/api/tools/searchDocs': {
        post: {
          summary: 'Search a namespace for the best passages with their sources',
          requestBody: { required: true, content: json('SearchRequest') },
          responses: { ...ok('SearchResponse'), '400': error('invalid request'), ...common },
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'AGENT_API_KEY' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'AGENT_API_KEY' },
      },
      schemas: {
        GenerateRequest: jsonSchema(GenerateRequest, 'input'),
        GenerateResponse: jsonSchema(GenerateResponse, 'output'),
        IngestRequest: jsonSchema(IngestRequest, 'input'),
        IngestResponse: jsonSchema(IngestResponse, 'output'),
        SearchRequest: jsonSchema(SearchRequest, 'input'),
        SearchResponse: jsonSchema(SearchResponse, 'output'),
        AgentStreamFrame: jsonSchema(AgentStreamFrame, 'output'),
        AgentError: jsonSchema(AgentError, 'output'),
      },
    },
  };
}
