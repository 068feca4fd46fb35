import { delimiter, resolve } from 'node:path';
import { DEFAULT_MENTION_NAMES } from '../agent/mention.js';
import type { AnswerSettings } from '../agent/answer.js';
import type { LanguageModelConfig } from '../agent/llm.js';
import { DEFAULT_MAX_QUERY_BYTES } from '../../shared/agent.js';

export const DEFAULT_AGENT_PORT = 4111;
export const DEFAULT_AGENT_HOST = '127.0.0.1';
const MB = 1024 * 1024;
/** Queries stay well inside the 1 MB request bodies of searchDocs and generate, even JSON-escaped. */
const MAX_QUERY_BYTES_LIMIT = 256 * 1024;

/** How the agent server behaves; see `agentConfigFromEnv` for the environment variables. */
export interface AgentServerConfig {
  /** With a key, every /api route needs `Authorization: Bearer <key>` or `x-api-key: <key>`. */
  apiKey?: string;
  /** Origins allowed to call the API from a browser, besides the server's own pages. */
  corsOrigins: string[];
  /** Host names served besides localhost, 127.0.0.1, [::1] and IP addresses (e.g. `agent.internal`). */
  allowedHosts: string[];
  /** Requests per minute per client IP on ingest and on generate/stream. */
  rateLimitPerMinute: number;
  generateMaxBytes: number;
  ingestMaxBytes: number;
  /** The only folders local paths in ingest requests may point into (absolute). Empty: none. */
  ingestRoots: string[];
  /** Where multipart uploads are kept, so they are ingested like files and re-uploads stay incremental. */
  uploadDir: string;
  /** Names a chat user mentions to address the agent. */
  mentionNames: string[];
  /** Passages retrieved per question. */
  passages: number;
  /** The longest searchDocs query or generate question, in UTF-8 bytes; longer ones get a 400. */
  maxQueryBytes: number;
  languageModel?: LanguageModelConfig;
}

type Env = Readonly<Record<string, string | undefined>>;

const list = (value: string | undefined, separator: string | RegExp): string[] =>
  (value ?? '')
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);

function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number above 0`);
  return value;
}

function boundedInteger(env: Env, name: string, fallback: number, max: number): number {
  const value = positiveInteger(env, name, fallback);
  if (value > max) throw new Error(`${name} must be at most ${max}`);
  return value;
}

function languageModelFromEnv(env: Env): LanguageModelConfig | undefined {
  const baseUrl = env.LLM_BASE_URL?.trim();
  const model = env.LLM_MODEL?.trim();
  if (!baseUrl && !model) return undefined;
  if (!baseUrl || !model) throw new Error('set both LLM_BASE_URL and LLM_MODEL to use a language model');
  if (!/^https?:\/\//i.test(baseUrl)) throw new Error('LLM_BASE_URL must be an http(s) URL');
  const apiKey = env.LLM_PROVIDER_API_KEY?.trim();
  return {
    baseUrl,
    model,
    timeoutMs: positiveInteger(env, 'LLM_TIMEOUT_MS', 30_000),
    ...(apiKey ? { apiKey } : {}),
  };
}

/**
 * The configuration from the environment:
 * AGENT_API_KEY, CORS_ORIGINS (comma-separated), AGENT_ALLOWED_HOSTS (comma-separated), AGENT_RATE_LIMIT (per minute, default 60),
 * INGEST_MAX_BYTES (default 50 MB), INGEST_ROOTS (folders, separated like PATH),
 * AGENT_MENTION_NAMES (comma-separated, added to `agent` and `knowledge`),
 * AGENT_MAX_QUERY_BYTES (longest query or question, default 32768, at most 262144),
 * LLM_BASE_URL, LLM_MODEL, LLM_PROVIDER_API_KEY, LLM_TIMEOUT_MS (default 30000).
 */
export function agentConfigFromEnv(env: Env, dataDir: string): AgentServerConfig {
  const apiKey = env.AGENT_API_KEY?.trim();
  const languageModel = languageModelFromEnv(env);
  const extraNames = list(env.AGENT_MENTION_NAMES, ',').map((name) => name.replace(/^@/, '').toLowerCase());
  return {
    ...(apiKey ? { apiKey } : {}),
    corsOrigins: list(env.CORS_ORIGINS, ','),
    allowedHosts: list(env.AGENT_ALLOWED_HOSTS, ','),
    rateLimitPerMinute: positiveInteger(env, 'AGENT_RATE_LIMIT', 60),
    generateMaxBytes: MB,
    ingestMaxBytes: positiveInteger(env, 'INGEST_MAX_BYTES', 50 * MB),
    ingestRoots: list(env.INGEST_ROOTS, delimiter).map((root) => resolve(root)),
    uploadDir: resolve(dataDir, 'uploads'),
    mentionNames: [...new Set([...DEFAULT_MENTION_NAMES, ...extraNames])],
    passages: 6,
    maxQueryBytes: boundedInteger(
      env,
      'AGENT_MAX_QUERY_BYTES',
      DEFAULT_MAX_QUERY_BYTES,
      MAX_QUERY_BYTES_LIMIT,
    ),
    ...(languageModel ? { languageModel } : {}),
  };
}

/** What answering needs from the configuration; the server and `parley ask` answer alike. */
export function answerSettings(config: AgentServerConfig): AnswerSettings {
  return {
    mentionNames: config.mentionNames,
    passages: config.passages,
    ...(config.languageModel ? { languageModel: config.languageModel } : {}),
  };
}
