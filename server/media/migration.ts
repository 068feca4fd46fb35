import type { Kysely, Migration } from 'kysely';

/** The secret that signs attachment URLs, shared by every process on the store. */
export const mediaMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('media_url_keys')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
