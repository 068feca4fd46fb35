import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { ChatStore } from '../db/database.js';
import type { ChatDatabase } from '../db/schema.js';
import { messageNotFound } from '../errors.js';
import { likePattern } from './search.js';
import {
  PostgresMessageWriter,
  SqliteMessageWriter,
  insertDecision,
  insertMessage,
  insertMessagePostgres,
  reserveMessageIds,
  parseStoredMessage as stored,
  type PendingDecision,
  type MessageDraft,
  type MessageWriter,
  type WrittenMessage,
} from './message-writer.js';

export {
  unstoredMessage,
  type PendingDecision,
  type MessageDraft,
  type WrittenMessage,
} from './message-writer.js';

type Db = Kysely<ChatDatabase>;

/**
 * A stored message as the service works with it: camelCase, times in epoch seconds, the JSON of
 * `data` and `tags` parsed in one place (`parseStoredMessage`). Treat `data` as read-only: it may
 * be shared.
 */
export interface StoredMessage extends Pick<
  MessageDraft,
  'conversationId' | 'sender' | 'receiverType' | 'receiver' | 'category' | 'type' | 'data' | 'sentAt'
> {
  id: number;
  /** The sender's own id for the message, unique per sender and conversation. */
  muid: string | undefined;
  tags: string[] | undefined;
  updatedAt: number;
  editedAt: number | undefined;
  editedBy: string | undefined;
  deletedAt: number | undefined;
  deletedBy: string | undefined;
  /** The message this one replies to in a thread. */
  parentId: number | undefined;
  /** How many replies the message's thread holds. */
  replyCount: number;
}

/** What a change to a message may set; `tags: undefined` clears them. */
export type MessageChanges = Partial<
  Pick<StoredMessage, 'data' | 'tags' | 'updatedAt' | 'editedAt' | 'editedBy' | 'deletedAt' | 'deletedBy'>
>;

export type Affix = 'append' | 'prepend';

export interface MessageFilter {
  /** Only these messages (at least one). */
  ids?: number[] | undefined;
  conversationIds?: string[] | undefined;
  /** Messages of one-to-one conversations this user is in, plus those of these groups. */
  visibleTo?: { uid: string; guids: string[] } | undefined;
  receiverType?: 'user' | 'group' | undefined;
  category?: string | undefined;
  type?: string | undefined;
  /** Any of these (the client API's comma-separated `categories` and `types`). */
  categories?: string[] | undefined;
  types?: string[] | undefined;
  sender?: string | undefined;
  hideDeleted?: boolean | undefined;
  onlyDeleted?: boolean | undefined;
  fromTimestamp?: number | undefined;
  toTimestamp?: number | undefined;
  /** Messages that mention someone (`data.mentions`). */
  hasMentions?: boolean | undefined;
  /** Messages that mention any of these users. */
  mentionedUids?: string[] | undefined;
  /** Messages that mention this user (the REST API's `myMentionsOnly`). */
  mentioning?: string | undefined;
  /** The replies of one thread. */
  parentId?: number | undefined;
  /** Leave thread replies out (the SDK's `hideReplies`). */
  hideReplies?: boolean | undefined;
  /**
   * Messages whose text or an attachment's file name contains this keyword, in any case, literally;
   * never action messages or deleted ones.
   */
  searchKey?: string | undefined;
  /** Messages others sent after this user's read pointer: what is unread for them. */
  unreadBy?: string | undefined;
  /** Leaves out messages from the users this user blocked (`hideMessagesFromBlockedUsers`). */
  hideBlockedBy?: string | undefined;
  /** Messages sent or changed at or after this second (the SDK's `setUpdatedAfter`). */
  updatedSince?: number | undefined;
  /**
   * Only messages changed after they were sent (the SDK's `updatesOnly`): edited, deleted, or with
   * reactions (a reaction given in the second the message was sent leaves `updated_at` as it was).
   */
  onlyUpdated?: boolean | undefined;
}

/** How many messages are unread in one conversation, and whom it is with (the other user, or the group). */
export interface UnreadCount {
  conversationId: string;
  entityType: 'user' | 'group';
  entityId: string;
  count: number;
}

export interface MessageCursor {
  affix: Affix;
  id?: number | undefined;
  sentAt?: number | undefined;
  /**
   * Reads in the order messages changed (`updated_at`, then `id`, ascending), `sentAt` ignored: with
   * `id`, only what comes after (`updatedAt`, `id`) in that order. The filter's `updatedSince` bounds it.
   */
  updatedAt?: number | undefined;
}

