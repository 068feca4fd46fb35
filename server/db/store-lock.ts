import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { StoreLocation } from './database.js';

/** Held while the chat service runs; released on close (or by the OS when the process dies). */
export interface StoreLock {
  release(): Promise<void>;
}

/** The advisory lock key of the chat service in its PostgreSQL database. */
const POSTGRES_LOCK_KEY = 4_000_415;

/**
 * Makes sure this process may use the store the way it is configured:
 * - SQLite: one process per file. An exclusive lock on `chat.db.lock` (SQLite's own file locking,
 *   which the OS drops when the process dies) refuses a second process on the same data dir.
 * - PostgreSQL without Redis: one process, which holds an exclusive advisory lock. Processes joined
 *   by Redis hold it shared, so they run side by side but never beside one that has no Redis.
 */
export async function lockStore(location: StoreLocation, joinedByRedis: boolean): Promise<StoreLock> {
  return location.databaseUrl !== undefined && location.databaseUrl !== ''
    ? lockPostgres(location.databaseUrl, joinedByRedis)
    : lockSqlite(location.dataDir);
}

function lockSqlite(dataDir: string): StoreLock {
  mkdirSync(dataDir, { recursive: true });
  const lock = new SQLite(join(dataDir, 'chat.db.lock'));
  try {
    lock.pragma('busy_timeout = 0');
    // In exclusive locking mode the lock a write takes is kept until the connection closes.
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch {
    lock.close();
    throw new Error(
      `Another process is running the chat service on ${join(dataDir, 'chat.db')}: several processes ` +
        'cannot share one SQLite file. Stop it, or run every process on PostgreSQL (DATABASE_URL) ' +
        'joined by Redis (REDIS_URL).',
    );
  }
  return {
    release: async () => {
      lock.close();
    },
  };
}

async function lockPostgres(databaseUrl: string, shared: boolean): Promise<StoreLock> {
  const client = new pg.Client({ connectionString: databaseUrl });
  // A lost connection loses the lock; the process keeps serving, as it did before it took it.
  client.on('error', () => undefined);
  await client.connect();
  const take = shared ? 'pg_try_advisory_lock_shared' : 'pg_try_advisory_lock';
  const { rows } = await client
    .query<{ locked: boolean }>(`select ${take}($1) as locked`, [POSTGRES_LOCK_KEY])
    .catch(async (error: unknown) => {
      await client.end();
      throw error;
    });
  if (rows[0]?.locked !== true) {
    await client.end();
    throw new Error(
      shared
        ? 'A chat service without Redis is running on this PostgreSQL database: stop it, or give ' +
            'every process the same REDIS_URL.'
        : 'Another chat service process is running on this PostgreSQL database: several processes ' +
            'must be joined by Redis (REDIS_URL on every process), or stop the other one.',
    );
  }
  return { release: () => client.end() };
}
