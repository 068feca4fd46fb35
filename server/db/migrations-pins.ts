import type { Kysely, Migration } from 'kysely';

/**
 * Pinned and saved messages and pinned conversations. A pin belongs to the message's conversation
 * (one pinner, the latest; `app_system` when the app pinned it), a save to one user, a pinned
 * conversation to the user who pinned it.
 */
export const pinsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('message_pins')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('message_id', 'bigint', (c) => c.notNull())
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('pinned_by', 'text', (c) => c.notNull())
      .addColumn('pinned_at_ms', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('message_pins_pk', ['app_id', 'message_id'])
      .execute();
    await db.schema
      .createIndex('message_pins_by_conversation')
      .on('message_pins')
      .columns(['app_id', 'conversation_id', 'pinned_at_ms'])
      .execute();
    await db.schema
      .createTable('message_saves')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('message_id', 'bigint', (c) => c.notNull())
      .addColumn('saved_at_ms', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('message_saves_pk', ['app_id', 'uid', 'message_id'])
      .execute();
    await db.schema
      .createTable('conversation_pins')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('pinned_at_ms', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('conversation_pins_pk', ['app_id', 'uid', 'conversation_id'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('conversation_pins').execute();
    await db.schema.dropTable('message_saves').execute();
    await db.schema.dropTable('message_pins').execute();
  },
};
