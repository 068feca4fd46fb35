import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ChatServerProcessOptions {
  dataDir: string;
  app: { appId: string; apiKey: string; authKey: string };
  /** More `parley chat-server` options, e.g. `['--rate-limit', 'off']`. */
  args?: string[];
}

export interface ChatServerProcess {
  child: ChildProcess;
  /** The server's URL once it says it is listening; rejects if it exits first. */
  listening: Promise<string>;
}

/**
 * `parley chat-server` as a child process on SQLite and an ephemeral port, as it runs in production.
 * The child is returned at once, so the caller can arrange to stop it before waiting for it.
 */
export function spawnChatServer(options: ChatServerProcessOptions): ChatServerProcess {
  const { app } = options;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'cli/parley.ts',
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
    { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, DATABASE_URL: '' } },
  );
  const listening = new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`chat-server exited with ${code} before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
  });
  return { child, listening };
}
