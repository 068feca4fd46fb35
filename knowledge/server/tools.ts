import { isAbsolute, relative, resolve } from 'node:path';
import type { z } from 'zod';
import {
  IngestRequest,
  IngestResponse,
  SearchRequest,
  SearchResponse,
  type IngestedSource,
} from '../../shared/agent.js';
import type { IngestEvent } from '../ingest/queue.js';
import { detectSource, SourceError } from '../loaders/index.js';
import type { SourceInput } from '../types.js';
import type { KnowledgeBackend } from './backend.js';
import { RequestProblem } from '../../shared/server-kit/index.js';
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
  /** Folders (absolute) local paths in a request may point into; the engine checks them again after symlinks. */
  readableRoots: readonly string[];
  /** Values that must never appear in a response (API keys). */
  secrets: readonly string[];
  /** The longest query searchDocs takes, in UTF-8 bytes. */
  maxQueryBytes: number;
  /** Receives each step of an ingest as it happens (for a streamed ingest); must not throw. */
  onProgress?: (event: IngestEvent) => void;
}

interface PlannedInputs {
  inputs: SourceInput[];
  /** Source strings that name nothing ingestible, reported as failed without stopping the others. */
  refused: IngestedSource[];
}

const OUTSIDE_ROOTS = 'outside the folders this agent may read (INGEST_ROOTS)';

/**
 * Refuses a path outside the readable roots before anything looks at it, with the same words
 * whether it exists or not, so a request cannot probe which files the server has.
 */
export function outsideRoots(path: string, roots: readonly string[]): boolean {
  const absolute = resolve(path);
  return !roots.some((root) => {
    const rel = relative(root, absolute);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  });
}

function inputsOf(request: z.output<typeof IngestRequest>, roots: readonly string[]): PlannedInputs {
  const planned: PlannedInputs = { inputs: [], refused: [] };
  const addFile = (label: string, path: string) => {
    if (outsideRoots(path, roots))
      planned.refused.push({ source: label, status: 'failed', error: OUTSIDE_ROOTS });
    else planned.inputs.push({ kind: 'file', path });
  };
  for (const raw of request.sources ?? []) {
    let input: SourceInput;
    try {
      input = detectSource(raw);
    } catch (error) {
      const missingPath = error instanceof SourceError && /^file not found/.test(error.message);
      const message =
        missingPath && outsideRoots(raw.trim(), roots) ? OUTSIDE_ROOTS : (error as Error).message;
      planned.refused.push({ source: raw, status: 'failed', error: message });
      continue;
    }
    if (input.kind === 'file') addFile(raw, input.path);
    else planned.inputs.push(input);
  }
  for (const path of request.files ?? []) addFile(path, path);
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
  async execute(request, { backend, secrets, readableRoots, onProgress }) {
    const { inputs, refused } = inputsOf(request, readableRoots);
    const progress = onProgress && {
      onProgress: (event: IngestEvent) =>
        onProgress(
          event.type === 'failed' ? { ...event, error: sanitizeMessage(event.error, secrets) } : event,
        ),
    };
    const results = inputs.length > 0 ? await backend.ingest(request.namespace, inputs, progress) : [];
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
  async execute(request, { backend, maxQueryBytes }) {
    refuseOverlongQuery('query', request.query, maxQueryBytes);
    const results = await backend.search(request.namespace, request.query, {
      limit: request.maxResults,
      snippets: true,
    });
    return { results, namespace: request.namespace, query: request.query };
  },
};

/**
 * A query over the cap is refused with the cap named; below it any length is searched (the index
 * keeps a long query's most informative terms).
 */
export function refuseOverlongQuery(field: string, query: string, maxBytes: number): void {
  const bytes = Buffer.byteLength(query, 'utf8');
  if (bytes > maxBytes) {
    throw new RequestProblem(
      400,
      `${field}: ${bytes} bytes is over the ${maxBytes}-byte limit for a query (AGENT_MAX_QUERY_BYTES); shorten it to its key sentences`,
    );
  }
}

export const agentTools: readonly AgentTool[] = [ingestSourcesTool, searchDocsTool] as readonly AgentTool[];

export function findTool(id: string): AgentTool | undefined {
  return agentTools.find((tool) => tool.id === id);
}
