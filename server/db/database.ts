import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import { migrateToLatest } from './migrations.js';
import type { ChatDatabase } from './schema.js';

export type StorageEngine = 'sqlite' | 'postgres';

export interface StoreLocation {
  /** Where `chat.db` lives when no database URL is given. */
  dataDir: string;
  /** `postgres://…` switches the store to PostgreSQL. */
  databaseUrl?: string | undefined;
}

export interface ChatStore {
  db: Kysely<ChatDatabase>;
  engine: StorageEngine;
  /** SQLite only: the connection behind `db`, for the prepared statements of the message hot path. */
  sqlite?: SqliteConnection;
  /**
   * PostgreSQL only: the same database for message sends, on connections whose commits do not wait
   * for the WAL to reach the disk (`synchronous_commit = off`), as SQLite's `synchronous = NORMAL`
   * does not: a send answered 200 survives a crash of any chat-server process; only a crash of
   * PostgreSQL itself or its machine can drop the last fraction of a second of sends, and never
   * leaves a half-written one. Every send of one conversation updates that conversation's row, so
   * waiting for each flush under its lock made sends to one conversation one WAL flush apart.
   */
  sends?: Kysely<ChatDatabase>;
  /** A human-readable location without credentials, for logs. */
  describe: string;
  close(): Promise<void>;
}

/**
 * The one better-sqlite3 connection that Kysely also uses. Kysely holds it across the awaits of a
 * transaction, so direct use must wait its turn: `exclusive` reserves it through Kysely, then runs
 * `work` synchronously, which makes `work` atomic and keeps it out of anyone else's transaction.
 */
export interface SqliteConnection {
  exclusive<T>(work: (database: SQLite.Database) => T): Promise<T>;
}

const INT8_OID = 20;

/** Epoch seconds and message ids are bigint columns; they fit a JS number, so read them as one. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

function postgresPool(databaseUrl: string, options: Partial<pg.PoolConfig> = {}): Kysely<ChatDatabase> {
  const pool = new pg.Pool({ connectionString: databaseUrl, types: pgTypes, ...options });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return new Kysely<ChatDatabase>({ dialect: new PostgresDialect({ pool }) });
}

function openPostgres(databaseUrl: string): ChatStore {
  const db = postgresPool(databaseUrl, { max: 10 });
  const sends = postgresPool(databaseUrl, { max: 5, options: '-c synchronous_commit=off' });
  const url = new URL(databaseUrl);
  return {
    db,
    engine: 'postgres',
    sends,
    describe: `postgres://${url.host}${url.pathname}`,
    close: async () => {
      await Promise.all([db.destroy(), sends.destroy()]);
    },
  };
}

/**
 * Kysely begins SQLite transactions DEFERRED. Ours read a row, check it and write it back, so they
 * take the write lock when they begin (IMMEDIATE): in this process Kysely's single connection
 * already runs them one at a time, and another connection to the file waits (busy_timeout) at the
 * start instead of failing when a read transaction tries to become a write one.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * SQLite's schema changes are transactional, but Kysely's adapter says they are not, so its
 * migrator would run each migration's statements one by one: a start that fails (or is killed)
 * halfway through a migration would leave some of its tables behind and the migration unrecorded,
 * and every later start would fail on them. Saying so lets the migrator run the pending migrations
 * and their records in one transaction, as it does on PostgreSQL.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

function openSqlite(dataDir: string): ChatStore {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'chat.db');
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  // WAL + NORMAL keeps every committed transaction across a process crash (SIGKILL); only an OS
  // crash or power loss can drop the last few, and it never corrupts the file.
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  const db = new Kysely<ChatDatabase>({ dialect: new ImmediateSqliteDialect({ database }) });
  const sqlite: SqliteConnection = {
    exclusive: (work) => db.connection().execute(async () => work(database)),
  };
  return { db, engine: 'sqlite', sqlite, describe: file, close: () => db.destroy() };
}

/** Opens the chat store (SQLite in the data dir, or PostgreSQL) and runs the migrations. */
export async function openChatStore(location: StoreLocation): Promise<ChatStore> {
  const store =
    location.databaseUrl !== undefined && location.databaseUrl !== ''
      ? openPostgres(location.databaseUrl)
      : openSqlite(location.dataDir);
  try {
    await migrateToLatest(store.db as Kysely<unknown>, store.engine);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
