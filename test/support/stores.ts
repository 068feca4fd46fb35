import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { StorageEngine } from '../../server/index.js';

/** The PostgreSQL server every machine of this project runs (trust auth). */
const POSTGRES_ADMIN_URL =
  process.env.PARLEY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs `work` on a connection to the PostgreSQL server's admin database (creating, dropping, altering databases). */
export async function withPostgresAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** The URL of the PostgreSQL database `name` on the test server. */
export function postgresUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh store location: a temp dir for SQLite, a uniquely named database for PostgreSQL, empty or,
 * with `template`, a copy of that database (the tests' migrated template, test/support/built.ts).
 */
export interface TestStore {
  dataDir: string;
  databaseUrl: string | undefined;
  dispose(): Promise<void>;
}

export async function createTestStore(
  engine: StorageEngine,
  options: { template?: string } = {},
): Promise<TestStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-chat-'));
  if (engine === 'sqlite') {
    return {
      dataDir,
      databaseUrl: undefined,
      dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `parley_test_${randomBytes(6).toString('hex')}`;
  const template = options.template === undefined ? '' : ` TEMPLATE ${options.template}`;
  await withPostgresAdmin((admin) => admin.query(`CREATE DATABASE ${name}${template}`));
  return {
    dataDir,
    databaseUrl: postgresUrl(name),
    dispose: async () => {
      await withPostgresAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The machine's Redis, under a key prefix of one test file's own (processes given it are joined). */
export interface TestRedis {
  url: string;
  prefix: string;
}

export const testRedis = (): TestRedis => ({
  url: process.env.PARLEY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  prefix: `parley-test-${randomBytes(6).toString('hex')}:`,
});
