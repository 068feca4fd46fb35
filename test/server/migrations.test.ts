import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openChatStore } from '../../server/db/database.js';
import { migrationsFor } from '../../server/db/migrations.js';
import {
  ENGINES,
  apiFixtures,
  createTestStore,
  startTestServer,
  textMessage,
  uniqueId,
  type TestStore,
} from './support.js';

/** The store location opened bare, without the migrations `openChatStore` runs. */
function openBare(store: TestStore): Kysely<unknown> {
  if (store.databaseUrl === undefined)
    return new Kysely({
      dialect: new SqliteDialect({ database: new SQLite(join(store.dataDir, 'chat.db')) }),
    });
  const pool = new pg.Pool({ connectionString: store.databaseUrl });
  // As the service's pools: an idle client whose connection the server ends (the store's database
  // dropped WITH (FORCE)) is replaced, not an uncaught error in the test file (a CI run failed so).
  pool.on('error', () => undefined);
  return new Kysely({ dialect: new PostgresDialect({ pool }) });
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

describe.each(ENGINES)('messages held before 0029, on %s', (engine) => {
  let store: TestStore;

  beforeEach(async () => {
    store = await createTestStore(engine);
  });

  afterEach(async () => {
    await store.dispose();
  });

  it('are given message ids of their own at the next start, and approved under them', async () => {
    const first = await startTestServer(store);
    const { createUser, sendMessage } = apiFixtures(first.call);
    const [alice, bob] = [await createUser('alice'), await createUser('bob')];
    const word = uniqueId('w').replaceAll('-', '');
    const rule = {
      id: 'held-words',
      name: 'Held words',
      conditions: [
        { entity: 'message', operand: 'text', category: 'word', operator: 'contains', value: [word] },
      ],
      action: ['blockMessage'],
    };
    expect((await first.call('POST', '/moderation/rules', { body: rule })).status).toBe(200);
    const held = await sendMessage(alice, textMessage(bob, `held ${word}`));
    const kept = await sendMessage(alice, textMessage(bob, 'kept'));
    // As a row held before 0029 may be: under the id of a message that was sent.
    const { db } = first.server.core.store;
    await sql`update moderation_blocked_messages set id = ${Number(kept.id)} where id = ${Number(held.id)}`.execute(
      db,
    );
    await sql`delete from kysely_migration where name = '0029_held_message_ids'`.execute(db);
    await first.close();

    const second = await startTestServer(store);
    try {
      const listed = await second.call('GET', '/moderation/blocked-messages');
      const [entry] = listed.body.data as Array<{ message: { id: string } }>;
      expect(Number(entry?.message.id)).toBeGreaterThan(Number(kept.id));
      const approved = await second.call('PATCH', `/moderation/blocked-messages/${entry?.message.id}`, {
        body: { status: 'approved' },
      });
      expect(approved.status).toBe(200);
      const delivered = await second.call('GET', `/messages/${entry?.message.id}`);
      expect(delivered.body.data.data.text).toBe(`held ${word}`);
      expect((await second.call('GET', `/messages/${kept.id}`)).body.data.data.text).toBe('kept');
    } finally {
      await second.close();
    }
  });
});
