import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnChatServer } from './chat-server-process.js';
import { createTestStore, testRedis, type TestStore } from './stores.js';

/** One `parley chat-server` process, listening. */
export interface ChatProcess {
  child: ChildProcess;
  url: string;
  dataDir: string;
}

export interface ChatProcessesOptions {
  app: { appId: string; apiKey: string; authKey: string };
  /** `node` arguments that run `parley` (ChatServerProcessOptions.command). */
  command?: string[];
  /** `parley chat-server` options every process gets, e.g. `['--rate-limit', 'off']`. */
  args?: string[];
  /** Environment every process gets, e.g. the shared `DATABASE_URL` and `REDIS_URL`. */
  env?: Record<string, string>;
}

/**
 * `parley chat-server` processes as they run in production, for tests and benchmarks: each in a
 * data dir of its own on an ephemeral port, started one at a time (the first migrates the store,
 * the others find it done), stopped and removed together.
 */
export class ChatProcesses {
  readonly started: ChatProcess[] = [];
  readonly #children: ChildProcess[] = [];
  readonly #dataDirs: string[] = [];
  /** Processes of one deployment share the key that seals stored secrets, as the README asks. */
  readonly #secretKey = randomBytes(32).toString('base64');

  constructor(private readonly options: ChatProcessesOptions) {}

  get urls(): string[] {
    return this.started.map((started) => started.url);
  }

  /**
   * One more process; `env` adds to (or replaces) the shared environment, `dataDir` reuses a data
   * dir. Rejects with what the process printed when it exits before listening.
   */
  async start(overrides: { env?: Record<string, string>; dataDir?: string } = {}): Promise<ChatProcess> {
    const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'parley-process-'));
    if (overrides.dataDir === undefined) this.#dataDirs.push(dataDir);
    const { child, listening } = spawnChatServer({
      command: this.options.command,
      dataDir,
      app: this.options.app,
      args: this.options.args ?? [],
      env: { PARLEY_SECRET_KEY: this.#secretKey, ...this.options.env, ...overrides.env },
    });
    if (this.#children.push(child) === 1)
      // A run that ends without `dispose` (a failed benchmark) leaves no server behind.
      process.once('exit', () => {
        for (const running of this.#children) if (running.exitCode === null) running.kill('SIGTERM');
      });
    const started = { child, url: await listening, dataDir };
    this.started.push(started);
    return started;
  }

  /** `count` more processes, one at a time. */
  async startMany(count: number): Promise<ChatProcess[]> {
    const started: ChatProcess[] = [];
    for (let index = 0; index < count; index += 1) started.push(await this.start());
    return started;
  }

  /** Stops (SIGTERM) every process still running and waits for each to exit. */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.#children
        .filter((child) => child.exitCode === null && child.signalCode === null)
        .map((child) => {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          return exited;
        }),
    );
  }

  /** Stops every process and removes the data dirs it made. */
  async dispose(): Promise<void> {
    await this.stopAll();
    for (const dir of this.#dataDirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** Processes on one store, with the store they run on: `dispose` removes both. */
export interface ChatCluster {
  processes: ChatProcesses;
  urls: string[];
  /** The PostgreSQL database the processes share; undefined on SQLite. */
  databaseUrl: string | undefined;
  dispose(): Promise<void>;
}

/**
 * One process alone on SQLite (the embedded default), or `count` processes on a fresh PostgreSQL
 * database joined by the machine's Redis under a key prefix of their own, as several processes run
 * behind a load balancer. The database is empty (the first process migrates it) or a copy of
 * `template`.
 */
export async function startChatCluster(
  options: ChatProcessesOptions & { engine: 'sqlite' | 'postgres'; count?: number; template?: string },
): Promise<ChatCluster> {
  const store: TestStore | undefined =
    options.engine === 'postgres'
      ? await createTestStore(
          'postgres',
          options.template === undefined ? {} : { template: options.template },
        )
      : undefined;
  const redis = testRedis();
  const processes = new ChatProcesses({
    ...options,
    env: {
      ...(store === undefined
        ? {}
        : { DATABASE_URL: store.databaseUrl ?? '', REDIS_URL: redis.url, PARLEY_REDIS_PREFIX: redis.prefix }),
      ...options.env,
    },
  });
  const dispose = async () => {
    await processes.dispose();
    await store?.dispose();
  };
  try {
    await processes.startMany(options.engine === 'sqlite' ? 1 : (options.count ?? 1));
  } catch (error) {
    await dispose();
    throw error;
  }
  return { processes, urls: processes.urls, databaseUrl: store?.databaseUrl, dispose };
}
