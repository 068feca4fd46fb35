import { hash } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';

/**
 * What a key is stored as: its SHA-256, to look it up; the key itself is never stored in the clear.
 * Every server API request hashes its key: the one-shot `hash` costs about 40 % of a `Hash` object's.
 */
export const keyHashOf = (apiKey: string): string => hash('sha256', apiKey, 'hex');

/** How a key is named once created: the first 12 hex digits of its SHA-256, the fingerprint the CLI prints. */
export const keyIdOf = (apiKey: string): string => keyHashOf(apiKey).slice(0, 12);

/**
 * API keys stored as hashes (`app_keys`) instead of in the clear (`api_keys`). The keys the server
 * seeds at start keep a copy in `start_key`, sealed with the secret key at start (the start shows
 * them to the operator and the demo page embeds its auth key); keys created through `/apikeys` have
 * none. The migration copies the old keys in the clear; the start seals them before serving.
 */
export const hashedApiKeysMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('app_keys')
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.app_id').onDelete('cascade'))
      .addColumn('key_hash', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('start_key', 'text')
      .addPrimaryKeyConstraint('app_keys_pk', ['app_id', 'key_hash'])
      .execute();
    await db.schema
      .createIndex('app_keys_by_id')
      .unique()
      .on('app_keys')
      .columns(['app_id', 'key_id'])
      .execute();
    const old = db as unknown as Kysely<{
      api_keys: { app_id: string; api_key: string; name: string; scope: string; created_at: number };
      app_keys: {
        app_id: string;
        key_hash: string;
        key_id: string;
        name: string;
        scope: string;
        created_at: number;
        start_key: string | null;
      };
    }>;
    const rows = await old.selectFrom('api_keys').selectAll().execute();
    if (rows.length > 0) {
      await old
        .insertInto('app_keys')
        .values(
          rows.map((row) => ({
            app_id: row.app_id,
            key_hash: keyHashOf(row.api_key),
            key_id: keyIdOf(row.api_key),
            name: row.name,
            scope: row.scope,
            created_at: row.created_at,
            start_key: row.api_key,
          })),
        )
        .execute();
    }
    await db.schema.dropTable('api_keys').execute();
  },
};
