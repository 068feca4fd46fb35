import { z } from 'zod';

/**
 * Contracts of the knowledge agent's HTTP API (service interface part B, Mastra-compatible).
 * The server validates with these schemas; `AgentClient` and the desktop window type with them.
 */

/** A namespace names the folder `knowledge/<namespace>`: lower case, no path separators, ≤ 64 chars. */
export const NAMESPACE_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const DEFAULT_NAMESPACE = 'default';
export const AGENT_KEY = 'knowledge';

export const Namespace = z
  .string()
  .regex(
    NAMESPACE_PATTERN,
    'a namespace is 1-64 of a-z, 0-9, ".", "_" or "-", starting with a letter or digit',
  );

export const ChatTurn = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string(),
});
export type ChatTurn = z.infer<typeof ChatTurn>;

export const GenerateRequest = z.looseObject({
  messages: z.array(ChatTurn).min(1, 'at least one chat turn is needed'),
  toolParams: z.looseObject({ namespace: Namespace.optional() }).optional(),
  /** Whether the latest user turn must mention the agent; `false` for one-on-one chats with it. */
  requireMention: z.boolean().optional(),
});
export type GenerateRequest = z.infer<typeof GenerateRequest>;

export const RawText = z.object({
  title: z.string().max(500).optional(),
  text: z.string().min(1, 'text must not be empty'),
});
export type RawText = z.infer<typeof RawText>;

export const IngestRequest = z
  .object({
    namespace: Namespace.default(DEFAULT_NAMESPACE),
    /** URLs, file or folder paths, or raw text, as the reference agent accepts. */
    sources: z.array(z.string().min(1)).optional(),
    files: z.array(z.string().min(1)).optional(),
    texts: z.array(RawText).optional(),
  })
  .refine((r) => (r.sources?.length ?? 0) + (r.files?.length ?? 0) + (r.texts?.length ?? 0) > 0, {
    message: 'give at least one of sources, files or texts',
    path: ['sources'],
  });
export type IngestRequest = z.input<typeof IngestRequest>;

export const IngestStatus = z.enum(['indexed', 'unchanged', 'failed']);

export const IngestedSource = z.object({
  source: z.string(),
  status: IngestStatus,
  documentId: z.string().optional(),
  title: z.string().optional(),
  pages: z.number().int().nonnegative().optional(),
  chunks: z.number().int().nonnegative().optional(),
  error: z.string().optional(),
});
export type IngestedSource = z.infer<typeof IngestedSource>;

export const IngestResponse = z.object({
  namespace: Namespace,
  results: z.array(IngestedSource),
});
export type IngestResponse = z.infer<typeof IngestResponse>;

/**
 * The longest query (and generate question) the agent takes by default, in UTF-8 bytes; a server
 * may be configured otherwise (`AGENT_MAX_QUERY_BYTES`). A long query is not refused below it: it
 * is searched by its most informative terms.
 */
export const DEFAULT_MAX_QUERY_BYTES = 32 * 1024;

export const SearchRequest = z.object({
  query: z.string().trim().min(1, 'query must not be empty'),
  namespace: Namespace.default(DEFAULT_NAMESPACE),
  maxResults: z.number().int().min(1).max(100).default(6),
});
export type SearchRequest = z.input<typeof SearchRequest>;

/** Where a passage comes from: enough for a citation to open the exact place. */
export const SourceRef = z.object({
  documentId: z.string(),
  title: z.string(),
  /** The server's own path of a file: for this machine's windows, never for chat users. */
  path: z.string().optional(),
  /** A file's name within its namespace (relative to the namespace folder, else the file name). */
  name: z.string().optional(),
  url: z.string().optional(),
  page: z.number().int().positive().optional(),
  /** The heading the passage sits under: the last of `headingPath`. */
  heading: z.string().optional(),
  /** Headings from the document's outermost to the one the passage sits under. */
  headingPath: z.array(z.string()).optional(),
});
export type SourceRef = z.infer<typeof SourceRef>;

