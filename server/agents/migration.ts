import type { Kysely, Migration } from 'kysely';

/** Conversations an operator took over from an agent (the agent bridge stays silent in them). */
export const agentTakeoversMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('agent_takeovers')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('agent_uid', 'text', (c) => c.notNull())
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('by_uid', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('agent_takeovers_pk', ['app_id', 'agent_uid', 'conversation_id'])
      .execute();
  },
};
