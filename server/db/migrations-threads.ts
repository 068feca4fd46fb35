import type { Kysely, Migration } from 'kysely';
import type { StorageEngine } from './database.js';

/**
 * Threads and reactions: a reply names its parent (`parent_id`) and the parent counts its replies
 * (`reply_count`, kept in the transaction that stores each reply); each user's reactions to a
 * message are rows of `message_reactions`, one per user and emoji.
 */
export function threadsAndReactionsMigration(engine: StorageEngine): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('messages').addColumn('parent_id', 'bigint').execute();
      await db.schema
        .alterTable('messages')
        .addColumn('reply_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('messages_by_parent')
        .on('messages')
        .columns(['app_id', 'parent_id', 'id'])
        .execute();
      await db.schema
        .createTable('message_reactions')
        .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
          engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('message_id', 'bigint', (c) => c.notNull())
        .addColumn('uid', 'text', (c) => c.notNull())
        .addColumn('reaction', 'text', (c) => c.notNull())
        .addColumn('reacted_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('message_reactions_once', ['app_id', 'message_id', 'uid', 'reaction'])
        .execute();
      await db.schema
        .createIndex('message_reactions_by_message')
        .on('message_reactions')
        .columns(['app_id', 'message_id', 'id'])
        .execute();
    },
  };
}
