import type { Kysely, Migration } from 'kysely';

/**
 * Moderators' reviews of flagged messages: `approved` (the message stays) or `disapproved` (it is
 * deleted for everyone). A reviewed message leaves the flagged list until someone flags it again.
 */
export const messageReviewsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('message_reviews')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('message_id', 'bigint', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('reviewed_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('message_reviews_pk', ['app_id', 'message_id'])
      .execute();
  },
};