/**
 * Stored messages, one app at a time. Every insert keeps the conversation row current in the same
 * transaction. Sending goes through `insertAll`, whose SQLite implementation uses prepared
 * statements and group commit; both engines answer the same way.
 */
export class MessageRepository {
  private readonly db: Db;
  private readonly engine: ChatStore['engine'];
  private readonly writer: MessageWriter;

  constructor(store: Pick<ChatStore, 'db' | 'engine' | 'sqlite' | 'sends'>) {
    this.db = store.db;
    this.engine = store.engine;
    this.writer =
      store.sqlite === undefined
        ? new PostgresMessageWriter(store.sends ?? store.db)
        : new SqliteMessageWriter(store.db, store.sqlite);
  }

  /** Messages people send: all of one call's drafts are stored (or replayed, by `muid`), or none. */
  insertAll(appId: string, drafts: ReadonlyArray<MessageDraft>): Promise<WrittenMessage[]> {
    return this.writer.insertAll(appId, drafts);
  }

  /**
   * One message inside the caller's transaction `db`, e.g. an action message beside the change it
   * reports, with its decision-queue row if the draft has one; `id`, one `reserveIds` answered,
   * stores it under that id.
   */
  insert(appId: string, draft: MessageDraft, db: Db, id?: number): Promise<WrittenMessage> {
    if (id !== undefined) return insertMessage(db, appId, draft, id);
    const insert = this.engine === 'postgres' ? insertMessagePostgres : insertMessage;
    return insert(db, appId, draft);
  }

  /** Ids no message will be given but by `insert` with them (messages held back for review). */
  reserveIds(count: number): Promise<number[]> {
    return reserveMessageIds(this.db, this.engine, count);
  }

  /** A decision-queue row naming message `messageId`, inside the caller's transaction `db`; its id. */
  queueDecision(appId: string, decision: PendingDecision, messageId: number, db: Db): Promise<number> {
    return insertDecision(db, appId, decision, messageId);
  }

  async find(appId: string, id: number, db: Db = this.db): Promise<StoredMessage | undefined> {
    const row = await db
      .selectFrom('messages')
      .selectAll()
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : stored(row);
  }

  /** The newest message `sender` sent with the client's own id `muid` (the SDK's `getMessage`). */
  async findByMuid(appId: string, sender: string, muid: string): Promise<StoredMessage | undefined> {
    const row = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('app_id', '=', appId)
      .where('sender', '=', sender)
      .where('muid', '=', muid)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row === undefined ? undefined : stored(row);
  }

  async get(appId: string, id: string, db: Db = this.db): Promise<StoredMessage> {
    const numeric = /^\d{1,15}$/.test(id) ? Number(id) : undefined;
    const row = numeric === undefined ? undefined : await this.find(appId, numeric, db);
    if (row === undefined) throw messageNotFound(id);
    return row;
  }

