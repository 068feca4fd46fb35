import { z } from 'zod';
import {
  AgentError,
  AgentStreamFrame,
  Citation,
  DocumentList,
  DocumentText,
  GenerateResponse,
  IngestProgress,
  IngestResponse,
  NamespaceList,
  NamespaceSummary,
  SearchResponse,
  type DocumentSummary,
  type GenerateRequest,
  type IngestRequest,
  type IngestStep,
  type SearchRequest,
} from './agent.js';
import { readEventStream } from './event-stream.js';
import { joinUrl, requestJson, type Fetch, type JsonRequest } from './http.js';

export const DEFAULT_AGENT_BASE_URL = 'http://127.0.0.1:4111/api';

export interface AgentClientOptions {
  /** The agent server's API root, e.g. `http://127.0.0.1:4111/api`. */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer <key>` when the server runs with AGENT_API_KEY. */
  apiKey?: string;
  agentId?: string;
  fetch?: Fetch;
}

/** An error answered by the agent server: its HTTP status and its sanitized message. */
export class AgentApiError extends Error {
  override readonly name = 'AgentApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What a streamed answer ends with: the whole text, its citations, and whether the agent was addressed. */
export interface StreamedAnswer {
  text: string;
  sources: Citation[];
  addressed: boolean;
}

const FinishPayload = z.object({
  text: z.string().optional(),
  sources: z.array(Citation).default([]),
  addressed: z.boolean().default(true),
});
const Acknowledged = z.object({}).loose();

function toAgentError(status: number, body: unknown): AgentApiError {
  const parsed = AgentError.safeParse(body);
  return new AgentApiError(
    status,
    parsed.success ? parsed.data.error : `agent server answered HTTP ${status}`,
  );
}

/**
 * Typed client of the knowledge agent's HTTP API: ingest (with progress), search, generate and
 * stream, and the knowledge library (namespaces and documents).
 */
export class AgentClient {
  readonly baseUrl: string;
  readonly agentId: string;
  readonly #apiKey: string | undefined;
  readonly #fetch: Fetch;

  constructor(options: AgentClientOptions = {}) {
    this.baseUrl = options.baseUrl ?? DEFAULT_AGENT_BASE_URL;
    this.agentId = options.agentId ?? 'knowledge';
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  ingest(request: IngestRequest): Promise<IngestResponse> {
    return this.#send({
      method: 'POST',
      path: '/tools/ingestSources',
      body: request,
      schema: IngestResponse,
    });
  }

  search(request: SearchRequest): Promise<SearchResponse> {
    return this.#send({ method: 'POST', path: '/tools/searchDocs', body: request, schema: SearchResponse });
  }

  generate(request: GenerateRequest): Promise<GenerateResponse> {
    const path = `/agents/${encodeURIComponent(this.agentId)}/generate`;
    return this.#send({ method: 'POST', path, body: request, schema: GenerateResponse });
  }

  /**
   * Ingests with progress: JSON sources, or a form with `namespace` and file parts (uploads).
   * `onProgress` sees each step of each source as the server reports it.
   */
  async ingestWithProgress(
    request: IngestRequest | FormData,
    onProgress: (step: IngestStep) => void,
  ): Promise<IngestResponse> {
    const form = request instanceof FormData;
    const response = await this.#fetch(joinUrl(this.baseUrl, '/tools/ingestSources'), {
      method: 'POST',
      headers: this.#headers({
        accept: 'text/event-stream',
        ...(form ? {} : { 'content-type': 'application/json' }),
      }),
      body: form ? request : JSON.stringify(request),
    });
    if (!response.ok) throw toAgentError(response.status, await response.json().catch(() => undefined));
    let outcome: IngestResponse | AgentApiError | undefined;
    await readEventStream(response, (data) => {
      if (data === '[DONE]') return;
      const event = IngestProgress.parse(JSON.parse(data));
      if (event.type === 'done') outcome = event.response;
      else if (event.type === 'error') outcome = new AgentApiError(500, event.error);
      else onProgress(event);
    });
    if (outcome instanceof Error) throw outcome;
    if (!outcome) throw new AgentApiError(502, 'the ingest stream ended before the answer');
    return outcome;
  }

  /** Asks the agent and hands each piece of the answer to `onText` as it streams in. */
  async stream(request: GenerateRequest, onText: (piece: string) => void): Promise<StreamedAnswer> {
    const path = `/agents/${encodeURIComponent(this.agentId)}/stream`;
    const response = await this.#fetch(joinUrl(this.baseUrl, path), {
      method: 'POST',
      headers: this.#headers({ accept: 'text/event-stream', 'content-type': 'application/json' }),
      body: JSON.stringify(request),
    });
    if (!response.ok) throw toAgentError(response.status, await response.json().catch(() => undefined));
    let text = '';
    let finish: z.infer<typeof FinishPayload> | undefined;
    await readEventStream(response, (data) => {
      if (data === '[DONE]') return;
      const frame = AgentStreamFrame.parse(JSON.parse(data));
      if (frame.type === 'text-delta' && typeof frame.payload.text === 'string') {
        text += frame.payload.text;
        onText(frame.payload.text);
      } else if (frame.type === 'finish') finish = FinishPayload.parse(frame.payload);
    });
    if (!finish) throw new AgentApiError(502, 'the answer stream ended before it finished');
    return { text: finish.text ?? text, sources: finish.sources, addressed: finish.addressed };
  }

  namespaces(): Promise<NamespaceSummary[]> {
    return this.#send({ method: 'GET', path: '/namespaces', schema: NamespaceList }).then(
      (list) => list.namespaces,
    );
  }

  createNamespace(name: string): Promise<NamespaceSummary> {
    return this.#send({ method: 'POST', path: '/namespaces', body: { name }, schema: NamespaceSummary });
  }

  async deleteNamespace(name: string): Promise<void> {
    await this.#send({ method: 'DELETE', path: this.#namespacePath(name), schema: Acknowledged });
  }

  documents(namespace: string): Promise<DocumentSummary[]> {
    const path = `${this.#namespacePath(namespace)}/documents`;
    return this.#send({ method: 'GET', path, schema: DocumentList }).then((list) => list.documents);
  }

