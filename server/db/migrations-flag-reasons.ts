import type { Kysely, Migration } from 'kysely';

/** The app's own flag reasons, beside the defaults every app has (`shared/moderation.ts`). */
export const flagReasonsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('flag_reasons')
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.app_id').onDelete('cascade'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('flag_reasons_pk', ['app_id', 'id'])
      .execute();
  },
};