  /**
   * The message as it stands inside the caller's transaction `trx`, which it keeps to itself until
   * it commits: PostgreSQL locks the row (`FOR UPDATE`); a SQLite transaction holds the write lock
   * from its start. Read, check and write a message's `data` through this, never from an earlier read.
   */
  async getForChange(appId: string, id: string, trx: Db): Promise<StoredMessage> {
    const numeric = /^\d{1,15}$/.test(id) ? Number(id) : undefined;
    if (numeric === undefined) throw messageNotFound(id);
    const query = trx
      .selectFrom('messages')
      .selectAll()
      .where('app_id', '=', appId)
      .where('id', '=', numeric);
    const row = await (this.engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
    if (row === undefined) throw messageNotFound(id);
    return stored(row);
  }

  /** Notes that `uid` used the element; false when they had already used it. */
  async recordSubmission(
    appId: string,
    messageId: number,
    uid: string,
    elementId: string,
    submittedAt: number,
    trx: Db,
  ): Promise<boolean> {
    const inserted = await trx
      .insertInto('form_submissions')
      .values({ app_id: appId, message_id: messageId, uid, element_id: elementId, submitted_at: submittedAt })
      .onConflict((oc) => oc.columns(['app_id', 'message_id', 'uid', 'element_id']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async findMany(appId: string, ids: Iterable<number>): Promise<Map<number, StoredMessage>> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('app_id', '=', appId)
      .where('id', 'in', wanted)
      .execute();
    return new Map(rows.map((row) => [Number(row.id), stored(row)]));
  }

  async update(appId: string, id: number, changes: MessageChanges, db: Db = this.db): Promise<void> {
    const { data, tags, updatedAt, editedAt, editedBy, deletedAt, deletedBy } = changes;
    await db
      .updateTable('messages')
      .set({
        ...(data === undefined ? {} : { data: JSON.stringify(data) }),
        ...('tags' in changes ? { tags: tags === undefined ? null : JSON.stringify(tags) } : {}),
        ...(updatedAt === undefined ? {} : { updated_at: updatedAt }),
        ...(editedAt === undefined ? {} : { edited_at: editedAt }),
        ...(editedBy === undefined ? {} : { edited_by: editedBy }),
        ...(deletedAt === undefined ? {} : { deleted_at: deletedAt }),
        ...(deletedBy === undefined ? {} : { deleted_by: deletedBy }),
      })
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .execute();
  }

  /**
   * Removes the message for good; a reply leaves its parent's count, its reactions, pin and saves
   * go with it.
   */
  async deletePermanently(appId: string, message: StoredMessage, db: Db): Promise<void> {
    const id = Number(message.id);
    await db.deleteFrom('messages').where('app_id', '=', appId).where('id', '=', id).execute();
    for (const table of ['message_reactions', 'message_pins', 'message_saves'] as const)
      await db.deleteFrom(table).where('app_id', '=', appId).where('message_id', '=', id).execute();
    if (message.parentId !== undefined) {
      await db
        .updateTable('messages')
        .set({ reply_count: sql<number>`reply_count - 1` })
        .where('app_id', '=', appId)
        .where('id', '=', message.parentId)
        .where('reply_count', '>', 0)
        .execute();
    }
  }

  private filtered(appId: string, filter: MessageFilter) {
    let query = this.db.selectFrom('messages').where('app_id', '=', appId);
    if (filter.ids !== undefined) query = query.where('id', 'in', filter.ids);
    if (filter.conversationIds !== undefined)
      query = query.where('conversation_id', 'in', filter.conversationIds);
    if (filter.visibleTo !== undefined) {
      const { uid, guids } = filter.visibleTo;
      query = query.where((eb) => {
        const own = eb.and([
          eb('receiver_type', '=', 'user'),
          eb.or([eb('sender', '=', uid), eb('receiver', '=', uid)]),
        ]);
        return guids.length === 0
          ? own
          : eb.or([own, eb.and([eb('receiver_type', '=', 'group'), eb('receiver', 'in', guids)])]);
      });
    }
    if (filter.receiverType !== undefined) query = query.where('receiver_type', '=', filter.receiverType);
    if (filter.category !== undefined) query = query.where('category', '=', filter.category);
    if (filter.type !== undefined) query = query.where('type', '=', filter.type);
    if (filter.categories !== undefined) query = query.where('category', 'in', filter.categories);
    if (filter.types !== undefined) query = query.where('type', 'in', filter.types);
    if (filter.sender !== undefined) query = query.where('sender', '=', filter.sender);
    if (filter.hideDeleted === true) query = query.where('deleted_at', 'is', null);
    if (filter.onlyDeleted === true) query = query.where('deleted_at', 'is not', null);
    if (filter.fromTimestamp !== undefined) query = query.where('sent_at', '>=', filter.fromTimestamp);
    if (filter.toTimestamp !== undefined) query = query.where('sent_at', '<=', filter.toTimestamp);
    if (filter.updatedSince !== undefined) query = query.where('updated_at', '>=', filter.updatedSince);
    if (filter.onlyUpdated === true)
      query = query.where((eb) =>
        eb.or([
          eb('updated_at', '>', eb.ref('sent_at')),
          eb('edited_at', 'is not', null),
          eb('deleted_at', 'is not', null),
          eb.exists(
            eb
              .selectFrom('message_reactions as r')
              .select('r.id')
              .whereRef('r.app_id', '=', 'messages.app_id')
              .whereRef('r.message_id', '=', 'messages.id'),
          ),
        ]),
      );
    if (filter.hasMentions === true) query = query.where(this.mentions(undefined));
    const anyOf = filter.mentionedUids;
    if (anyOf !== undefined && anyOf.length > 0)
      query = query.where((eb) => eb.or(anyOf.map((uid) => this.mentions(uid))));
    if (filter.mentioning !== undefined) query = query.where(this.mentions(filter.mentioning));
    if (filter.parentId !== undefined) query = query.where('parent_id', '=', filter.parentId);
    if (filter.hideReplies === true) query = query.where('parent_id', 'is', null);
    if (filter.searchKey !== undefined && filter.searchKey !== '') {
      query = query
        .where('category', '!=', 'action')
        .where('deleted_at', 'is', null)
        .where(this.contains(filter.searchKey));
    }
    const reader = filter.unreadBy;
    if (reader !== undefined) {
      query = query
        .where('sender', '!=', reader)
        .where('category', '!=', 'action')
        .where('deleted_at', 'is', null)
        .where((eb) =>
          eb(
            'messages.id',
            '>',
            eb.fn.coalesce(
              eb
                .selectFrom('conversation_reads as reads')
                .select('reads.read_message_id')
                .whereRef('reads.app_id', '=', 'messages.app_id')
                .whereRef('reads.conversation_id', '=', 'messages.conversation_id')
                .where('reads.uid', '=', reader),
              eb.lit(0),
            ),
          ),
        )
        // A group's history from before the reader joined is not unread for them.
        .where((eb) =>
          eb.or([
            eb('messages.receiver_type', '=', 'user'),
            eb(
              'messages.sent_at',
              '>=',
              eb.fn.coalesce(
                eb
                  .selectFrom('group_members as membership')
                  .select('membership.joined_at')
                  .whereRef('membership.app_id', '=', 'messages.app_id')
                  .whereRef('membership.guid', '=', 'messages.receiver')
                  .where('membership.uid', '=', reader),
                eb.lit(0),
              ),
            ),
          ]),
        );
    }
    const blocker = filter.hideBlockedBy;
    if (blocker !== undefined) {
      query = query.where('sender', 'not in', (eb) =>
        eb
          .selectFrom('blocked_users')
          .select('blocked_users.blocked_uid')
          .where('blocked_users.app_id', '=', appId)
          .where('blocked_users.uid', '=', blocker),
      );
    }
    return query;
  }

  /** The text, or an attachment's file name, contains `keyword`; each engine reads the JSON itself. */
  private contains(keyword: string): RawBuilder<SqlBool> {
    const pattern = likePattern(keyword);
    if (this.engine === 'postgres') {
      return sql<SqlBool>`(lower(cast(data as jsonb) ->> 'text') like ${pattern} escape '\\' or exists (
        select 1 from jsonb_array_elements(case when jsonb_typeof(cast(data as jsonb) -> 'attachments') = 'array'
          then cast(data as jsonb) -> 'attachments' else '[]'::jsonb end) as attachment
        where lower(attachment ->> 'name') like ${pattern} escape '\\'))`;
    }
    return sql<SqlBool>`(lower(json_extract(data, '$.text')) like ${pattern} escape '\\' or exists (
      select 1 from json_each(data, '$.attachments') as attachment
      where json_type(data, '$.attachments') = 'array'
        and lower(json_extract(attachment.value, '$.name')) like ${pattern} escape '\\'))`;
  }

  /**
   * Unread messages per conversation for `filter.unreadBy`, only where some are. In a one-to-one
   * conversation every unread message comes from the other user, so the sender names it.
   */
  async unreadCounts(appId: string, filter: MessageFilter & { unreadBy: string }): Promise<UnreadCount[]> {
    const rows = await this.filtered(appId, filter)
      .select((eb) => [
        'conversation_id',
        'receiver_type',
        eb.fn.max('sender').as('sender'),
        eb.fn.max('receiver').as('receiver'),
        eb.fn.countAll<number>().as('unread'),
      ])
      .groupBy(['conversation_id', 'receiver_type'])
      .execute();
    return rows.map((row) => ({
      conversationId: row.conversation_id,
      entityType: row.receiver_type === 'group' ? 'group' : 'user',
      entityId: row.receiver_type === 'group' ? row.receiver : row.sender,
      count: Number(row.unread),
    }));
  }

  /** `data.mentions` is there, or names `uid`; the JSON is read by each engine's own functions. */
  private mentions(uid: string | undefined): RawBuilder<SqlBool> {
    if (this.engine === 'postgres') {
      return uid === undefined
        ? sql<SqlBool>`(cast(data as jsonb) -> 'mentions') is not null`
        : sql<SqlBool>`(cast(data as jsonb) -> 'mentions' -> ${uid}) is not null`;
    }
    const path = uid === undefined ? '$.mentions' : `$.mentions.${JSON.stringify(uid)}`;
    return sql<SqlBool>`json_type(data, ${path}) is not null`;
  }

  /**
   * A page of messages in ascending id order. `append` reads forward from the cursor (or from the
   * start), `prepend` reads the page just before it (or the newest page). A cursor with `updatedAt`
   * reads forward in the order messages changed instead.
   */
  async list(
    appId: string,
    filter: MessageFilter,
    cursor: MessageCursor,
    limit: number,
  ): Promise<StoredMessage[]> {
    let query = this.filtered(appId, filter);
    const { updatedAt, id } = cursor;
    if (updatedAt !== undefined) {
      if (id !== undefined)
        query = query.where((eb) =>
          eb.or([
            eb('updated_at', '>', updatedAt),
            eb.and([eb('updated_at', '=', updatedAt), eb('id', '>', id)]),
          ]),
        );
      const changed = await query
        .selectAll()
        .orderBy('updated_at', 'asc')
        .orderBy('id', 'asc')
        .limit(limit)
        .execute();
      return changed.map(stored);
    }
    if (id !== undefined) query = query.where('id', cursor.affix === 'append' ? '>' : '<', id);
    if (cursor.sentAt !== undefined)
      query = query.where('sent_at', cursor.affix === 'append' ? '>=' : '<=', cursor.sentAt);
    const rows = await query
      .selectAll()
      .orderBy('id', cursor.affix === 'append' ? 'asc' : 'desc')
      .limit(limit)
      .execute();
    const page = rows.map(stored);
    return cursor.affix === 'append' ? page : page.reverse();
  }

  /**
   * A page of the threads among the messages `filter` selects (those with replies), the latest
   * reply first, before `cursor` (exclusive): each parent's id, its latest reply's id and when that
   * was sent. With `participant`, only the threads they follow: those they followed, or started or
   * replied in, unless they unfollowed them.
   */
  async threadPage(
    appId: string,
    filter: MessageFilter,
    participant: string | undefined,
    cursor: { updatedAt?: number | undefined; id?: number | undefined },
    limit: number,
  ): Promise<Array<{ parentId: number; lastReplyId: number; updatedAt: number }>> {
    let query = this.filtered(appId, filter).where('parent_id', 'is not', null);
    if (participant !== undefined) {
      const follows = (subscribed: number) =>
        this.db
          .selectFrom('thread_subscriptions')
          .select('thread_subscriptions.parent_id')
          .where('thread_subscriptions.app_id', '=', appId)
          .where('thread_subscriptions.uid', '=', participant)
          .where('thread_subscriptions.subscribed', '=', subscribed);
      query = query.where((eb) =>
        eb.and([
          eb('parent_id', 'not in', follows(0)),
          eb.or([
            eb('parent_id', 'in', follows(1)),
            eb('parent_id', 'in', (inner) =>
              inner
                .selectFrom('messages as started')
                .select('started.id')
                .where('started.app_id', '=', appId)
                .where('started.sender', '=', participant)
                .where('started.reply_count', '>', 0),
            ),
            eb('parent_id', 'in', (inner) =>
              inner
                .selectFrom('messages as replied')
                .select('replied.parent_id')
                .where('replied.app_id', '=', appId)
                .where('replied.sender', '=', participant)
                .where('replied.parent_id', 'is not', null),
            ),
          ]),
        ]),
      );
    }
    let grouped = query
      .select((eb) => [
        'parent_id',
        eb.fn.max('id').as('last_reply_id'),
        eb.fn.max('sent_at').as('updated_at'),
      ])
      .groupBy('parent_id');
    const { updatedAt, id } = cursor;
    if (updatedAt !== undefined) {
      grouped = grouped.having((eb) =>
        eb.or([
          eb(eb.fn.max('sent_at'), '<', updatedAt),
          eb.and([
            eb(eb.fn.max('sent_at'), '=', updatedAt),
            eb('parent_id', '<', id ?? Number.MAX_SAFE_INTEGER),
          ]),
        ]),
      );
    }
    const rows = await grouped
      .orderBy((eb) => eb.fn.max('sent_at'), 'desc')
      .orderBy('parent_id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      parentId: Number(row.parent_id),
      lastReplyId: Number(row.last_reply_id),
      updatedAt: Number(row.updated_at),
    }));
  }

  /** Which of these threads `sender` replied in. */
  async threadsRepliedIn(
    appId: string,
    sender: string,
    parentIds: ReadonlyArray<number>,
  ): Promise<Set<number>> {
    if (parentIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('messages')
      .select('parent_id')
      .distinct()
      .where('app_id', '=', appId)
      .where('sender', '=', sender)
      .where('parent_id', 'in', [...parentIds])
      .execute();
    return new Set(rows.map((row) => Number(row.parent_id)));
  }

  async count(appId: string, filter: MessageFilter): Promise<number> {
    const row = await this.filtered(appId, filter)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }
}