  async removeDocument(namespace: string, documentId: string): Promise<void> {
    const path = this.#documentPath(namespace, documentId);
    await this.#send({ method: 'DELETE', path, schema: Acknowledged });
  }

  reingestDocument(namespace: string, documentId: string): Promise<IngestResponse> {
    const path = `${this.#documentPath(namespace, documentId)}/reingest`;
    return this.#send({ method: 'POST', path, body: {}, schema: IngestResponse });
  }

  documentText(namespace: string, documentId: string): Promise<DocumentText> {
    const path = `${this.#documentPath(namespace, documentId)}/text`;
    return this.#send({ method: 'GET', path, schema: DocumentText });
  }

  /** The original bytes of a PDF document, for the viewer. */
  async documentFile(namespace: string, documentId: string): Promise<Uint8Array> {
    const path = `${this.#documentPath(namespace, documentId)}/file`;
    const response = await this.#fetch(joinUrl(this.baseUrl, path), { headers: this.#headers({}) });
    if (!response.ok) throw toAgentError(response.status, await response.json().catch(() => undefined));
    return new Uint8Array(await response.arrayBuffer());
  }

  #namespacePath(namespace: string): string {
    return `/namespaces/${encodeURIComponent(namespace)}`;
  }

  #documentPath(namespace: string, documentId: string): string {
    return `${this.#namespacePath(namespace)}/documents/${encodeURIComponent(documentId)}`;
  }

  #headers(headers: Record<string, string>): Record<string, string> {
    return this.#apiKey ? { ...headers, authorization: `Bearer ${this.#apiKey}` } : headers;
  }

  #send<T>(request: JsonRequest<T>): Promise<T> {
    const headers = this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : undefined;
    return requestJson(this.#fetch, this.baseUrl, { ...request, headers }, toAgentError);
  }
}
