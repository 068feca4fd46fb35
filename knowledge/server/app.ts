import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { streamSSE } from 'hono/streaming';
import {
  AGENT_KEY,
  DEFAULT_NAMESPACE,
  GenerateRequest,
  Namespace,
  type AgentStatus,
} from '../../shared/agent.js';
import { answerChat } from '../agent/answer.js';
import { latestUserTurn } from '../agent/question.js';
import { describeAgent, describeTool, describeTools } from './agent-card.js';
import { acceptWritesFromOwnPagesAndServers, serveOnlyThisMachine } from './callers.js';
import type { KnowledgeBackend } from './backend.js';
import { answerSettings, type AgentServerConfig } from './config.js';
import { generateResponse } from './generate-response.js';
import { corsFor, limitBody, rateLimit, requireApiKey } from './guards.js';
import {
  createLogger,
  isMultipart,
  parseWith,
  readForm,
  readJson,
  requestLines,
  RequestProblem,
  type Logger,
} from '../../shared/server-kit/index.js';
import { errorReply } from './http-errors.js';
import { acceptsEventStream, streamIngest } from './ingest-stream.js';
import { libraryRoutes } from './library.js';
import { normalizeMastraMessages } from './mastra-messages.js';
import { agentRoutes, describeApi, mountRoute, OPENAPI_HEADER } from './openapi.js';
import { streamFrames } from './stream-frames.js';
import { swaggerUi } from './swagger-ui.js';
import {
  findTool,
  ingestSourcesTool,
  refuseOverlongQuery,
  searchDocsTool,
  type AgentTool,
  type ToolContext,
} from './tools.js';
import { saveUploads, withPublicUploadPaths } from './uploads.js';

export interface AgentAppOptions {
  config: AgentServerConfig;
  backend: KnowledgeBackend;
  /** The knowledge app UI served at `/` (built by the desktop issue); without it `/` leads to Swagger UI. */
  ui?: Hono;
  /** Request lines and failures, one JSON line each; never a body, a stack or a secret. */
  logger?: Logger;
}

const SMALL_BODY = 1024 * 1024;

/**
 * The knowledge agent's HTTP API: Mastra-compatible agent and tool routes, the knowledge library,
 * the OpenAPI document generated from the routes' definitions, Swagger UI.
 */
