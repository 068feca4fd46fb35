import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, untilListening } from './ports.js';

/** Debian's redis-server; `.ci/run` installs it when it is missing. */
const REDIS_SERVER = process.env.PARLEY_TEST_REDIS_SERVER ?? 'redis-server';

/**
 * A Redis of one test's own (a child process on a free loopback port, nothing saved to disk), for
 * tests that take Redis away from a chat-server process and bring it back on the same address.
 */
export class RedisServer {
  #child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (again) on its port, empty, and waits until it takes connections. */
  async start(): Promise<void> {
    const child = spawn(
      REDIS_SERVER,
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    let spawnError: Error | undefined;
    child.once('error', (error) => (spawnError = error));
    this.#child = child;
    await untilListening(this.port, () =>
      spawnError !== undefined
        ? `cannot run ${REDIS_SERVER}: ${spawnError.message}`
        : child.exitCode === null
          ? undefined
          : `redis-server exited with ${child.exitCode}: ${stderr}`,
    );
  }

  /** Kills it (SIGKILL: Redis gone at once, as when its host dies) and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
