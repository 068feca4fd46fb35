import type { Kysely, Selectable } from 'kysely';
import type { ChatDatabase, ConversationTable } from '../db/schema.js';

/** A conversation as the service works with it: who is in it and its latest message. */
export interface StoredConversation {
  conversationId: string;
  conversationType: 'user' | 'group';
  /** The two users of a one-to-one conversation, in sorted order; none for a group's. */
  uids: [string, string] | undefined;
  guid: string | undefined;
  lastMessageId: number;
  createdAt: number;
  updatedAt: number;
}

const stored = (row: Selectable<ConversationTable>): StoredConversation => ({
  conversationId: row.conversation_id,
  conversationType: row.conversation_type,
  uids: row.first_uid === null || row.second_uid === null ? undefined : [row.first_uid, row.second_uid],
  guid: row.guid ?? undefined,
  lastMessageId: Number(row.last_message_id),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

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
    query: {
      conversationType?: 'user' | 'group' | undefined;
      /** Only conversations the user tagged with any of these. */
      tags?: ReadonlyArray<string> | undefined;
      page: number;
      perPage: number;
    },
  ): Promise<{ conversations: StoredConversation[]; total: number }> {
    let base = this.ofParticipant(appId, uid, guids);
    if (query.conversationType !== undefined)
      base = base.where('conversation_type', '=', query.conversationType);
    const tags = query.tags;
    if (tags !== undefined && tags.length > 0) {
      base = base.where('conversation_id', 'in', (eb) =>
        eb
          .selectFrom('conversation_tags')
          .select('conversation_tags.conversation_id')
          .where('conversation_tags.app_id', '=', appId)
          .where('conversation_tags.uid', '=', uid)
          .where('conversation_tags.tag', 'in', [...tags]),
      );
    }
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst();
    const rows = await base
      .selectAll()
      .orderBy('updated_at', 'desc')
      .orderBy('last_message_id', 'desc')
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return { conversations: rows.map(stored), total: Number(counted?.total ?? 0) };
  }

  async find(appId: string, conversationId: string): Promise<StoredConversation | undefined> {
    const row = await this.db
      .selectFrom('conversations')
      .selectAll()
      .where('app_id', '=', appId)
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
    return row === undefined ? undefined : stored(row);
  }
}
