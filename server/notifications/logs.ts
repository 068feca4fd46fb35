import { chunks } from './chunks.js';
import type { Channel, NotificationDb, OutboxStatus } from './tables.js';

/**
 * The decision log: for every recipient an event reached, whether a notification was sent on a
 * channel or why not, joined at read time with how its delivery went.
 */

/** What a decision was about: the recipient, the trigger, the channel and the message. */
interface LogSubject {
  uid: string;
  trigger: string;
  channel: Channel | null;
  messageId: string | null;
  conversationId: string;
  sender: string;
  receiver: string;
  receiverType: 'user' | 'group';
}

export interface LogEntry extends LogSubject {
  appId: string;
  /** Null when a notification was sent. */
  reason: string | null;
  outboxId: number | null;
  createdAt: number;
}

/** A log entry as `GET /notifications/v1/logs` answers it. */
export interface NotificationLog extends LogSubject {
  id: string;
  notificationTriggered: boolean;
  reason: string | null;
  /** Epoch seconds. */
  createdAt: number;
  delivery?: { status: OutboxStatus; attempts: number; lastError: string | null };
}

export interface LogQuery {
  uid?: string | undefined;
  messageId?: string | undefined;
  channel?: Channel | undefined;
  /** Entries older than this log id (paging backwards). */
  before?: number | undefined;
  limit: number;
}

export class NotificationLogs {
  constructor(private readonly db: NotificationDb) {}

  async record(entries: readonly LogEntry[], db: NotificationDb = this.db): Promise<void> {
    for (const part of chunks(entries)) {
      await db
        .insertInto('notification_logs')
        .values(
          part.map((entry) => ({
            app_id: entry.appId,
            uid: entry.uid,
            trigger: entry.trigger,
            channel: entry.channel,
            message_id: entry.messageId,
            conversation_id: entry.conversationId,
            sender: entry.sender,
            receiver: entry.receiver,
            receiver_type: entry.receiverType,
            triggered: entry.reason === null ? 1 : 0,
            reason: entry.reason,
            outbox_id: entry.outboxId,
            created_at: entry.createdAt,
          })),
        )
        .execute();
    }
  }

  /** Newest first. */
  async list(appId: string, query: LogQuery): Promise<NotificationLog[]> {
    let select = this.db
      .selectFrom('notification_logs as log')
      .leftJoin('notification_outbox as outbox', 'outbox.id', 'log.outbox_id')
      .select([
        'log.id',
        'log.uid',
        'log.trigger',
        'log.channel',
        'log.message_id',
        'log.conversation_id',
        'log.sender',
        'log.receiver',
        'log.receiver_type',
        'log.triggered',
        'log.reason',
        'log.created_at',
        'outbox.status',
        'outbox.attempts',
        'outbox.last_error',
      ])
      .where('log.app_id', '=', appId);
    if (query.uid !== undefined) select = select.where('log.uid', '=', query.uid);
    if (query.messageId !== undefined) select = select.where('log.message_id', '=', query.messageId);
    if (query.channel !== undefined) select = select.where('log.channel', '=', query.channel);
    if (query.before !== undefined) select = select.where('log.id', '<', query.before);
    const rows = await select.orderBy('log.id', 'desc').limit(query.limit).execute();
    return rows.map((row) => {
      const log: NotificationLog = {
        id: String(row.id),
        uid: row.uid,
        trigger: row.trigger,
        channel: row.channel,
        messageId: row.message_id,
        conversationId: row.conversation_id,
        sender: row.sender,
        receiver: row.receiver,
        receiverType: row.receiver_type,
        notificationTriggered: row.triggered === 1,
        reason: row.reason,
        createdAt: Math.floor(row.created_at / 1000),
      };
      if (row.status !== null && row.attempts !== null) {
        log.delivery = { status: row.status, attempts: row.attempts, lastError: row.last_error };
      }
      return log;
    });
  }

  /** Notifications sent to `uid` on `channel` since `since` (epoch ms), in one conversation when given. */
  async countSent(
    appId: string,
    uid: string,
    channel: Channel,
    since: number,
    conversationId?: string,
  ): Promise<number> {
    let select = this.db
      .selectFrom('notification_logs')
      .select((eb) => eb.fn.countAll<number>().as('sent'))
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .where('channel', '=', channel)
      .where('created_at', '>=', since)
      .where('triggered', '=', 1);
    if (conversationId !== undefined) select = select.where('conversation_id', '=', conversationId);
    const row = await select.executeTakeFirst();
    return Number(row?.sent ?? 0);
  }

  async prune(before: number): Promise<void> {
    await this.db.deleteFrom('notification_logs').where('created_at', '<', before).execute();
  }
}
