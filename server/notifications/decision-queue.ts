import type { Message } from '../../shared/message.js';
import type { StorageEngine } from '../db/database.js';
import type { PendingDecision } from '../repositories/message-writer.js';
import type { QueuedChange } from '../services/decisions.js';
import type { NotificationDb } from './tables.js';
import {
  eventOfDelete,
  eventOfEdit,
  eventOfMessage,
  eventOfReaction,
  type NotificationEvent,
  type Reaction,
} from './triggers.js';

/**
 * The decision queue: each chat change that feeds the engine has its row stored in the change's own
 * transaction (services/decisions.ts: sends, edits, deletions, reactions, group member changes), so
 * no instant after the commit can lose it, and is removed in the transaction that records its
 * decision (outbox, logs, digests). The row says what the change was and names its message by
 * `message_id`; the process that made the change holds a lease on it while deciding it from the
 * change's own event. A process that dies leaves the row, and when the lease ends any process
 * claims it, in one statement (`FOR UPDATE SKIP LOCKED` on PostgreSQL, as the outbox is claimed),
 * and reads its message back. Whoever removes the row first records the decision; a slower one
 * finds it gone and rolls back, so an event is decided once even when two processes try.
 */

/** An event as decided: the change and its message as presented. */
export type HeardEvent =
  | { kind: 'message' | 'edited' | 'deleted'; message: Message }
  | { kind: 'reaction'; message: Message; reaction: Reaction };

/** A row claimed from the queue: the change, the message it names, the attempts begun (this one included). */
export interface ClaimedDecision {
  id: number;
  appId: string;
  change: QueuedChange;
  messageId: number;
  attempts: number;
}

export function eventOfHeard(appId: string, heard: HeardEvent): NotificationEvent | undefined {
  switch (heard.kind) {
    case 'message':
      return eventOfMessage(appId, heard.message);
    case 'edited':
      return eventOfEdit(appId, heard.message);
    case 'deleted':
      return eventOfDelete(appId, heard.message);
    case 'reaction':
      return eventOfReaction(appId, heard.message, heard.reaction);
  }
}

/** The row of a change about to be stored, claimed by the process making it until `claimedUntil`. */
export function decisionRowOf(change: QueuedChange, now: number, claimedUntil: number): PendingDecision {
  return { event: JSON.stringify(change), attempts: 1, claimedUntil, createdAt: now };
}

export class DecisionQueue {
  constructor(
    private readonly db: NotificationDb,
    private readonly engine: StorageEngine,
  ) {}

  /** Claims up to `limit` events nobody holds, oldest first, until `leaseUntil`. */
  async claimDue(now: number, limit: number, leaseUntil: number): Promise<ClaimedDecision[]> {
    const rows = await this.db
      .updateTable('notification_decisions')
      .set((eb) => ({ claimed_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('notification_decisions')
          .select('id')
          .where('claimed_until', '<=', now)
          .orderBy('id')
          .limit(limit)
          .$if(this.engine === 'postgres', (pick) => pick.forUpdate().skipLocked()),
      )
      .returning(['id', 'app_id', 'event', 'message_id', 'attempts'])
      .execute();
    return rows
      .map((row) => ({
        id: Number(row.id),
        appId: row.app_id,
        change: JSON.parse(row.event) as QueuedChange,
        messageId: Number(row.message_id),
        attempts: row.attempts,
      }))
      .sort((a, b) => a.id - b.id);
  }

  /**
   * Removes the event as decided, inside the transaction recording the decision (`db`); false
   * when another process removed it first, and the caller must then record nothing.
   */
  async settle(id: number, db: NotificationDb = this.db): Promise<boolean> {
    const result = await db.deleteFrom('notification_decisions').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
