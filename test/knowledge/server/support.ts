import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KnowledgeEngine } from '../../../knowledge/index.js';
import { createLogger, silentLogger, type Logger } from '../../../shared/server-kit/index.js';
import {
  agentConfigFromEnv,
  openAgentEngine,
  startAgentServer,
  type AgentServerConfig,
} from '../../../knowledge/server/index.js';

/** Documents the tests ingest: real Markdown files, written into the ingest root. */
export const DOCUMENTS: Record<string, string> = {
  'orama.md':
    '# Orama index\n\nEach namespace keeps its own Orama index on disk. ' +
    'Snapshots of the index are written atomically with a write and a rename.\n\n' +
    '## Limits\n\nThe index holds about one hundred thousand chunks per namespace before restoring it gets slow. ' +
    'Queries longer than two thousand characters are refused.\n',
  'wing.md':
    '# Wing design\n\nLift grows with the angle of attack until the wing stalls. ' +
    'Flaps raise the lift coefficient during landing.\n\n' +
    '## Drag\n\nInduced drag falls as the aspect ratio of the wing grows.\n',
  'turbine.md':
    '# Gas turbines\n\nThe compressor raises the pressure of the air before the combustor. ' +
    'Turbine blades are cooled with air bled from the compressor.\n',
};

export interface TestAgent {
  apiUrl: string;
  origin: string;
  dataDir: string;
  /** The only folder the agent may read local paths from; DOCUMENTS are written here. */
  docsDir: string;
  /** A folder outside the ingest root. */
  outsideDir: string;
  config: AgentServerConfig;
  engine: KnowledgeEngine;
  close(): Promise<void>;
}

/**
 * The real agent server on an ephemeral loopback port, with the real engine on a temporary data
 * dir. `env` is read like the process environment; `config` overrides what it yields.
 */
export async function startTestAgent(
  options: { env?: Record<string, string>; config?: Partial<AgentServerConfig>; logger?: Logger } = {},
): Promise<TestAgent> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'parley-agent-')));
  const dataDir = join(root, 'data');
  const docsDir = join(root, 'docs');
  const outsideDir = join(root, 'outside');
  await mkdir(docsDir, { recursive: true });
  await mkdir(outsideDir, { recursive: true });
  for (const [name, text] of Object.entries(DOCUMENTS)) await writeFile(join(docsDir, name), text);
  const config = {
    ...agentConfigFromEnv({ INGEST_ROOTS: docsDir, ...options.env }, dataDir),
    ...options.config,
  };
  const engine = await openAgentEngine(dataDir, config);
  const server = await startAgentServer({
    config,
    backend: engine,
    host: '127.0.0.1',
    port: 0,
    logger: options.logger ?? (process.env.PARLEY_TEST_LOG ? createLogger() : silentLogger),
  });
  return {
    apiUrl: server.apiUrl,
    origin: server.apiUrl.replace(/\/api$/, ''),
    dataDir,
    docsDir,
    outsideDir,
    config,
    engine,
    close: async () => {
      await server.close();
      await engine.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (an event stream): kept as text.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

export const userTurn = (content: string) => ({ messages: [{ role: 'user', content }] });