export const SearchHit = z.object({
  text: z.string(),
  score: z.number(),
  source: SourceRef,
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchResponse = z.object({
  results: z.array(SearchHit),
  namespace: Namespace,
  query: z.string(),
});
export type SearchResponse = z.infer<typeof SearchResponse>;

export const Citation = SourceRef.extend({
  n: z.number().int().positive(),
  snippet: z.string(),
  score: z.number(),
});
export type Citation = z.infer<typeof Citation>;

export const GenerateResponse = z.object({
  text: z.string(),
  finishReason: z.string(),
  usage: z.object({
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    totalTokens: z.number().int().nonnegative(),
  }),
  sources: z.array(Citation),
  /** False when the latest turn did not mention the agent: a chat bridge then posts nothing. */
  addressed: z.boolean(),
  response: z.object({
    id: z.string(),
    timestamp: z.string(),
    modelId: z.string(),
    messages: z.array(z.unknown()),
  }),
});
export type GenerateResponse = z.infer<typeof GenerateResponse>;

/**
 * What the chat service's agent bridge reads of a generate answer. Agents registered in the
 * dashboard need not be Parley's, so it asks less than `GenerateResponse`: sources are read as plain
 * objects (the bridge copies only the fields it knows), and `addressed` defaults to true.
 */
export const AgentAnswer = z.looseObject({
  text: GenerateResponse.shape.text,
  sources: z.array(z.record(z.string(), z.unknown())).default([]),
  addressed: GenerateResponse.shape.addressed.default(true),
});
export type AgentAnswer = z.infer<typeof AgentAnswer>;

/** `GET /api`: whether the agent is up, and what it offers. */
export const AgentStatus = z.object({
  status: z.literal('ok'),
  service: z.string(),
  agents: z.array(z.string()),
  tools: z.array(z.string()),
  /** The language model's id, or `extractive` for offline answers. */
  model: z.string(),
  /** Whether requests need `AGENT_API_KEY`. */
  auth: z.boolean(),
});
export type AgentStatus = z.infer<typeof AgentStatus>;

/** A tool as Mastra lists it: its schemas as JSON strings of `{json: <JSON Schema>}` (superjson form). */
export const ToolCard = z.object({
  id: z.string(),
  description: z.string(),
  inputSchema: z.string(),
  outputSchema: z.string(),
});
export type ToolCard = z.infer<typeof ToolCard>;

/** `GET /api/tools`: the tools, keyed by id. */
export const ToolCards = z.record(z.string(), ToolCard);

/** An agent as Mastra's `GET /api/agents/:agentId` describes one. */
export const AgentCard = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  instructions: z.string(),
  tools: ToolCards,
  workflows: z.record(z.string(), z.unknown()),
  agents: z.record(z.string(), z.unknown()),
  provider: z.string(),
  modelId: z.string(),
  modelVersion: z.string(),
  defaultGenerateOptions: z.record(z.string(), z.unknown()),
  defaultStreamOptions: z.record(z.string(), z.unknown()),
});
export type AgentCard = z.infer<typeof AgentCard>;

/** `GET /api/agents`: the agents, keyed by id. */
export const AgentCards = z.record(z.string(), AgentCard);

/** `POST /api/tools/:toolId/execute`: a tool's input the Mastra way, in `data`. */
export const ExecuteToolRequest = z.object({ data: z.unknown() });

/** The agent's error body: a sanitized message, never a stack, a path or a secret. */
export const AgentError = z.object({ error: z.string() });
export type AgentError = z.infer<typeof AgentError>;

/**
 * One server-sent event of `POST /api/agents/:agentId/stream`, in Mastra's format
 * (`data: {type, runId, from, payload}`; the stream ends with `data: [DONE]`). Types sent:
 * start, step-start, text-start, text-delta (`payload.text`), text-end, source, step-finish, and
 * finish, whose payload carries `usage`, `sources` (Citation[]) and `addressed`.
 */
