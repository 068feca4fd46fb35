import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** `node` arguments that run `parley` from the sources, as `npm run parley` does. */
export const PARLEY_FROM_SOURCES = ['--import', 'tsx', 'cli/parley.ts'];

export interface ChatServerProcessOptions {
  /**
   * `node` arguments that run `parley`: the sources through tsx unless told otherwise (tests pass
   * the run's build, test/support/built.ts, which starts in about half the CPU).
   */
  command?: string[];
  dataDir: string;
  app: { appId: string; apiKey: string; authKey: string };
  /** More `parley chat-server` options, e.g. `['--rate-limit', 'off']`. */
  args?: string[];
  /** More environment, e.g. `DATABASE_URL` and `REDIS_URL` (the default runs on SQLite alone). */
  env?: Record<string, string>;
}

export interface ChatServerProcess {
  child: ChildProcess;
  /** The server's URL once it says it is listening; rejects with what it printed if it exits first. */
  listening: Promise<string>;
}

/**
 * `parley chat-server` as a child process on an ephemeral port (on SQLite unless `env` says otherwise),
 * as it runs in production.
 * The child is returned at once, so the caller can arrange to stop it before waiting for it.
 */
export function spawnChatServer(options: ChatServerProcessOptions): ChatServerProcess {
  const { app } = options;
  const child = spawn(
    process.execPath,
    [
      ...(options.command ?? PARLEY_FROM_SOURCES),
      '--data-dir',
      options.dataDir,
      'chat-server',
      '--port',
      '0',
      ...(options.args ?? []),
      '--app-id',
      app.appId,
      '--api-key',
      app.apiKey,
      '--auth-key',
      app.authKey,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', ...options.env },
    },
  );
  // The last of what it logged, to say why it stopped; older lines are dropped.
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const listening = new Promise<string>((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`chat-server exited with ${code} before listening: ${stderr}`)),
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
  });
  return { child, listening };
}
