import { sql, type Kysely } from 'kysely';
import type { ChatDatabase } from '../db/schema.js';

/** What happened in one slice of time: messages people sent and the receipts members gave. */
export interface ActivityCounts {
  messagesSent: number;
  readReceipts: number;
  deliveryReceipts: number;
}

/** Usage counts of one app, read from what the store keeps (messages and stored receipts). */
export class StatsRepository {
  constructor(private readonly db: Kysely<ChatDatabase>) {}

  /** How many users sent a message (not an action message) between `from` and `to` (epoch seconds, inclusive). */
  async activeUsers(appId: string, from: number, to: number): Promise<number> {
    const row = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.count<number>('sender').distinct().as('users'))
      .where('app_id', '=', appId)
      .where('category', '!=', 'action')
      .where('sent_at', '>=', from)
      .where('sent_at', '<=', to)
      .executeTakeFirst();
    return Number(row?.users ?? 0);
  }

  /**
   * Activity in slices of `slice` seconds from `start` (epoch seconds, a multiple of `slice`) to
   * `end` (exclusive), keyed by each slice's start.
   */
  async activity(
    appId: string,
    start: number,
    end: number,
    slice: number,
  ): Promise<Map<number, ActivityCounts>> {
    const sliceOf = (column: 'sent_at' | 'at') =>
      sql<number>`(${sql.ref(column)} / ${sql.lit(slice)}) * ${sql.lit(slice)}`;
    const [sent, receipts] = await Promise.all([
      this.db
        .selectFrom('messages')
        .select((eb) => [sliceOf('sent_at').as('slice'), eb.fn.countAll<number>().as('total')])
        .where('app_id', '=', appId)
        .where('category', '!=', 'action')
        .where('sent_at', '>=', start)
        .where('sent_at', '<', end)
        .groupBy(sliceOf('sent_at'))
        .execute(),
      this.db
        .selectFrom('receipt_marks')
        .select((eb) => [sliceOf('at').as('slice'), 'kind', eb.fn.countAll<number>().as('total')])
        .where('app_id', '=', appId)
        .where('at', '>=', start)
        .where('at', '<', end)
        .groupBy([sliceOf('at'), 'kind'])
        .execute(),
    ]);
    const slices = new Map<number, ActivityCounts>();
    const countsAt = (at: number): ActivityCounts => {
      let counts = slices.get(at);
      if (counts === undefined)
        slices.set(at, (counts = { messagesSent: 0, readReceipts: 0, deliveryReceipts: 0 }));
      return counts;
    };
    for (const row of sent) countsAt(Number(row.slice)).messagesSent += Number(row.total);
    for (const row of receipts) {
      const counts = countsAt(Number(row.slice));
      if (row.kind === 'read') counts.readReceipts += Number(row.total);
      else counts.deliveryReceipts += Number(row.total);
    }
    return slices;
  }
}
