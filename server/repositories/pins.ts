import type { Kysely } from 'kysely';
import type { ChatDatabase } from '../db/schema.js';

type Db = Kysely<ChatDatabase>;

/** When a message was pinned, and by whom (the latest pinner). */
export interface MessagePin {
  pinnedAt: number;
  pinnedBy: string;
}

/** Whether an add changed anything: pins and saves are idempotent. */
export type Changed = boolean;

/** Rows keep milliseconds, so lists order pins and saves of the same second; the wire says seconds. */
const toSeconds = (ms: number | string): number => Math.floor(Number(ms) / 1000);

/**
 * Pinned messages (per conversation), saved messages (per user) and pinned conversations (per
 * user). Rows only: who may pin what is the service's to decide. Times given are epoch milliseconds;
 * times answered are epoch seconds.
 */
export class PinRepository {
  constructor(private readonly db: Db) {}

  /** Pins the message, or moves an existing pin to this pinner and time. */
  async pinMessage(
    appId: string,
    messageId: number,
    conversationId: string,
    pinnedBy: string,
    pinnedAtMs: number,
    db: Db = this.db,
  ): Promise<void> {
    await db
      .insertInto('message_pins')
      .values({
        app_id: appId,
        message_id: messageId,
        conversation_id: conversationId,
        pinned_by: pinnedBy,
        pinned_at_ms: pinnedAtMs,
      })
      .onConflict((oc) =>
        oc.columns(['app_id', 'message_id']).doUpdateSet({ pinned_by: pinnedBy, pinned_at_ms: pinnedAtMs }),
      )
      .execute();
  }

  async unpinMessage(appId: string, messageId: number, db: Db = this.db): Promise<Changed> {
    const removed = await db
      .deleteFrom('message_pins')
      .where('app_id', '=', appId)
      .where('message_id', '=', messageId)
      .executeTakeFirst();
    return Number(removed.numDeletedRows) > 0;
  }

  /** How many messages of the conversation are pinned, this one aside. */
  async pinnedCountExcept(appId: string, conversationId: string, messageId: number, db: Db): Promise<number> {
    const row = await db
      .selectFrom('message_pins')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('app_id', '=', appId)
      .where('conversation_id', '=', conversationId)
      .where('message_id', '!=', messageId)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** The pins of these messages, by message id. */
  async pinsOf(appId: string, messageIds: ReadonlyArray<number>): Promise<Map<number, MessagePin>> {
    if (messageIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('message_pins')
      .select(['message_id', 'pinned_by', 'pinned_at_ms'])
      .where('app_id', '=', appId)
      .where('message_id', 'in', [...new Set(messageIds)])
      .execute();
    return new Map(
      rows.map((row) => [
        Number(row.message_id),
        { pinnedAt: toSeconds(row.pinned_at_ms), pinnedBy: row.pinned_by },
      ]),
    );
  }

  /** The ids of a conversation's pinned messages, newest pin first. */
  async pinnedIn(appId: string, conversationId: string, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('message_pins')
      .select('message_id')
      .where('app_id', '=', appId)
      .where('conversation_id', '=', conversationId)
      .orderBy('pinned_at_ms', 'desc')
      .orderBy('message_id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => Number(row.message_id));
  }

  async countPinnedIn(appId: string, conversationId: string): Promise<number> {
    const row = await this.db
      .selectFrom('message_pins')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('app_id', '=', appId)
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** Saves the message for `uid`; false when it was saved already (its time stays). */
  async save(
    appId: string,
    uid: string,
    messageId: number,
    savedAtMs: number,
    db: Db = this.db,
  ): Promise<Changed> {
    const inserted = await db
      .insertInto('message_saves')
      .values({ app_id: appId, uid, message_id: messageId, saved_at_ms: savedAtMs })
      .onConflict((oc) => oc.columns(['app_id', 'uid', 'message_id']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async unsave(appId: string, uid: string, messageId: number): Promise<Changed> {
    const removed = await this.db
      .deleteFrom('message_saves')
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .where('message_id', '=', messageId)
      .executeTakeFirst();
    return Number(removed.numDeletedRows) > 0;
  }

  async countSaved(appId: string, uid: string, db: Db = this.db): Promise<number> {
    const row = await db
      .selectFrom('message_saves')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** When `uid` saved each of these messages, by message id. */
  async savedAtOf(
    appId: string,
    uid: string,
    messageIds: ReadonlyArray<number>,
  ): Promise<Map<number, number>> {
    if (messageIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('message_saves')
      .select(['message_id', 'saved_at_ms'])
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .where('message_id', 'in', [...new Set(messageIds)])
      .execute();
    return new Map(rows.map((row) => [Number(row.message_id), toSeconds(row.saved_at_ms)]));
  }

  /** The ids of the messages `uid` saved, newest save first. */
  async savedBy(appId: string, uid: string, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('message_saves')
      .select('message_id')
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .orderBy('saved_at_ms', 'desc')
      .orderBy('message_id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => Number(row.message_id));
  }

  /** Pins the conversation to the top of `uid`'s list; false when it was pinned already (its time stays). */
  async pinConversation(
    appId: string,
    uid: string,
    conversationId: string,
    pinnedAtMs: number,
    db: Db = this.db,
  ): Promise<Changed> {
    const inserted = await db
      .insertInto('conversation_pins')
      .values({ app_id: appId, uid, conversation_id: conversationId, pinned_at_ms: pinnedAtMs })
      .onConflict((oc) => oc.columns(['app_id', 'uid', 'conversation_id']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async unpinConversation(appId: string, uid: string, conversationId: string): Promise<Changed> {
    const removed = await this.db
      .deleteFrom('conversation_pins')
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
    return Number(removed.numDeletedRows) > 0;
  }

  async countPinnedConversations(appId: string, uid: string, db: Db = this.db): Promise<number> {
    const row = await db
      .selectFrom('conversation_pins')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** When `uid` pinned each of these conversations, by conversation id. */
  async conversationPinsOf(
    appId: string,
    uid: string,
    conversationIds: ReadonlyArray<string>,
  ): Promise<Map<string, number>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('conversation_pins')
      .select(['conversation_id', 'pinned_at_ms'])
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .where('conversation_id', 'in', [...new Set(conversationIds)])
      .execute();
    return new Map(rows.map((row) => [row.conversation_id, toSeconds(row.pinned_at_ms)]));
  }
}
