import { sql, type Kysely, type Migration } from 'kysely';
import { reserveMessageIds } from '../repositories/message-writer.js';
import type { StorageEngine } from './database.js';
import type { ChatDatabase } from './schema.js';

/**
 * Moderation rules and keyword lists per app, every revision of a rule, and the messages the rules
 * held back (`moderation_blocked_messages`: the message as sent, waiting for a review that delivers
 * it or keeps it back).
 */
export function moderationRulesMigration(engine: StorageEngine): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('moderation_keyword_lists')
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.app_id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('search_terms', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('moderation_keyword_lists_pk', ['app_id', 'id'])
        .execute();
      await db.schema
        .createTable('moderation_rules')
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.app_id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('rule', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('moderation_rules_pk', ['app_id', 'id'])
        .execute();
      await db.schema
        .createTable('moderation_rule_revisions')
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.app_id').onDelete('cascade'))
        .addColumn('rule_id', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('rule', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('moderation_rule_revisions_pk', ['app_id', 'rule_id', 'revision'])
        .execute();
      await db.schema
        .createTable('moderation_blocked_messages')
        .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
          engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.app_id').onDelete('cascade'))
        .addColumn('sender', 'text', (c) => c.notNull())
        .addColumn('draft', 'text', (c) => c.notNull())
        .addColumn('rule_id', 'text', (c) => c.notNull())
        .addColumn('rule_name', 'text', (c) => c.notNull())
        .addColumn('revision_id', 'text', (c) => c.notNull())
        .addColumn('condition', 'text', (c) => c.notNull())
        .addColumn('actions', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('delivered_message_id', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('moderation_blocked_messages_by_app')
        .on('moderation_blocked_messages')
        .columns(['app_id', 'id'])
        .execute();
    },
  };
}

/**
 * A held message is answered under a message id reserved for it, the id it is sent under once
 * approved (`reserveMessageIds`); rows held before had ids of their own, which messages may have
 * too. Each is given a reserved id, in the order they were held (made negative first, so that
 * no new id meets an old one on the way).
 */
export function heldMessageIdsMigration(engine: StorageEngine): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`update moderation_blocked_messages set id = -id`.execute(db);
      const { rows } = await sql<{ id: number | string }>`
        select id from moderation_blocked_messages order by id desc`.execute(db);
      if (rows.length === 0) return;
      const ids = await reserveMessageIds(db as Kysely<ChatDatabase>, engine, rows.length);
      for (const [index, row] of rows.entries())
        await sql`update moderation_blocked_messages set id = ${ids[index]} where id = ${row.id}`.execute(db);
    },
  };
}
