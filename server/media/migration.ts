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

/**
 * Presigned upload targets issued and not yet linked to a message (`server/media/uploads.ts`): the
 * sweep removes their files once the target has expired and the grace has passed.
 */
export const mediaUploadsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('media_uploads')
      .addColumn('folder', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .execute();
    await db.schema.createIndex('media_uploads_expiry').on('media_uploads').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('media_uploads').execute();
  },
};

/**
 * When a send linked a presigned upload (`claimed_at`, epoch seconds): the record stays until the
 * send committed, so a process dying in between leaves it for the sweep.
 */
export const mediaUploadClaimsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('media_uploads').addColumn('claimed_at', 'bigint').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('media_uploads').dropColumn('claimed_at').execute();
  },
};
