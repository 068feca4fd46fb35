import type { StorageEngine } from '../db/database.js';
import { chunks } from './chunks.js';
import type { Channel, MuteTargetType, NotificationDb, OutboxStatus } from './tables.js';

/**
 * The outbox: every webhook call to make, written in the same transaction as the decision that
 * calls for it, and removed from the due list only once the receiver answered 2xx or the attempts
 * ran out. A worker claims a row by pushing its next attempt past a lease, so a process that dies
 * mid-call leaves the row to be claimed again when the lease ends: at least once, never lost.
 */

/**
 * What a call decided inside the recipient's do-not-disturb schedule waits for, and what is checked
 * again when the span ends: a conversation muted by then, or a message read by then, drops it.
 */
export interface DeliveryHold {
  uid: string;
  conversationId: string;
  /** The conversation as a mute names it: the group, or the other user of a one-on-one. */
  conversation: { type: MuteTargetType; id: string };
  /** Mentioned by name: with `bypassPreferencesForMentions` a mute does not drop it. */
  mentioned: boolean;
  /** The message, when reading it makes the notification pointless (messages, replies). */
  messageId?: number;
}

export interface OutboxEntry {
  appId: string;
  channel: Channel;
  idempotencyKey: string;
  body: string;
  /** Epoch ms before which it is not sent; default: at once. */
  notBefore?: number;
  hold?: DeliveryHold;
}

export interface OutboxDelivery extends Omit<OutboxEntry, 'notBefore'> {
  id: number;
  /** Attempts made before this one. */
  attempts: number;
}

/** What the dashboard lists. */
export interface OutboxRecord {
  id: number;
  channel: Channel;
  idempotencyKey: string;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: number;
  completedAt: number | null;
}

export class Outbox {
  constructor(
    private readonly db: NotificationDb,
    private readonly engine: StorageEngine,
  ) {}

  /**
   * Adds the entries, skipping any whose idempotency key the app already has; returns the new
   * rows' ids by key.
   */
  async enqueue(
    entries: readonly OutboxEntry[],
    now: number,
    db: NotificationDb = this.db,
  ): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    for (const part of chunks(entries)) {
      const rows = part.map((entry) => ({
        app_id: entry.appId,
        channel: entry.channel,
        idempotency_key: entry.idempotencyKey,
        body: entry.body,
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: entry.notBefore ?? now,
        created_at: now,
        hold: entry.hold === undefined ? null : JSON.stringify(entry.hold),
      }));
      const inserted = await db
        .insertInto('notification_outbox')
        .values(rows)
        .onConflict((oc) => oc.columns(['app_id', 'idempotency_key']).doNothing())
        .returning(['id', 'idempotency_key'])
        .execute();
      for (const row of inserted) ids.set(row.idempotency_key, Number(row.id));
    }
    return ids;
  }

  /**
   * Claims up to `limit` due deliveries for one attempt each, oldest first, pushing their next
   * attempt to `leaseUntil`. One statement picks and claims them; on PostgreSQL the pick locks its
   * rows and skips rows another worker is claiming (`FOR UPDATE SKIP LOCKED`), so N processes split
   * the due rows between them instead of queueing on the same ones, and each row goes to one of
   * them. SQLite has one writer at a time (and one process per file), which gives the same.
   */
  async claimDue(now: number, limit: number, leaseUntil: number): Promise<OutboxDelivery[]> {
    const rows = await this.db
      .updateTable('notification_outbox')
      .set((eb) => ({ next_attempt_at: leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('notification_outbox')
          .select('id')
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(limit)
          .$if(this.engine === 'postgres', (pick) => pick.forUpdate().skipLocked()),
      )
      .returning(['id', 'app_id', 'channel', 'idempotency_key', 'body', 'attempts', 'hold'])
      .execute();
    return rows
      .map((row) => ({
        id: Number(row.id),
        appId: row.app_id,
        channel: row.channel,
        idempotencyKey: row.idempotency_key,
        body: row.body,
        attempts: row.attempts - 1,
        ...(row.hold === null ? {} : { hold: JSON.parse(row.hold) as DeliveryHold }),
      }))
      .sort((a, b) => a.id - b.id);
  }

  async delivered(ids: readonly number[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('notification_outbox')
      .set({ status: 'delivered', completed_at: now, last_error: null })
      .where('id', 'in', ids)
      .execute();
  }

  async retryLater(id: number, nextAttemptAt: number, error: string): Promise<void> {
    await this.db
      .updateTable('notification_outbox')
      .set({ next_attempt_at: nextAttemptAt, last_error: error })
      .where('id', '=', id)
      .execute();
  }

  /** The dead letter: kept with its last error for the operator, never tried again unless requeued. */
  async dead(id: number, now: number, error: string): Promise<void> {
    await this.db
      .updateTable('notification_outbox')
      .set({ status: 'dead', completed_at: now, last_error: error })
      .where('id', '=', id)
      .execute();
  }

  /** A held call no longer wanted when its hold ended: kept, with why, and never sent. */
  async dropped(id: number, now: number, reason: string): Promise<void> {
    await this.db
      .updateTable('notification_outbox')
      .set({ status: 'dropped', completed_at: now, last_error: reason })
      .where('id', '=', id)
      .execute();
  }

  /** Sends a dead letter again, with a fresh count of attempts; false when there is no such dead letter. */
  async requeue(appId: string, id: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('notification_outbox')
      .set({ status: 'pending', attempts: 0, next_attempt_at: now, completed_at: null })
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .where('status', '=', 'dead')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The app's deliveries in a status, newest first. */
  async list(appId: string, status: OutboxStatus, limit: number): Promise<OutboxRecord[]> {
    const rows = await this.db
      .selectFrom('notification_outbox')
      .select([
        'id',
        'channel',
        'idempotency_key',
        'status',
        'attempts',
        'next_attempt_at',
        'last_error',
        'created_at',
        'completed_at',
      ])
      .where('app_id', '=', appId)
      .where('status', '=', status)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      channel: row.channel,
      idempotencyKey: row.idempotency_key,
      status: row.status,
      attempts: row.attempts,
      nextAttemptAt: row.next_attempt_at,
      lastError: row.last_error,
      createdAt: row.created_at,
      completedAt: row.completed_at,
    }));
  }

  /** Forgets finished deliveries (delivered, dead or dropped) that ended before `before`. */
  async prune(before: number): Promise<void> {
    await this.db
      .deleteFrom('notification_outbox')
      .where('status', '!=', 'pending')
      .where('completed_at', '<', before)
      .execute();
  }
}
