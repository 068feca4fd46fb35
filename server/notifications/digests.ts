import { chunks } from './chunks.js';
import type { DigestChannel, NotificationDb } from './tables.js';

/**
 * Email and SMS batches. Each notified message waits as an item for its recipient, channel and
 * conversation; a batch is due when its first item is (`intervalInSeconds` after that message),
 * and taking it removes all its items at once, so each message goes out in at most one batch.
 */

export interface DigestItem {
  appId: string;
  uid: string;
  channel: DigestChannel;
  conversationId: string;
  messageId: number;
  dueAt: number;
}

export interface DigestBatch {
  appId: string;
  uid: string;
  channel: DigestChannel;
  conversationId: string;
}

export class Digests {
  constructor(private readonly db: NotificationDb) {}

  async add(items: readonly DigestItem[], db: NotificationDb = this.db): Promise<void> {
    for (const part of chunks(items)) {
      await db
        .insertInto('notification_digest_items')
        .values(
          part.map((item) => ({
            app_id: item.appId,
            uid: item.uid,
            channel: item.channel,
            conversation_id: item.conversationId,
            message_id: item.messageId,
            due_at: item.dueAt,
          })),
        )
        .execute();
    }
  }

  /** Batches whose first message has waited its interval. */
  async due(now: number, limit: number): Promise<DigestBatch[]> {
    const rows = await this.db
      .selectFrom('notification_digest_items')
      .select(['app_id', 'uid', 'channel', 'conversation_id'])
      .distinct()
      .where('due_at', '<=', now)
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      appId: row.app_id,
      uid: row.uid,
      channel: row.channel,
      conversationId: row.conversation_id,
    }));
  }

  /** Makes the whole batch wait until `until` (epoch ms): a do-not-disturb span holds it. */
  async postpone(batch: DigestBatch, until: number): Promise<void> {
    await this.db
      .updateTable('notification_digest_items')
      .set({ due_at: until })
      .where('app_id', '=', batch.appId)
      .where('uid', '=', batch.uid)
      .where('channel', '=', batch.channel)
      .where('conversation_id', '=', batch.conversationId)
      .where('due_at', '<', until)
      .execute();
  }

  /** Removes the batch and returns its message ids, ascending; empty when another worker took it. */
  async take(batch: DigestBatch): Promise<number[]> {
    const rows = await this.db
      .deleteFrom('notification_digest_items')
      .where('app_id', '=', batch.appId)
      .where('uid', '=', batch.uid)
      .where('channel', '=', batch.channel)
      .where('conversation_id', '=', batch.conversationId)
      .returning('message_id')
      .execute();
    return [...new Set(rows.map((row) => Number(row.message_id)))].sort((a, b) => a - b);
  }
}
