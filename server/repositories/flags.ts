import type { Kysely, Selectable } from 'kysely';
import type { ChatDatabase, MessageFlagTable } from '../db/schema.js';
import { nowSeconds } from '../time.js';

/** One user's flag on a message: why (a reason id of the app's), with their remark. */
export interface MessageFlag {
  messageId: number;
  uid: string;
  reasonId: string;
  remark: string | undefined;
  flaggedAt: number;
}

/** The one place a message_flags row becomes a flag. */
const flagOf = (row: Selectable<MessageFlagTable>): MessageFlag => ({
  messageId: Number(row.message_id),
  uid: row.uid,
  reasonId: row.reason_id,
  remark: row.remark ?? undefined,
  flaggedAt: Number(row.flagged_at),
});

/** Users' flags on messages: one per user and message; flagging again replaces the reason and remark. */
export class FlagRepository {
  constructor(private readonly db: Kysely<ChatDatabase>) {}

  async flag(
    appId: string,
    messageId: number,
    uid: string,
    reasonId: string,
    remark: string | undefined,
  ): Promise<void> {
    const row = {
      app_id: appId,
      message_id: messageId,
      uid,
      reason_id: reasonId,
      remark: remark ?? null,
      flagged_at: nowSeconds(),
    };
    await this.db
      .insertInto('message_flags')
      .values(row)
      .onConflict((conflict) =>
        conflict
          .columns(['app_id', 'message_id', 'uid'])
          .doUpdateSet({ reason_id: row.reason_id, remark: row.remark, flagged_at: row.flagged_at }),
      )
      .execute();
  }

  /** Flagged messages, the most recently flagged first, each with all its flags. */
  async listFlagged(
    appId: string,
    page: number,
    perPage: number,
  ): Promise<{ messages: Array<{ messageId: number; flags: MessageFlag[] }>; total: number }> {
    const base = this.db.selectFrom('message_flags').where('app_id', '=', appId);
    const counted = await base
      .select((eb) => eb.fn.count<number>('message_id').distinct().as('total'))
      .executeTakeFirst();
    const ids = await base
      .select(['message_id', (eb) => eb.fn.max('flagged_at').as('last')])
      .groupBy('message_id')
      .orderBy('last', 'desc')
      .orderBy('message_id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    const messageIds = ids.map((row) => Number(row.message_id));
    const flags =
      messageIds.length === 0
        ? []
        : (
            await base
              .selectAll()
              .where('message_id', 'in', messageIds)
              .orderBy('flagged_at', 'desc')
              .orderBy('uid')
              .execute()
          ).map(flagOf);
    return {
      messages: messageIds.map((messageId) => ({
        messageId,
        flags: flags.filter((flag) => flag.messageId === messageId),
      })),
      total: Number(counted?.total ?? 0),
    };
  }
}
