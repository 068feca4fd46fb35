import type { Kysely } from 'kysely';
import type { ChatDatabase } from '../db/schema.js';

/** The tags each user puts on their conversations (`tagConversation`); nobody else sees them. */
export class ConversationTagRepository {
  constructor(private readonly db: Kysely<ChatDatabase>) {}

  /** Replaces `uid`'s tags on the conversation, all at once: the old set or the new one, never a mix. */
  async set(appId: string, uid: string, conversationId: string, tags: ReadonlyArray<string>): Promise<void> {
    const unique = [...new Set(tags)];
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('conversation_tags')
        .where('app_id', '=', appId)
        .where('uid', '=', uid)
        .where('conversation_id', '=', conversationId)
        .execute();
      if (unique.length === 0) return;
      await trx
        .insertInto('conversation_tags')
        .values(unique.map((tag) => ({ app_id: appId, uid, conversation_id: conversationId, tag })))
        .execute();
    });
  }

  /** `uid`'s tags on each of these conversations that has any, in the order they were given. */
  async of(
    appId: string,
    uid: string,
    conversationIds: ReadonlyArray<string>,
  ): Promise<Map<string, string[]>> {
    const tags = new Map<string, string[]>();
    if (conversationIds.length === 0) return tags;
    const rows = await this.db
      .selectFrom('conversation_tags')
      .select(['conversation_id', 'tag'])
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .where('conversation_id', 'in', [...conversationIds])
      .orderBy('tag')
      .execute();
    for (const row of rows)
      tags.set(row.conversation_id, [...(tags.get(row.conversation_id) ?? []), row.tag]);
    return tags;
  }
}