export function createAgentApp(options: AgentAppOptions): OpenAPIHono {
  const { config } = options;
  const backend = withPublicUploadPaths(options.backend, config.uploadDir);
  const secrets = [config.apiKey, config.languageModel?.apiKey].filter((value): value is string =>
    Boolean(value),
  );
  const tools: ToolContext = {
    backend,
    secrets,
    readableRoots: [...config.ingestRoots, config.uploadDir],
    maxQueryBytes: config.maxQueryBytes,
  };
  const logger = options.logger ?? createLogger();
  const app = new OpenAPIHono();

  app.onError((error, c) => {
    const reply = errorReply(error, secrets);
    if (reply.status >= 500) {
      logger.error('request_failed', {
        method: c.req.method,
        route: c.req.routePath,
        error: error instanceof Error ? error.name : 'unknown',
        reason: reply.message,
      });
    }
    return c.json({ error: reply.message }, reply.status);
  });
  app.notFound((c) => c.json({ error: 'route not found' }, 404));
  app.use(requestLines(logger));
  describeApi(app);
  // Before anything else, whatever the key: who may be served at all, and who may change things.
  app.use(serveOnlyThisMachine(config.allowedHosts));
  app.use(acceptWritesFromOwnPagesAndServers(config.corsOrigins));
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        unknownAgent(c)
          ? c.json({ error: 'agent not found' }, 404)
          : c.json({ error: `method ${c.req.method} not allowed: use ${methods.join(', ')}` }, 405, {
              Allow: methods.join(', '),
            }),
    }),
  );

  app.use('/api/*', corsFor(config.corsOrigins));
  if (config.apiKey) {
    const guard = requireApiKey(config.apiKey);
    // The interface description is public so Swagger UI can load it before the key is entered.
    app.use('/api/*', (c, next) => (c.req.path === '/api/openapi.json' ? next() : guard(c, next)));
  }

  const ingestGuards = [rateLimit(config.rateLimitPerMinute), limitBody(config.ingestMaxBytes)] as const;
  const generateGuards = [rateLimit(config.rateLimitPerMinute), limitBody(config.generateMaxBytes)] as const;

  mountRoute(app, agentRoutes.status, (c) =>
    c.json({
      status: 'ok',
      service: 'parley knowledge agent',
      agents: [AGENT_KEY],
      tools: [ingestSourcesTool.id, searchDocsTool.id],
      model: config.languageModel?.model ?? 'extractive',
      auth: Boolean(config.apiKey),
    } satisfies AgentStatus),
  );
  // Generated once, on first request: every route is mounted by then.
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  mountRoute(app, agentRoutes.openApi, (c) =>
    c.json((document ??= app.getOpenAPI31Document(OPENAPI_HEADER))),
  );

  mountRoute(app, agentRoutes.agents, (c) => c.json({ [AGENT_KEY]: describeAgent(config) }));
  mountRoute(app, agentRoutes.agent, (c) => {
    if (unknownAgent(c)) return c.json({ error: 'agent not found' }, 404);
    return c.json(describeAgent(config));
  });

  const answer = async (c: Context) => {
    if (unknownAgent(c)) throw new RequestProblem(404, 'agent not found');
    const request = parseWith(GenerateRequest, normalizeMastraMessages(await readJson(c, 'refuse')));
    const question = latestUserTurn(request.messages);
    if (question >= 0) {
      const content = request.messages[question]?.content ?? '';
      refuseOverlongQuery(`messages[${question}].content`, content, config.maxQueryBytes);
    }
    return generateResponse(await answerChat(request, backend, answerSettings(config)), randomUUID());
  };
  mountRoute(app, agentRoutes.generate, ...generateGuards, async (c) => c.json(await answer(c)));
  mountRoute(app, agentRoutes.stream, ...generateGuards, async (c) => {
    const response = await answer(c);
    return streamSSE(c, async (stream) => {
      for (const frame of streamFrames(response)) await stream.writeSSE({ data: JSON.stringify(frame) });
      await stream.writeSSE({ data: '[DONE]' });
    });
  });

  mountRoute(app, agentRoutes.tools, (c) => c.json(describeTools()));
  mountRoute(app, agentRoutes.tool, (c) => {
    const tool = findTool(c.req.param('toolId') ?? '');
    return tool ? c.json(describeTool(tool)) : c.json({ error: 'tool not found' }, 404);
  });

  const run = async (tool: AgentTool, data: unknown) =>
    tool.execute(parseWith(tool.inputSchema, data), tools);
  mountRoute(app, agentRoutes.ingestSources, ...ingestGuards, async (c) => {
    const request = parseWith(ingestSourcesTool.inputSchema, await ingestBody(c, config.uploadDir));
    if (!acceptsEventStream(c)) return c.json(await ingestSourcesTool.execute(request, tools));
    return streamIngest(c, secrets, (onProgress) =>
      ingestSourcesTool.execute(request, { ...tools, onProgress }),
    );
  });
  mountRoute(app, agentRoutes.searchDocs, limitBody(SMALL_BODY), async (c) =>
    c.json(await run(searchDocsTool, await readJson(c, 'refuse'))),
  );
  mountRoute(
    app,
    agentRoutes.executeTool,
    (c, next) => (c.req.param('toolId') === ingestSourcesTool.id ? ingestGuards[0](c, next) : next()),
    (c, next) =>
      limitBody(c.req.param('toolId') === ingestSourcesTool.id ? config.ingestMaxBytes : SMALL_BODY)(c, next),
    async (c) => {
      const tool = findTool(c.req.param('toolId') ?? '');
      if (!tool) return c.json({ error: 'tool not found' }, 404);
      const body = await readJson(c, 'refuse');
      if (typeof body !== 'object' || body === null || !('data' in body)) {
        throw new RequestProblem(400, 'data: the tool input goes in {"data": …}');
      }
      return c.json(await run(tool, body.data));
    },
  );

  app.route(
    '/api/namespaces',
    libraryRoutes({
      backend,
      files: options.backend,
      readableRoots: tools.readableRoots,
      secrets,
      ingestGuards,
    }),
  );

  app.route('/swagger-ui', swaggerUi());
  app.get('/swagger-ui/', (c) => c.redirect('/swagger-ui'));
  if (options.ui) app.route('/', options.ui);
  else app.get('/', (c) => c.redirect('/swagger-ui'));
  return app;
}

/** Whether the path names an agent other than ours (read from the path: it may match no route). */
function unknownAgent(c: Context): boolean {
  const agentId = /^\/api\/agents\/([^/]+)/.exec(c.req.path)?.[1];
  return agentId !== undefined && agentId !== AGENT_KEY;
}

/**
 * The ingest input from JSON, or from `multipart/form-data`: `namespace` and `sources` fields,
 * and any number of file parts, saved under the upload folder and ingested as files.
 */
async function ingestBody(c: Context, uploadDir: string): Promise<unknown> {
  if (!isMultipart(c)) return readJson(c, 'refuse');
  const form = await readForm(c);
  const values = (name: string) => form.getAll(name);
  const namespace = parseWith(
    Namespace.optional(),
    values('namespace').find((v) => typeof v === 'string'),
  );
  const files = [...form.values()].filter((value): value is File => value instanceof File);
  const saved = files.length > 0 ? await saveUploads(uploadDir, namespace ?? DEFAULT_NAMESPACE, files) : [];
  const sources = values('sources').filter(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  return {
    ...(namespace ? { namespace } : {}),
    ...(sources.length > 0 ? { sources } : {}),
    ...(saved.length > 0 ? { files: saved } : {}),
  };
}
