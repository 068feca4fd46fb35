import type { z } from 'zod';
import {
  IngestRequest,
  IngestResponse,
  SearchRequest,
  SearchResponse,
  type IngestedSource,
} from '../../shared/agent.js';
import { detectSource } from '../loaders/index.js';
import type { SourceInput } from '../types.js';
import type { KnowledgeBackend } from './backend.js';
import { sanitizeMessage } from './sanitize.js';

/** A tool of the knowledge agent, as Mastra lists and executes it. */
export interface AgentTool<Input extends z.ZodType = z.ZodType, Output = unknown> {
  id: string;
  description: string;
  inputSchema: Input;
  outputSchema: z.ZodType<Output>;
  execute(input: z.output<Input>, context: ToolContext): Promise<Output>;
}

export interface ToolContext {
  backend: KnowledgeBackend;
  /** Values that must never appear in a response (API keys). */
  secrets: readonly string[];
}

interface PlannedInputs {
  inputs: SourceInput[];
  /** Source strings that name nothing ingestible, reported as failed without stopping the others. */
  refused: IngestedSource[];
}

function inputsOf(request: z.output<typeof IngestRequest>): PlannedInputs {
  const planned: PlannedInputs = { inputs: [], refused: [] };
  for (const raw of request.sources ?? []) {
    try {
      planned.inputs.push(detectSource(raw));
    } catch (error) {
      planned.refused.push({ source: raw, status: 'failed', error: (error as Error).message });
    }
  }
  for (const path of request.files ?? []) planned.inputs.push({ kind: 'file', path });
  for (const text of request.texts ?? []) {
    planned.inputs.push({ kind: 'text', text: text.text, ...(text.title ? { title: text.title } : {}) });
  }
  return planned;
}

export const ingestSourcesTool: AgentTool<typeof IngestRequest, IngestResponse> = {
  id: 'ingestSources',
  description:
    'Ingest URLs, file or folder paths (under the configured roots) and raw text into a knowledge namespace. ' +
    'Each source is reported with its document id, title, pages and chunks, or its error.',
  inputSchema: IngestRequest,
  outputSchema: IngestResponse,
  async execute(request, { backend, secrets }) {
    const { inputs, refused } = inputsOf(request);
    const results = inputs.length > 0 ? await backend.ingest(request.namespace, inputs) : [];
    return {
      namespace: request.namespace,
      results: [...refused, ...results].map((result): IngestedSource =>
        result.error ? { ...result, error: sanitizeMessage(result.error, secrets) } : result,
      ),
    };
  },
};

export const searchDocsTool: AgentTool<typeof SearchRequest, SearchResponse> = {
  id: 'searchDocs',
  description:
    'Search a knowledge namespace and return the best passages with their sources (title, path or URL, page, heading).',
  inputSchema: SearchRequest,
  outputSchema: SearchResponse,
  async execute(request, { backend }) {
    const results = await backend.search(request.namespace, request.query, { limit: request.maxResults });
    return { results, namespace: request.namespace, query: request.query };
  },
};

export const agentTools: readonly AgentTool[] = [ingestSourcesTool, searchDocsTool] as readonly AgentTool[];

export function findTool(id: string): AgentTool | undefined {
  return agentTools.find((tool) => tool.id === id);
}
