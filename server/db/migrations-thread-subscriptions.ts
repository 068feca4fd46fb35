import type { Kysely, Migration } from 'kysely';

/**
 * Who follows which thread (`subscribeToThread`): `subscribed` 1 for a follow, 0 for an unfollow,
 * which outlasts taking part in the thread (a user who started or replied in a thread follows it
 * until they unfollow it).
 */
export const threadSubscriptionsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('thread_subscriptions')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('parent_id', 'bigint', (c) => c.notNull())
      .addColumn('subscribed', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('thread_subscriptions_pk', ['app_id', 'uid', 'parent_id'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('thread_subscriptions').execute();
  },
};