export const AgentStreamFrame = z.looseObject({
  type: z.string(),
  runId: z.string(),
  from: z.string(),
  payload: z.record(z.string(), z.unknown()),
});
export type AgentStreamFrame = z.infer<typeof AgentStreamFrame>;

/*
 * The knowledge library routes under `/api/namespaces`, which the knowledge app window uses to
 * manage what the agent knows (not part of Mastra's API).
 */

export const NamespaceSummary = z.object({
  name: Namespace,
  documents: z.number().int().nonnegative(),
  chunks: z.number().int().nonnegative(),
  /** Why the namespace could not be read, if it could not. */
  error: z.string().optional(),
});
export type NamespaceSummary = z.infer<typeof NamespaceSummary>;

export const NamespaceList = z.object({ namespaces: z.array(NamespaceSummary) });
export type NamespaceList = z.infer<typeof NamespaceList>;

export const CreateNamespaceRequest = z.object({ name: Namespace });

export const NamespaceDeleted = z.object({ namespace: Namespace, deleted: z.literal(true) });
export type NamespaceDeleted = z.infer<typeof NamespaceDeleted>;

export const DocumentRemoved = z.object({
  namespace: Namespace,
  documentId: z.string(),
  removed: z.literal(true),
});
export type DocumentRemoved = z.infer<typeof DocumentRemoved>;

export const DocumentSummary = z.object({
  documentId: z.string(),
  /** What a person recognises: the path (uploads as `uploads/<namespace>/<file>`), the URL, or `text: <title>`. */
  source: z.string(),
  kind: z.enum(['file', 'url', 'text']),
  path: z.string().optional(),
  url: z.string().optional(),
  title: z.string(),
  format: z.enum(['pdf', 'markdown', 'html', 'text']),
  pages: z.number().int().nonnegative().optional(),
  chunks: z.number().int().nonnegative(),
  /** Bytes read from the source. */
  size: z.number().int().nonnegative(),
  ingestedAt: z.string(),
  warnings: z.array(z.string()),
});
export type DocumentSummary = z.infer<typeof DocumentSummary>;

export const DocumentList = z.object({ namespace: Namespace, documents: z.array(DocumentSummary) });
export type DocumentList = z.infer<typeof DocumentList>;

/** A document's stored text: PDF pages joined by a form feed, Markdown with its `#` headings. */
export const DocumentText = z.object({
  documentId: z.string(),
  title: z.string(),
  format: DocumentSummary.shape.format,
  text: z.string(),
});
export type DocumentText = z.infer<typeof DocumentText>;

/**
 * One server-sent event of `POST /api/tools/ingestSources` asked with `Accept: text/event-stream`:
 * a step of one source (named by its label), then `done` with the whole answer, or `error`.
 */
export const IngestProgress = z.discriminatedUnion('type', [
  z.object({ type: z.literal('queued'), source: z.string() }),
  z.object({
    type: z.literal('parsing'),
    source: z.string(),
    page: z.number().int().nonnegative(),
    pages: z.number().int().nonnegative(),
  }),
  z.object({
    type: z.literal('indexed'),
    source: z.string(),
    documentId: z.string(),
    title: z.string(),
    pages: z.number().int().nonnegative().optional(),
    chunks: z.number().int().nonnegative(),
    warnings: z.array(z.string()),
  }),
  z.object({ type: z.literal('unchanged'), source: z.string(), documentId: z.string() }),
  z.object({ type: z.literal('removed'), source: z.string(), documentId: z.string() }),
  z.object({ type: z.literal('failed'), source: z.string(), error: z.string() }),
  z.object({ type: z.literal('done'), response: IngestResponse }),
  z.object({ type: z.literal('error'), error: z.string() }),
]);
export type IngestProgress = z.infer<typeof IngestProgress>;
/** A step of one source, as `AgentClient.ingestWithProgress` reports it. */
export type IngestStep = Exclude<IngestProgress, { type: 'done' } | { type: 'error' }>;
