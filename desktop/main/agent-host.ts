import type { FolderWatch, KnowledgeEngine } from '../../knowledge/index.js';
import {
  agentConfigFromEnv,
  openAgentEngine,
  startAgentServer,
  type AgentServerConfig,
  type RunningAgentServer,
} from '../../knowledge/server/index.js';
import type { WatchedFolder } from '../bridge.js';
import type { AgentKeys } from './desktop-settings.js';
import { IngestCounter } from './ingest-counter.js';
import { listenWithFallback, portNote } from './ports.js';
import type { DesktopSettings } from './settings.js';
import type { AgentStatus } from './tray-status.js';

/** The agent as it runs: where to reach it, and which port it got. */
export interface RunningAgent {
  apiUrl: string;
  /** The page the window loads: the agent's own origin, which serves the built window at `/`. */
  windowUrl: string;
  port: number;
  portNote?: string;
}

const LANGUAGE_MODEL_TIMEOUT_MS = 30_000;

/** The agent server's configuration from the desktop settings and keys. */
export function agentServerConfig(
  dataDir: string,
  settings: DesktopSettings,
  keys: AgentKeys,
): AgentServerConfig {
  const { languageModel } = settings;
  return {
    ...agentConfigFromEnv({}, dataDir),
    corsOrigins: settings.corsOrigins,
    // Local paths may be read from the folders the user chose to watch, and from nowhere else.
    ingestRoots: settings.watchedFolders.map((watched) => watched.folder),
    ...(keys.agentApiKey ? { apiKey: keys.agentApiKey } : {}),
    ...(languageModel
      ? {
          languageModel: {
            ...languageModel,
            timeoutMs: LANGUAGE_MODEL_TIMEOUT_MS,
            ...(keys.languageModelKey ? { apiKey: keys.languageModelKey } : {}),
          },
        }
      : {}),
  };
}

/**
 * Runs the knowledge agent inside the app: the engine on the data dir, the HTTP server on the
 * configured address (another port when that one is taken), and the watched folders. Stopping
 * closes the server, stops watching and commits every namespace to disk.
 */
export class AgentHost {
  private engine: KnowledgeEngine | undefined;
  private server: RunningAgentServer | undefined;
  private watches: FolderWatch[] = [];
  private current: AgentStatus = { state: 'stopped' };
  private readonly counter: IngestCounter;

  constructor(
    private readonly dataDir: string,
    private readonly onStatus: (status: AgentStatus) => void,
    private readonly log: (line: string) => void,
  ) {
    this.counter = new IngestCounter((indexing) => {
      if (this.current.state === 'running') this.setStatus({ ...this.current, indexing });
    });
  }

  get status(): AgentStatus {
    return this.current;
  }

  async start(settings: DesktopSettings, keys: AgentKeys): Promise<RunningAgent> {
    if (this.server) throw new Error('the agent is already running');
    this.setStatus({ state: 'starting' });
    try {
      const config = agentServerConfig(this.dataDir, settings, keys);
      const engine = await openAgentEngine(this.dataDir, config, {
        allowPrivateNetwork: settings.allowPrivateNetwork,
      });
      this.engine = engine;
      const backend = this.counter.countIngests(engine);
      const { server } = await listenWithFallback(
        (port) => startAgentServer({ config, backend, host: settings.host, port }),
        settings.port,
      );
      this.server = server;
      this.setStatus({ state: 'running', url: server.apiUrl, indexing: this.counter.indexing });
      void this.watchFolders(engine, settings.watchedFolders);
      const note = portNote(settings.port, server.port);
      return {
        apiUrl: server.apiUrl,
        windowUrl: `${server.apiUrl.replace(/\/api$/, '')}/`,
        port: server.port,
        ...(note ? { portNote: note } : {}),
      };
    } catch (error) {
      await this.stop();
      const message = error instanceof Error ? error.message : String(error);
      this.setStatus({ state: 'error', message });
      throw error;
    }
  }

  /** Stops serving, stops watching, and commits every namespace; safe to call twice. */
  async stop(): Promise<void> {
    const { server, engine, watches } = this;
    this.server = undefined;
    this.engine = undefined;
    this.watches = [];
    await server?.close();
    await Promise.all(watches.map((watch) => watch.close()));
    await engine?.close();
    if (this.current.state !== 'error') this.setStatus({ state: 'stopped' });
  }

  /** Watches run after the server is up: a large folder's first sync must not delay the window. */
  private async watchFolders(engine: KnowledgeEngine, folders: readonly WatchedFolder[]): Promise<void> {
    for (const { folder, namespace } of folders) {
      const tracked = this.counter.track();
      try {
        const watch = await engine.watch(folder, namespace, {
          onProgress: tracked.onProgress,
          onError: (error) =>
            this.log(JSON.stringify({ event: 'watch.error', namespace, error: error.message })),
        });
        if (this.engine === engine) this.watches.push(watch);
        else await watch.close();
      } catch (error) {
        this.log(JSON.stringify({ event: 'watch.failed', namespace, error: (error as Error).message }));
      } finally {
        tracked.done();
      }
    }
  }

  private setStatus(status: AgentStatus): void {
    this.current = status;
    this.onStatus(status);
  }
}
