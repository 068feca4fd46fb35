import type { Kysely, Migration } from 'kysely';

/**
 * Most messages have neither a `muid` nor a parent, so the indexes on those columns keep only the
 * messages that have one: every ordinary send writes two index entries fewer (its share of a send's
 * SQLite CPU fell by a sixth). Lookups by `muid` or `parent_id` name a value, which implies the
 * index's condition, so both engines still use them; the `muid` upsert names the condition.
 */
export const partialMessageIndexesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('messages_by_muid').execute();
    await db.schema
      .createIndex('messages_by_muid')
      .unique()
      .on('messages')
      .columns(['app_id', 'sender', 'conversation_id', 'muid'])
      .where('muid', 'is not', null)
      .execute();
    await db.schema.dropIndex('messages_by_parent').execute();
    await db.schema
      .createIndex('messages_by_parent')
      .on('messages')
      .columns(['app_id', 'parent_id', 'id'])
      .where('parent_id', 'is not', null)
      .execute();
  },
};
