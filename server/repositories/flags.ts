import type { Kysely, Selectable } from 'kysely';
import type { ReviewStatus } from '../../shared/moderation.js';
import type { ChatDatabase, MessageFlagTable, MessageReviewTable } from '../db/schema.js';
import { nowSeconds } from '../time.js';

/** A moderator's verdict on a flagged message, and when it was given. */
export interface MessageReview {
  status: ReviewStatus;
  reviewedAt: number;
}

/** The one place a message_reviews row becomes a review. */
const reviewOf = (row: Selectable<MessageReviewTable>): MessageReview => ({
  status: row.status,
  reviewedAt: Number(row.reviewed_at),
});

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
    // Flagged again: the message waits for a review again.
    await this.db
      .deleteFrom('message_reviews')
      .where('app_id', '=', appId)
      .where('message_id', '=', messageId)
      .execute();
  }

  /**
   * Flagged messages, the most recently flagged first, each with all its flags: those waiting for
   * a review, or (`reviewed`) those reviewed since their last flag, with the review.
   */
  async listFlagged(
    appId: string,
    page: number,
    perPage: number,
    reviewed = false,
  ): Promise<{
    messages: Array<{ messageId: number; flags: MessageFlag[]; review?: MessageReview }>;
    total: number;
  }> {
    const base = this.db
      .selectFrom('message_flags')
      .where('app_id', '=', appId)
      .where(({ exists, not, selectFrom }) => {
        const review = exists(
          selectFrom('message_reviews')
            .select('message_reviews.message_id')
            .whereRef('message_reviews.app_id', '=', 'message_flags.app_id')
            .whereRef('message_reviews.message_id', '=', 'message_flags.message_id'),
        );
        return reviewed ? review : not(review);
      });
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
    const reviews =
      !reviewed || messageIds.length === 0
        ? []
        : await this.db
            .selectFrom('message_reviews')
            .selectAll()
            .where('app_id', '=', appId)
            .where('message_id', 'in', messageIds)
            .execute();
    return {
      messages: messageIds.map((messageId) => {
        const review = reviews.find((row) => Number(row.message_id) === messageId);
        return {
          messageId,
          flags: flags.filter((flag) => flag.messageId === messageId),
          ...(review === undefined ? {} : { review: reviewOf(review) }),
        };
      }),
      total: Number(counted?.total ?? 0),
    };
  }

  /** Whether the message has flags waiting for a review. */
  async awaitsReview(appId: string, messageId: number): Promise<boolean> {
    const flagged = await this.db
      .selectFrom('message_flags')
      .select('message_id')
      .where('app_id', '=', appId)
      .where('message_id', '=', messageId)
      .where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom('message_reviews')
              .select('message_reviews.message_id')
              .whereRef('message_reviews.app_id', '=', 'message_flags.app_id')
              .whereRef('message_reviews.message_id', '=', 'message_flags.message_id'),
          ),
        ),
      )
      .limit(1)
      .executeTakeFirst();
    return flagged !== undefined;
  }

  /** Records the verdict, in the caller's transaction `trx` when it gives one. */
  async review(
    appId: string,
    messageId: number,
    status: ReviewStatus,
    trx: Kysely<ChatDatabase> = this.db,
  ): Promise<MessageReview> {
    const row = { app_id: appId, message_id: messageId, status, reviewed_at: nowSeconds() };
    await trx
      .insertInto('message_reviews')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['app_id', 'message_id']).doUpdateSet({ status, reviewed_at: row.reviewed_at }),
      )
      .execute();
    return reviewOf(row);
  }
}
