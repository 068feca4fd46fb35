import type { Kysely, Migration } from 'kysely';

/**
 * The rest of the users surface and moderation: friends (each relation stored both ways), flags on
 * messages, conversations a user deleted for themselves (up to which message), and what a client
 * says about an auth token (`PUT /users/{uid}/auth_tokens/{authToken}`).
 */
export const surfaceMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('user_friends')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('friend_uid', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_friends_pk', ['app_id', 'uid', 'friend_uid'])
      .execute();
    await db.schema
      .createTable('message_flags')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('message_id', 'bigint', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('reason_id', 'text', (c) => c.notNull())
      .addColumn('remark', 'text')
      .addColumn('flagged_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('message_flags_pk', ['app_id', 'message_id', 'uid'])
      .execute();
    await db.schema
      .createIndex('message_flags_by_time')
      .on('message_flags')
      .columns(['app_id', 'flagged_at'])
      .execute();
    await db.schema
      .createTable('conversation_deletions')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('up_to_message_id', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('conversation_deletions_pk', ['app_id', 'conversation_id', 'uid'])
      .execute();
    await db.schema.alterTable('auth_tokens').addColumn('platform', 'text').execute();
    await db.schema.alterTable('auth_tokens').addColumn('user_agent', 'text').execute();
    await db.schema.alterTable('auth_tokens').addColumn('app_info', 'text').execute();
    await db.schema.alterTable('auth_tokens').addColumn('updated_at', 'bigint').execute();
  },
};
