import type { Kysely } from 'kysely';
import type { ChatDatabase } from '../db/schema.js';
import { nowSeconds } from '../time.js';

/**
 * Users' explicit follows and unfollows of threads, one per user and root message: the choice a
 * user made overrides whether they started or replied in the thread.
 */
export class ThreadSubscriptionRepository {
  constructor(private readonly db: Kysely<ChatDatabase>) {}

  /** `uid` follows (or unfollows) the thread under `parentId`; the latest choice holds. */
  async choose(appId: string, uid: string, parentId: number, subscribed: boolean): Promise<void> {
    const row = {
      app_id: appId,
      uid,
      parent_id: parentId,
      subscribed: subscribed ? 1 : 0,
      updated_at: nowSeconds(),
    };
    await this.db
      .insertInto('thread_subscriptions')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['app_id', 'uid', 'parent_id'])
          .doUpdateSet({ subscribed: row.subscribed, updated_at: row.updated_at }),
      )
      .execute();
  }

  /** What `uid` chose for each of these threads (true: follows); threads without a choice are absent. */
  async choicesOf(
    appId: string,
    uid: string,
    parentIds: ReadonlyArray<number>,
  ): Promise<Map<number, boolean>> {
    if (parentIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('thread_subscriptions')
      .select(['parent_id', 'subscribed'])
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .where('parent_id', 'in', [...parentIds])
      .execute();
    return new Map(rows.map((row) => [Number(row.parent_id), Number(row.subscribed) === 1]));
  }
}
