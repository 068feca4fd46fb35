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

  /** Messages others sent in each conversation after the last one `uid` has read. */
  async unreadCounts(appId: string, uid: string, conversationIds: string[]): Promise<Map<string, number>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('messages')
      .leftJoin('conversation_reads as reads', (join) =>
        join
          .onRef('reads.app_id', '=', 'messages.app_id')
          .onRef('reads.conversation_id', '=', 'messages.conversation_id')
          .on('reads.uid', '=', uid),
      )
      .select(['messages.conversation_id', (eb) => eb.fn.countAll<number>().as('unread')])
      .where('messages.app_id', '=', appId)
      .where('messages.conversation_id', 'in', conversationIds)
      .where('messages.sender', '!=', uid)
      .where('messages.category', '!=', 'action')
      .where('messages.deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('reads.read_message_id', 'is', null),
          eb('messages.id', '>', eb.ref('reads.read_message_id')),
        ]),
      )
      .groupBy('messages.conversation_id')
      .execute();
    const counts = new Map(conversationIds.map((id) => [id, 0]));
    for (const row of rows) counts.set(row.conversation_id, Number(row.unread));
    return counts;
  }
}
