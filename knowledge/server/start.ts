import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Logger } from '../../shared/server-kit/index.js';
import { KnowledgeEngine } from '../engine.js';
import { builtAppUiFolder, knowledgeAppUi, type AppUiOptions } from './app-ui.js';
import { createAgentApp } from './app.js';
import type { KnowledgeBackend } from './backend.js';
import type { AgentServerConfig } from './config.js';

export interface RunningAgentServer {
  /** The API root, e.g. `http://127.0.0.1:4111/api`. */
  apiUrl: string;
  port: number;
  close(): Promise<void>;
}

export interface StartOptions {
  config: AgentServerConfig;
  backend: KnowledgeBackend;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The app served at `/`; by default the built knowledge app window, when the build has made it. */
  ui?: Hono;
  /** Options of the built window, when it is the app served. */
  appUi?: AppUiOptions;
  /** Where request lines and failures go; by default JSON lines on standard error. */
  logger?: Logger;
}

/**
 * Opens the engine the way the HTTP API needs it: local paths only under the configured roots
 * (and the upload folder), URLs to private networks refused unless allowed.
 */
export async function openAgentEngine(
  dataDir: string,
  config: AgentServerConfig,
  options: { allowPrivateNetwork?: boolean } = {},
): Promise<KnowledgeEngine> {
  await mkdir(config.uploadDir, { recursive: true });
  return KnowledgeEngine.open({
    dataDir,
    ingestRoots: [...config.ingestRoots, config.uploadDir],
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    watchNamespaceFolders: true,
  });
}

export async function startAgentServer(options: StartOptions): Promise<RunningAgentServer> {
  const uiFolder = options.ui ? undefined : builtAppUiFolder();
  const ui = options.ui ?? (uiFolder ? knowledgeAppUi(uiFolder, options.appUi) : undefined);
  const app = createAgentApp({
    config: options.config,
    backend: options.backend,
    ...(ui ? { ui } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: options.host, port: options.port }, () =>
      resolve(started),
    );
    started.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    apiUrl: `http://${host}:${port}/api`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
