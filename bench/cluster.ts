/**
 * Chat-service processes for the benchmarks: one on SQLite (the embedded default), or N on a fresh
 * PostgreSQL database joined by the machine's Redis under a key prefix of their own, as several
 * processes run behind a load balancer. Everything they made is removed on `stop`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { spawnChatServer } from '../test/support/chat-server-process.js';

const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Cluster {
  /** Each process's base URL, in start order. */
  urls: string[];
  pids: number[];
  stop(): Promise<void>;
}

export interface ClusterOptions {
  app: { appId: string; apiKey: string; authKey: string };
  /** `sqlite` runs one process alone; `postgres` runs `processes` joined by Redis. */
  engine: 'sqlite' | 'postgres';
  processes?: number;
  args?: string[];
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const count = options.engine === 'sqlite' ? 1 : (options.processes ?? 1);
  const dirs: string[] = [];
  const children: ReturnType<typeof spawnChatServer>['child'][] = [];
  let database: string | undefined;
  let env: Record<string, string> = {};
  if (options.engine === 'postgres') {
    database = `parley_bench_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${database}`;
    env = {
      DATABASE_URL: url.toString(),
      REDIS_URL,
      PARLEY_REDIS_PREFIX: `parley-bench-${randomBytes(6).toString('hex')}:`,
    };
  }
  const stop = async () => {
    await Promise.all(
      children
        .filter((child) => child.exitCode === null && child.signalCode === null)
        .map((child) => {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          return exited;
        }),
    );
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    if (database !== undefined) {
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  };
  process.once('exit', () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  });
  const urls: string[] = [];
  try {
    // One at a time: the first migrates the database, the others find it done.
    for (let index = 0; index < count; index += 1) {
      const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
      dirs.push(dataDir);
      const { child, listening } = spawnChatServer({
        dataDir,
        app: options.app,
        args: ['--host', '127.0.0.1', '--rate-limit', 'off', ...(options.args ?? [])],
        env,
      });
      children.push(child);
      urls.push(await listening);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls, pids: children.map((child) => child.pid ?? 0), stop };
}
