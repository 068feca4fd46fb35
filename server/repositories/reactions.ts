import type { Kysely, Selectable } from 'kysely';
import type { ReactionCount } from '../../shared/message.js';
import type { ChatDatabase, MessageReactionTable } from '../db/schema.js';

type Db = Kysely<ChatDatabase>;

/** One user's reaction to a message, numbered in the order reactions were given. */
export interface StoredReaction {
  id: number;
  messageId: number;
  uid: string;
  reaction: string;
  reactedAt: number;
}

/** The one place a message_reactions row becomes a reaction. */
const reactionOf = (row: Selectable<MessageReactionTable>): StoredReaction => ({
  id: Number(row.id),
  messageId: Number(row.message_id),
  uid: row.uid,
  reaction: row.reaction,
  reactedAt: Number(row.reacted_at),
});

/** Where a page of a message's reactions starts: after (`append`) or before (`prepend`) `id`. */
export interface ReactionCursor {
  affix: 'append' | 'prepend';
  id?: number | undefined;
}

/** Users' reactions to messages, one row per user, message and reaction. */
export class ReactionRepository {
  constructor(private readonly db: Db) {}

  /** Stores the reaction inside `trx`; undefined when the user had already reacted with it. */
  async add(
    appId: string,
    messageId: number,
    uid: string,
    reaction: string,
    reactedAt: number,
    trx: Db,
  ): Promise<StoredReaction | undefined> {
    const row = await trx
      .insertInto('message_reactions')
      .values({ app_id: appId, message_id: messageId, uid, reaction, reacted_at: reactedAt })
      .onConflict((oc) => oc.columns(['app_id', 'message_id', 'uid', 'reaction']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? undefined : reactionOf(row);
  }

  /** Removes the reaction inside `trx`; undefined when the user had not reacted with it. */
  async remove(
    appId: string,
    messageId: number,
    uid: string,
    reaction: string,
    trx: Db,
  ): Promise<StoredReaction | undefined> {
    const row = await trx
      .deleteFrom('message_reactions')
      .where('app_id', '=', appId)
      .where('message_id', '=', messageId)
      .where('uid', '=', uid)
      .where('reaction', '=', reaction)
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? undefined : reactionOf(row);
  }

  /** How many different reactions the user has on the message. */
  async countOf(appId: string, messageId: number, uid: string, trx: Db): Promise<number> {
    const row = await trx
      .selectFrom('message_reactions')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('app_id', '=', appId)
      .where('message_id', '=', messageId)
      .where('uid', '=', uid)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /**
   * Each message's reactions with how many reacted and whether `viewer` did, in the order each
   * reaction was first given: what `data.reactions` carries. Messages without reactions are absent.
   */
  async countsFor(
    appId: string,
    messageIds: ReadonlyArray<number>,
    viewer: string | undefined,
  ): Promise<Map<number, ReactionCount[]>> {
    const counts = new Map<number, ReactionCount[]>();
    if (messageIds.length === 0) return counts;
    const rows = await this.db
      .selectFrom('message_reactions')
      .select(['message_id', 'reaction', 'uid'])
      .where('app_id', '=', appId)
      .where('message_id', 'in', [...new Set(messageIds)])
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const messageId = Number(row.message_id);
      const list = counts.get(messageId) ?? [];
      if (list.length === 0) counts.set(messageId, list);
      let entry = list.find((item) => item.reaction === row.reaction);
      if (entry === undefined) {
        entry = { reaction: row.reaction, count: 0 };
        list.push(entry);
      }
      entry.count += 1;
      if (viewer !== undefined && row.uid === viewer) entry.reactedByMe = true;
    }
    return counts;
  }

  /** A page of a message's reactions (of one reaction, if named) in ascending id order. */
  async list(
    appId: string,
    messageId: number,
    reaction: string | undefined,
    cursor: ReactionCursor,
    limit: number,
  ): Promise<StoredReaction[]> {
    let query = this.db
      .selectFrom('message_reactions')
      .selectAll()
      .where('app_id', '=', appId)
      .where('message_id', '=', messageId);
    if (reaction !== undefined) query = query.where('reaction', '=', reaction);
    if (cursor.id !== undefined) query = query.where('id', cursor.affix === 'append' ? '>' : '<', cursor.id);
    const rows = await query
      .orderBy('id', cursor.affix === 'append' ? 'asc' : 'desc')
      .limit(limit)
      .execute();
    const reactions = rows.map(reactionOf);
    return cursor.affix === 'append' ? reactions : reactions.reverse();
  }
}
