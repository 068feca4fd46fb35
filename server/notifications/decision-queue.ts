import type { Message } from '../../shared/message.js';
import type { StorageEngine } from '../db/database.js';
import type { DecisionRow } from '../repositories/message-writer.js';
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
 * The decision queue: each chat event the engine hears is written here before it is decided, and
 * removed in the same transaction that records its decision (outbox, logs, digests). The process
 * that heard it holds a lease on it while deciding; a process that dies leaves the row, and when
 * the lease ends any process claims it, in one statement (`FOR UPDATE SKIP LOCKED` on PostgreSQL,
 * as the outbox is claimed). Whoever removes the row first records the decision; a slower one
 * finds it gone and rolls back, so an event is decided once even when two processes try.
 *
 * A message sent through the message service has its row written in the send's own transaction
 * (`decisionRowOfSent`, stored by the message writer), so no instant after the commit can lose it; other
 * events (edits, deletions, reactions, action messages) are written when heard (`add`).
 */

/** What is stored of an event: enough to make it again (triggers.ts). */
export type HeardEvent =
  | { kind: 'message' | 'edited' | 'deleted'; message: Message }
  | { kind: 'reaction'; message: Message; reaction: Reaction };

export interface QueuedDecision {
  id: number;
  appId: string;
  heard: HeardEvent;
  /** Attempts begun, this one included. */
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

/**
 * The row of a message about to be sent, claimed by the sending process until `claimedUntil`. The
 * message has no id yet: the row's `message_id` gives it when the event is read back.
 */
export function decisionRowOfSent(message: Message, now: number, claimedUntil: number): DecisionRow {
  const { id: _notYetStored, ...unsaved } = message;
  return {
    event: JSON.stringify({ kind: 'message', message: unsaved }),
    attempts: 1,
    claimedUntil,
    createdAt: now,
  };
}

export class DecisionQueue {
  constructor(
    private readonly db: NotificationDb,
    private readonly engine: StorageEngine,
  ) {}

  /** Writes an event heard now, claimed until `claimedUntil` (now: for any process to take). */
  async add(appId: string, heard: HeardEvent, now: number, claimedUntil: number): Promise<number> {
    const row = await this.db
      .insertInto('notification_decisions')
      .values({
        app_id: appId,
        event: JSON.stringify(heard),
        attempts: claimedUntil > now ? 1 : 0,
        claimed_until: claimedUntil,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** Claims up to `limit` events nobody holds, oldest first, until `leaseUntil`. */
  async claimDue(now: number, limit: number, leaseUntil: number): Promise<QueuedDecision[]> {
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
      .map((row) => {
        const heard = JSON.parse(row.event) as HeardEvent;
        if (row.message_id !== null) heard.message.id = String(row.message_id);
        return { id: Number(row.id), appId: row.app_id, heard, attempts: row.attempts };
      })
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
