import type { Kysely, Migration } from 'kysely';

/**
 * What one user keeps about others and about their conversations: whom they blocked
 * (`blocked_users`, looked up both ways) and the tags they put on a conversation
 * (`conversation_tags`, one row per tag so "any of these tags" is a plain `in` on both engines).
 */
export const userRelationsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('blocked_users')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('blocked_uid', 'text', (c) => c.notNull())
      .addColumn('blocked_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('blocked_users_pk', ['app_id', 'uid', 'blocked_uid'])
      .execute();
    await db.schema
      .createIndex('blocked_users_by_blocked')
      .on('blocked_users')
      .columns(['app_id', 'blocked_uid'])
      .execute();
    await db.schema
      .createTable('conversation_tags')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('tag', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('conversation_tags_pk', ['app_id', 'uid', 'conversation_id', 'tag'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('conversation_tags').execute();
    await db.schema.dropTable('blocked_users').execute();
  },
};
