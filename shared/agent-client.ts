import {
  AgentError,
  GenerateResponse,
  IngestResponse,
  SearchResponse,
  type GenerateRequest,
  type IngestRequest,
  type SearchRequest,
} from './agent.js';
import { requestJson, type Fetch, type JsonRequest } from './http.js';

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

function toAgentError(status: number, body: unknown): AgentApiError {
  const parsed = AgentError.safeParse(body);
  return new AgentApiError(
    status,
    parsed.success ? parsed.data.error : `agent server answered HTTP ${status}`,
  );
}

/** Typed client of the knowledge agent's HTTP API: ingest, search and generate. */
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

  #send<T>(request: JsonRequest<T>): Promise<T> {
    const headers = this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : undefined;
    return requestJson(this.#fetch, this.baseUrl, { ...request, headers }, toAgentError);
  }
}
