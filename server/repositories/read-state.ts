import type { Kysely, Selectable } from 'kysely';
import type { ChatDatabase, ConversationReadTable } from '../db/schema.js';
import { nowSeconds } from '../time.js';

export type ReceiptKind = 'read' | 'delivered';

/** How far one member has read and received one conversation: message ids, and when (epoch seconds). */
export interface ReadPointer {
  conversationId: string;
  uid: string;
  readMessageId: number;
  readAt: number | undefined;
  deliveredMessageId: number;
  deliveredAt: number | undefined;
}

/** The one place a conversation_reads row becomes a pointer. */
const pointerOf = (row: Selectable<ConversationReadTable>): ReadPointer => ({
  conversationId: row.conversation_id,
  uid: row.uid,
  readMessageId: Number(row.read_message_id),
  readAt: row.read_at === null ? undefined : Number(row.read_at),
  deliveredMessageId: Number(row.delivered_message_id),
  deliveredAt: row.delivered_at === null ? undefined : Number(row.delivered_at),
});

/** One move of a member's pointer: everything up to `messageId` became read (or received) at `at`. */
export interface ReceiptMark {
  kind: ReceiptKind;
  messageId: number;
  at: number;
}

/**
 * When a member received and read message `id`, from their marks in ascending message order: the
 * first mark at or past it (pointers only move forward, so it is also the earliest).
 */
export function receiptOf(
  marks: ReadonlyArray<ReceiptMark>,
  id: number,
): { deliveredAt?: number; readAt?: number } {
  const delivered = marks.find((mark) => mark.kind === 'delivered' && mark.messageId >= id);
  const read = marks.find((mark) => mark.kind === 'read' && mark.messageId >= id);
  return {
    ...(delivered === undefined ? {} : { deliveredAt: delivered.at }),
    ...(read === undefined ? {} : { readAt: read.at }),
  };
}

/**
 * How far each member has read and received each conversation: one row per member, moved forward
 * only (a late `delivered` never undoes a `read`). Reading a message implies receiving it.
 */
export class ReadStateRepository {
  constructor(private readonly db: Kysely<ChatDatabase>) {}

  /**
   * Moves `uid`'s pointer forward to `messageId` and records the move in `receipt_marks`, in one
   * transaction: everything up to the message is read (or received) from now on.
   */
  async mark(
    appId: string,
    conversationId: string,
    uid: string,
    kind: ReceiptKind,
    messageId: number,
  ): Promise<number> {
    const at = nowSeconds();
    await this.db.transaction().execute(async (trx) => {
      const current = await this.find(appId, conversationId, uid, trx);
      const wasRead = current?.readMessageId ?? 0;
      const wasDelivered = current?.deliveredMessageId ?? 0;
      const read = kind === 'read' ? Math.max(messageId, wasRead) : wasRead;
      const delivered = Math.max(messageId, read, wasDelivered);
      const row = {
        app_id: appId,
        conversation_id: conversationId,
        uid,
        read_message_id: read,
        read_at: kind === 'read' ? at : (current?.readAt ?? null),
        delivered_message_id: delivered,
        delivered_at: at,
      };
      await trx
        .insertInto('conversation_reads')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['app_id', 'conversation_id', 'uid']).doUpdateSet({
            read_message_id: row.read_message_id,
            read_at: row.read_at,
            delivered_message_id: row.delivered_message_id,
            delivered_at: row.delivered_at,
          }),
        )
        .execute();
      const moves: ReceiptMark[] = [];
      if (read > wasRead) moves.push({ kind: 'read', messageId: read, at });
      if (delivered > wasDelivered) moves.push({ kind: 'delivered', messageId: delivered, at });
      if (moves.length > 0) {
        await trx
          .insertInto('receipt_marks')
          .values(
            moves.map((move) => ({
              app_id: appId,
              conversation_id: conversationId,
              uid,
              kind: move.kind,
              message_id: move.messageId,
              at: move.at,
            })),
          )
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    });
    return at;
  }

  /**
   * The receipt marks in these conversations reaching `fromMessageId` or past it, by conversation and
   * member, each list in ascending message order.
   */
  async marksFrom(
    appId: string,
    conversationIds: ReadonlyArray<string>,
    fromMessageId: number,
  ): Promise<Map<string, Map<string, ReceiptMark[]>>> {
    const byConversation = new Map<string, Map<string, ReceiptMark[]>>();
    if (conversationIds.length === 0) return byConversation;
    const rows = await this.db
      .selectFrom('receipt_marks')
      .select(['conversation_id', 'uid', 'kind', 'message_id', 'at'])
      .where('app_id', '=', appId)
      .where('conversation_id', 'in', [...conversationIds])
      .where('message_id', '>=', fromMessageId)
      .orderBy('message_id')
      .execute();
    for (const row of rows) {
      let members = byConversation.get(row.conversation_id);
      if (members === undefined) byConversation.set(row.conversation_id, (members = new Map()));
      const marks = members.get(row.uid) ?? [];
      marks.push({ kind: row.kind, messageId: Number(row.message_id), at: Number(row.at) });
      members.set(row.uid, marks);
    }
    return byConversation;
  }

  /**
   * Moves `uid`'s read pointer back to just before `messageId` (`markMessageAsUnread`): that message
   * and the rest are unread again. A pointer already before it stays, so nothing unread becomes read;
   * receipts already given are history and stay.
   */
  async markUnreadFrom(appId: string, conversationId: string, uid: string, messageId: number): Promise<void> {
    await this.db
      .updateTable('conversation_reads')
      .set({ read_message_id: Math.max(0, messageId - 1) })
      .where('app_id', '=', appId)
      .where('conversation_id', '=', conversationId)
      .where('uid', '=', uid)
      .where('read_message_id', '>=', messageId)
      .execute();
  }

  async find(
    appId: string,
    conversationId: string,
    uid: string,
    db: Kysely<ChatDatabase> = this.db,
  ): Promise<ReadPointer | undefined> {
    const row = await db
      .selectFrom('conversation_reads')
      .selectAll()
      .where('app_id', '=', appId)
      .where('conversation_id', '=', conversationId)
      .where('uid', '=', uid)
      .executeTakeFirst();
    return row === undefined ? undefined : pointerOf(row);
  }

  async forMember(appId: string, uid: string, conversationIds: string[]): Promise<Map<string, ReadPointer>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('conversation_reads')
      .selectAll()
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .where('conversation_id', 'in', conversationIds)
      .execute();
    return new Map(rows.map((row) => [row.conversation_id, pointerOf(row)]));
  }
}
