import type { Kysely, Migration } from 'kysely';

/**
 * Tables of the client protocol and the AI-agent bridge: per-app client settings, read and delivery
 * state per conversation member, form submissions (so a button acts once) and registered agents.
 */
export const clientProtocolMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('app_client_settings')
      .addColumn('app_id', 'text', (c) => c.primaryKey())
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('conversation_reads')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('read_message_id', 'bigint', (c) => c.notNull())
      .addColumn('read_at', 'bigint')
      .addColumn('delivered_message_id', 'bigint', (c) => c.notNull())
      .addColumn('delivered_at', 'bigint')
      .addPrimaryKeyConstraint('conversation_reads_pk', ['app_id', 'conversation_id', 'uid'])
      .execute();
    await db.schema
      .createTable('form_submissions')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('message_id', 'bigint', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('element_id', 'text', (c) => c.notNull())
      .addColumn('submitted_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('form_submissions_pk', ['app_id', 'message_id', 'uid', 'element_id'])
      .execute();
    await db.schema
      .createTable('agents')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('agent_id', 'text', (c) => c.notNull())
      .addColumn('deployment_url', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('namespace', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('agents_pk', ['app_id', 'uid'])
      .execute();
  },
};
