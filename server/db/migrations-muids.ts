import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A client's own message id (`muid`) names one message per sender and conversation, so a send
 * retried through any process stores nothing new. Copies an older server kept (it stored every
 * retry) lose their `muid`; the first message sent with it keeps it.
 */
export const messageMuidsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      UPDATE messages SET muid = NULL
      WHERE muid IS NOT NULL AND EXISTS (
        SELECT 1 FROM messages AS earlier
        WHERE earlier.app_id = messages.app_id
          AND earlier.sender = messages.sender
          AND earlier.conversation_id = messages.conversation_id
          AND earlier.muid = messages.muid
          AND earlier.id < messages.id
      )`.execute(db);
    await db.schema
      .createIndex('messages_by_muid')
      .unique()
      .on('messages')
      .columns(['app_id', 'sender', 'conversation_id', 'muid'])
      .execute();
  },
};
