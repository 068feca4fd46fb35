import type { Kysely, Migration } from 'kysely';
import type { StorageEngine } from './database.js';

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
