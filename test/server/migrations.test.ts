import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openChatStore } from '../../server/db/database.js';
import { migrationsFor } from '../../server/db/migrations.js';
import { ENGINES, createTestStore, type TestStore } from './support.js';

/** The store location opened bare, without the migrations `openChatStore` runs. */
function openBare(store: TestStore): Kysely<unknown> {
  return store.databaseUrl === undefined
    ? new Kysely({ dialect: new SqliteDialect({ database: new SQLite(join(store.dataDir, 'chat.db')) }) })
    : new Kysely({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: store.databaseUrl }) }),
      });
}

async function tableNames(db: Kysely<unknown>): Promise<string[]> {
  return (await db.introspection.getTables()).map((table) => table.name);
}

async function appliedMigrations(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((row) => row.name);
}

/**
 * 0025 creates four tables; a table of the third's name made beforehand makes it fail after two
 * of them exist.
 */
const BEFORE_MODERATION_RULES = '0023_notification_decision_messages';

describe.each(ENGINES)('a start whose migration fails halfway, on %s', (engine) => {
  let store: TestStore;
  let bare: Kysely<unknown>;

  beforeEach(async () => {
    store = await createTestStore(engine, { empty: true });
    bare = openBare(store);
    const migrated = await new Migrator({ db: bare, provider: migrationsFor(engine) }).migrateTo(
      BEFORE_MODERATION_RULES,
    );
    expect(migrated.error).toBeUndefined();
    await bare.schema.createTable('moderation_rule_revisions').addColumn('stray', 'text').execute();
  });

  afterEach(async () => {
    await bare.destroy();
    await store.dispose();
  });

  it('fails naming the migration and leaves none of its tables or its record behind', async () => {
    await expect(openChatStore(store)).rejects.toThrow(/0025_moderation_rules/);

    const tables = await tableNames(bare);
    expect(tables).not.toContain('moderation_keyword_lists');
    expect(tables).not.toContain('moderation_rules');
    expect(await appliedMigrations(bare)).not.toContain('0025_moderation_rules');
  });

  it('completes at the next start once the cause is gone', async () => {
    await expect(openChatStore(store)).rejects.toThrow(/0025_moderation_rules/);
    await bare.schema.dropTable('moderation_rule_revisions').execute();

    const reopened = await openChatStore(store);
    await reopened.close();
    expect(await appliedMigrations(bare)).toContain('0028_media_upload_claims');
  });
});
