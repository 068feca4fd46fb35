import type { Kysely, Selectable } from 'kysely';
import type { ChatDatabase, ConversationTable } from '../db/schema.js';

export type ConversationRow = Selectable<ConversationTable>;

/** Conversation rows, maintained by `MessageRepository.insert`; read here per participant. */
export class ConversationRepository {
  constructor(private readonly db: Kysely<ChatDatabase>) {}

  private ofParticipant(appId: string, uid: string, guids: string[]) {
    return this.db
      .selectFrom('conversations')
      .where('app_id', '=', appId)
      .where((eb) => {
        const own = eb.or([eb('first_uid', '=', uid), eb('second_uid', '=', uid)]);
        return guids.length === 0 ? own : eb.or([own, eb('guid', 'in', guids)]);
      });
  }

  /** The user's conversations, most recently active first: one-to-one ones and those of their groups. */
  async listFor(
    appId: string,
    uid: string,
    guids: string[],
    query: { conversationType?: 'user' | 'group' | undefined; page: number; perPage: number },
  ): Promise<{ conversations: ConversationRow[]; total: number }> {
    let base = this.ofParticipant(appId, uid, guids);
    if (query.conversationType !== undefined)
      base = base.where('conversation_type', '=', query.conversationType);
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst();
    const conversations = await base
      .selectAll()
      .orderBy('updated_at', 'desc')
      .orderBy('last_message_id', 'desc')
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return { conversations, total: Number(counted?.total ?? 0) };
  }

  async find(appId: string, conversationId: string): Promise<ConversationRow | undefined> {
    return this.db
      .selectFrom('conversations')
      .selectAll()
      .where('app_id', '=', appId)
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
  }

  /**
   * Messages others sent in each conversation that `uid` has not read. No read receipts exist yet
   * (they come with the client protocol), so every message from someone else counts as unread.
   */
  async unreadCounts(appId: string, uid: string, conversationIds: string[]): Promise<Map<string, number>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('messages')
      .select(['conversation_id', (eb) => eb.fn.countAll<number>().as('unread')])
      .where('app_id', '=', appId)
      .where('conversation_id', 'in', conversationIds)
      .where('sender', '!=', uid)
      .where('category', '!=', 'action')
      .where('deleted_at', 'is', null)
      .groupBy('conversation_id')
      .execute();
    const counts = new Map(conversationIds.map((id) => [id, 0]));
    for (const row of rows) counts.set(row.conversation_id, Number(row.unread));
    return counts;
  }
}
