import type { Kysely, Selectable } from 'kysely';
import type { ChatDatabase, ConversationReadTable } from '../db/schema.js';
import { nowSeconds } from '../time.js';

export type ReadStateRow = Selectable<ConversationReadTable>;
export type ReceiptKind = 'read' | 'delivered';

/**
 * How far each member has read and received each conversation: one row per member, moved forward
 * only (a late `delivered` never undoes a `read`). Reading a message implies receiving it.
 */
export class ReadStateRepository {
  constructor(private readonly db: Kysely<ChatDatabase>) {}

  async mark(
    appId: string,
    conversationId: string,
    uid: string,
    kind: ReceiptKind,
    messageId: number,
  ): Promise<number> {
    const at = nowSeconds();
    const current = await this.find(appId, conversationId, uid);
    const read =
      kind === 'read' ? Math.max(messageId, current?.read_message_id ?? 0) : (current?.read_message_id ?? 0);
    const delivered = Math.max(messageId, read, current?.delivered_message_id ?? 0);
    const row: ReadStateRow = {
      app_id: appId,
      conversation_id: conversationId,
      uid,
      read_message_id: read,
      read_at: kind === 'read' ? at : (current?.read_at ?? null),
      delivered_message_id: delivered,
      delivered_at: at,
    };
    await this.db
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
    return at;
  }

  /** Marks everything before `messageId` read and the rest unread again (`markMessageAsUnread`). */
  async markUnreadFrom(appId: string, conversationId: string, uid: string, messageId: number): Promise<void> {
    await this.db
      .updateTable('conversation_reads')
      .set({ read_message_id: Math.max(0, messageId - 1) })
      .where('app_id', '=', appId)
      .where('conversation_id', '=', conversationId)
      .where('uid', '=', uid)
      .execute();
  }

  async find(appId: string, conversationId: string, uid: string): Promise<ReadStateRow | undefined> {
    return this.db
      .selectFrom('conversation_reads')
      .selectAll()
      .where('app_id', '=', appId)
      .where('conversation_id', '=', conversationId)
      .where('uid', '=', uid)
      .executeTakeFirst();
  }

  async forMember(appId: string, uid: string, conversationIds: string[]): Promise<Map<string, ReadStateRow>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('conversation_reads')
      .selectAll()
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .where('conversation_id', 'in', conversationIds)
      .execute();
    return new Map(rows.map((row) => [row.conversation_id, row]));
  }
}
