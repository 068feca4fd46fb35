import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  sql,
  type Compilable,
  type Insertable,
  type Kysely,
  type OnConflictBuilder,
  type QueryCreator,
  type Selectable,
} from 'kysely';
import type { SqliteConnection, StorageEngine } from '../db/database.js';
import type { ChatDatabase, ConversationTable, MessageTable } from '../db/schema.js';
import type { NotificationDecisionTable } from '../notifications/tables.js';
import type { StoredMessage } from './messages.js';

type Db = Kysely<ChatDatabase>;
/** The decision queue is the notifications engine's table; a send writes its row beside the message. */
type DecisionQueueTables = { notification_decisions: NotificationDecisionTable };

/**
 * A change's notifications decision, still to be made: queued for the notifications engine
 * (notifications/decision-queue.ts) in the change's own transaction, so that no crash after the
 * commit loses the event. Its message is named by `message_id`, given when it is stored.
 */
export interface PendingDecision {
  /** What the change was (services/decisions.ts `QueuedChange`), as JSON. */
  event: string;
  attempts: number;
  claimedUntil: number;
  createdAt: number;
}

export interface MessageDraft {
  conversationId: string;
  sender: string;
  receiverType: 'user' | 'group';
  receiver: string;
  category: string;
  type: string;
  /** `data` without `entities` for messages people send; action messages keep theirs. */
  data: Record<string, unknown>;
  muid?: string | undefined;
  tags?: string[] | undefined;
  /** A thread reply's parent: storing the reply counts it on the parent in the same transaction. */
  parentId?: number | undefined;
  sentAt: number;
  /** The decision-queue row to store naming this message, if notifications want one. */
  decision?: PendingDecision | undefined;
}

/**
 * A draft as stored. `replayed` when the sender had already sent a message with the draft's `muid`
 * to that conversation: that message is the answer, and nothing new was written.
 */
export interface WrittenMessage {
  message: StoredMessage;
  replayed: boolean;
  /** The id of the decision-queue row stored with it (the draft's `decision`; never when replayed). */
  decisionId?: number;
}

/** Stores sent messages: each call's drafts in one transaction with their conversation rows. */
export interface MessageWriter {
  insertAll(appId: string, drafts: ReadonlyArray<MessageDraft>): Promise<WrittenMessage[]>;
}

type MessageColumns = Selectable<MessageTable>;
type MessageValues = Omit<MessageColumns, 'id'>;

/** A message as read from the store, camelCase with its JSON columns parsed: the one place that reads them. */
export const parseStoredMessage = (row: MessageColumns): StoredMessage => ({
  id: Number(row.id),
  conversationId: row.conversation_id,
  sender: row.sender,
  receiverType: row.receiver_type,
  receiver: row.receiver,
  category: row.category,
  type: row.type,
  data: JSON.parse(row.data) as Record<string, unknown>,
  muid: row.muid ?? undefined,
  tags: row.tags === null ? undefined : (JSON.parse(row.tags) as string[]),
  sentAt: Number(row.sent_at),
  updatedAt: Number(row.updated_at),
  editedAt: row.edited_at === null ? undefined : Number(row.edited_at),
  editedBy: row.edited_by ?? undefined,
  deletedAt: row.deleted_at === null ? undefined : Number(row.deleted_at),
  deletedBy: row.deleted_by ?? undefined,
  parentId: row.parent_id === null ? undefined : Number(row.parent_id),
  replyCount: Number(row.reply_count),
});

function messageValues(appId: string, draft: MessageDraft): MessageValues {
  return {
    app_id: appId,
    conversation_id: draft.conversationId,
    sender: draft.sender,
    receiver_type: draft.receiverType,
    receiver: draft.receiver,
    category: draft.category,
    type: draft.type,
    data: JSON.stringify(draft.data),
    muid: draft.muid ?? null,
    tags: draft.tags === undefined ? null : JSON.stringify(draft.tags),
    sent_at: draft.sentAt,
    updated_at: draft.sentAt,
    edited_at: null,
    edited_by: null,
    deleted_at: null,
    deleted_by: null,
    parent_id: draft.parentId ?? null,
    reply_count: 0,
  };
}

/**
 * The message as stored, from the draft just written: its objects need no parsing back. Written
 * out key by key in one order rather than spread and overridden: redefining a spread copy's keys
 * took V8's slow runtime path on every send, and its copies missed `toMessage`'s inline caches.
 */
const storedMessage = (id: number, draft: MessageDraft): StoredMessage => ({
  id,
  conversationId: draft.conversationId,
  sender: draft.sender,
  receiverType: draft.receiverType,
  receiver: draft.receiver,
  category: draft.category,
  type: draft.type,
  data: draft.data,
  muid: draft.muid,
  tags: draft.tags,
  sentAt: draft.sentAt,
  updatedAt: draft.sentAt,
  editedAt: undefined,
  editedBy: undefined,
  deletedAt: undefined,
  deletedBy: undefined,
  parentId: draft.parentId,
  replyCount: 0,
});

/** A draft as the message it would be, before it has an id: moderation presents messages it holds back. */
export const unstoredMessage = (appId: string, draft: MessageDraft): StoredMessage => storedMessage(0, draft);

/** The conversation row a message makes current: one-to-one rows name both UIDs in sorted order. */
function conversationValues(
  appId: string,
  draft: MessageDraft,
  messageId: number,
): Insertable<ConversationTable> {
  const { sender, receiver } = draft;
  const oneToOne = draft.receiverType === 'user';
  return {
    app_id: appId,
    conversation_id: draft.conversationId,
    conversation_type: draft.receiverType,
    first_uid: oneToOne ? (sender < receiver ? sender : receiver) : null,
    second_uid: oneToOne ? (sender < receiver ? receiver : sender) : null,
    guid: draft.receiverType === 'group' ? draft.receiver : null,
    last_message_id: messageId,
    created_at: draft.sentAt,
    updated_at: draft.sentAt,
  };
}

/**
 * The statement that stores a message: one for both engines. A draft whose `muid` the sender
 * already used in the conversation inserts nothing (the unique index `messages_by_muid` decides,
 * so two processes racing with one muid store it once); its caller reads the first one back.
 * Kysely's callers add `returning('id')`; SQLite's prepared send reads the new id from the run
 * instead, as SQLite's RETURNING buffers its rows (about 1.8 of a send's 11 µs of SQLite CPU).
 */
function insertMessageQuery(db: QueryCreator<ChatDatabase>, values: MessageValues | MessageColumns) {
  return db
    .insertInto('messages')
    .values(values)
    .onConflict((oc) =>
      // The index keeps only messages with a muid; the conflict target names its condition.
      oc.columns(['app_id', 'sender', 'conversation_id', 'muid']).where('muid', 'is not', null).doNothing(),
    );
}

type MuidKey = Pick<MessageValues, 'app_id' | 'sender' | 'conversation_id' | 'muid'>;

/** The statement that reads back the message a draft's `muid` already names. */
function messageByMuidQuery(db: Db, key: MuidKey) {
  return db
    .selectFrom('messages')
    .selectAll()
    .where('app_id', '=', key.app_id)
    .where('sender', '=', key.sender)
    .where('conversation_id', '=', key.conversation_id)
    .where('muid', '=', key.muid);
}

const muidKey = (values: MessageValues): MuidKey => ({
  app_id: values.app_id,
  sender: values.sender,
  conversation_id: values.conversation_id,
  muid: values.muid,
});

const replayedMuid = (values: MessageValues): Error =>
  new Error(`message with muid ${values.muid} was neither stored nor found`);

/** What the decision-queue insert binds: the row and the message it names. */
interface DecisionValues {
  app_id: string;
  event: string;
  message_id: number;
  attempts: number;
  claimed_until: number;
  created_at: number;
}

const decisionValues = (appId: string, decision: PendingDecision, messageId: number): DecisionValues => ({
  app_id: appId,
  event: decision.event,
  message_id: messageId,
  attempts: decision.attempts,
  claimed_until: decision.claimedUntil,
  created_at: decision.createdAt,
});

/** The statement that queues a notifications decision (PostgreSQL's sends write theirs in `sendStatement`). */
function insertDecisionQuery(db: Db, values: DecisionValues) {
  return db
    .withTables<DecisionQueueTables>()
    .insertInto('notification_decisions')
    .values(values)
    .returning('id');
}

/**
 * A conversation upsert's conflict: the row takes the message as its last only when the message's
 * id is larger than the last's. A message stored under an older id (a held message approved in its
 * place), or a send that reaches the row after a later send did (PostgreSQL runs sends
 * concurrently; the update waits for the later one's row lock, then sees its id), leaves it.
 */
function keepLargerLastMessage(oc: OnConflictBuilder<ChatDatabase, 'conversations'>) {
  return oc
    .doUpdateSet((eb) => ({
      last_message_id: eb.ref('excluded.last_message_id'),
      updated_at: eb.ref('excluded.updated_at'),
    }))
    .where((eb) => eb('conversations.last_message_id', '<', eb.ref('excluded.last_message_id')));
}

/** The statement that makes a conversation row current: one for both engines. */
function upsertConversationQuery(db: Db, values: Insertable<ConversationTable>) {
  return db
    .insertInto('conversations')
    .values(values)
    .onConflict((oc) => keepLargerLastMessage(oc.columns(['app_id', 'conversation_id'])));
}

interface ParentKey {
  app_id: string;
  id: number | null;
}

/** The statement that counts a reply on its parent: one for both engines. */
function countReplyQuery(db: QueryCreator<ChatDatabase>, parent: ParentKey) {
  return (
    db
      .updateTable('messages')
      // The increment is SQL text, not a bound value: the prepared SQLite statement binds only columns.
      .set({ reply_count: sql<number>`reply_count + 1` })
      .where('app_id', '=', parent.app_id)
      .where('id', '=', parent.id)
  );
}

/**
 * Stores a decision-queue row naming message `messageId`, inside the caller's transaction `db`;
 * answers the row's id.
 */
export async function insertDecision(
  db: Db,
  appId: string,
  decision: PendingDecision,
  messageId: number,
): Promise<number> {
  const row = await insertDecisionQuery(
    db,
    decisionValues(appId, decision, messageId),
  ).executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * One message, its conversation upsert, its parent's reply count and its decision-queue row,
 * statement by statement inside the caller's transaction: for SQLite, which has no data-modifying
 * CTEs (its sends take `SqliteMessageWriter`'s prepared statements; this serves action messages in
 * transactions), and on both engines for a message stored under an id reserved for it (`id`, from
 * `reserveMessageIds`).
 */
export async function insertMessage(
  db: Db,
  appId: string,
  draft: MessageDraft,
  id?: number,
): Promise<WrittenMessage> {
  const values = messageValues(appId, draft);
  const inserted = await insertMessageQuery(db, id === undefined ? values : { id, ...values })
    .returning('id')
    .executeTakeFirst();
  if (inserted === undefined) return readReplayed(db, values);
  const messageId = Number(inserted.id);
  await upsertConversationQuery(db, conversationValues(appId, draft, messageId)).execute();
  if (draft.parentId !== undefined)
    await countReplyQuery(db, { app_id: appId, id: draft.parentId }).execute();
  const message = storedMessage(messageId, draft);
  if (draft.decision === undefined) return { message, replayed: false };
  return {
    message,
    replayed: false,
    decisionId: await insertDecision(db, appId, draft.decision, messageId),
  };
}

/**
 * Takes `count` message ids from the messages table's own sequence, which no insert will take
 * again: a message held back for review is answered under one and, once approved, stored under
 * it. On SQLite the sequence is AUTOINCREMENT's row in `sqlite_sequence` (created as the table's
 * largest id if no message was ever stored), moved on by `count` in one statement.
 */
export async function reserveMessageIds(db: Db, engine: StorageEngine, count: number): Promise<number[]> {
  if (engine === 'postgres') {
    const { rows } = await sql<{ id: string }>`
      select nextval(pg_get_serial_sequence('messages', 'id')) as id
      from generate_series(1, ${count})`.execute(db);
    return rows.map((row) => Number(row.id));
  }
  await sql`
    insert into sqlite_sequence (name, seq)
    select 'messages', coalesce((select max(id) from messages), 0)
    where not exists (select 1 from sqlite_sequence where name = 'messages')`.execute(db);
  const { rows } = await sql<{ seq: number }>`
    update sqlite_sequence set seq = seq + ${count} where name = 'messages' returning seq`.execute(db);
  const last = Number(rows[0]?.seq);
  return Array.from({ length: count }, (_, index) => last - count + 1 + index);
}

async function readReplayed(db: Db, values: MessageValues): Promise<WrittenMessage> {
  const first = await messageByMuidQuery(db, muidKey(values)).executeTakeFirst();
  if (first === undefined) throw replayedMuid(values);
  return { message: parseStoredMessage(first), replayed: true };
}

/**
 * What `insertMessagePostgres` binds: the message's columns, the conversation's own, and the
 * decision-queue row's (all null when the send queues none).
 */
type SendRow = MessageValues &
  Pick<Insertable<ConversationTable>, 'conversation_type' | 'first_uid' | 'second_uid' | 'guid'> & {
    decision_event: string | null;
    decision_attempts: number | null;
    decision_claimed_until: number | null;
    decision_created_at: number | null;
  };

/**
 * The statement of `insertMessagePostgres`: the message insert as the CTE `stored`, the parent's
 * reply count as `counted` (a null parent matches no row), the decision-queue row as `queued` (a
 * null event writes none), and the conversation upsert as `current`, taking the message id from
 * `stored` (and leaving a row whose last message is larger). It answers `stored`'s id and the
 * queued row's: no row when a replayed `muid` stored nothing, whatever the upsert did.
 */
function sendStatement(db: Db, row: SendRow) {
  // Parameters in a SELECT list have no type of their own: each is cast to its column's.
  const asText = (value: unknown) => sql<string | null>`cast(${value} as text)`;
  const asBigint = (value: unknown) => sql<number>`cast(${value} as bigint)`;
  const {
    conversation_type,
    first_uid,
    second_uid,
    guid,
    decision_event,
    decision_attempts,
    decision_claimed_until,
    decision_created_at,
    ...message
  } = row;
  return db
    .withTables<DecisionQueueTables>()
    .with('stored', () => insertMessageQuery(db, message).returning('id'))
    .with('counted', () =>
      countReplyQuery(db, { app_id: row.app_id, id: row.parent_id }).where(
        sql<boolean>`exists (select 1 from stored)`,
      ),
    )
    .with('queued', (db) =>
      db
        .insertInto('notification_decisions')
        .columns(['app_id', 'event', 'message_id', 'attempts', 'claimed_until', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom('stored')
            .select([
              asText(row.app_id).as('app_id'),
              asText(decision_event).as('event'),
              'stored.id',
              sql<number>`cast(${decision_attempts} as integer)`.as('attempts'),
              asBigint(decision_claimed_until).as('claimed_until'),
              asBigint(decision_created_at).as('created_at'),
            ])
            .where(sql<boolean>`cast(${decision_event} as text) is not null`),
        )
        .returning('id'),
    )
    .with('current', (db) =>
      db
        .insertInto('conversations')
        .columns([
          'app_id',
          'conversation_id',
          'conversation_type',
          'first_uid',
          'second_uid',
          'guid',
          'last_message_id',
          'created_at',
          'updated_at',
        ])
        .expression((eb) =>
          eb
            .selectFrom('stored')
            .select([
              asText(row.app_id).as('app_id'),
              asText(row.conversation_id).as('conversation_id'),
              asText(conversation_type).as('conversation_type'),
              asText(first_uid).as('first_uid'),
              asText(second_uid).as('second_uid'),
              asText(guid).as('guid'),
              'stored.id',
              asBigint(row.sent_at).as('created_at'),
              asBigint(row.sent_at).as('updated_at'),
            ]),
        )
        .onConflict((oc) => keepLargerLastMessage(oc.columns(['app_id', 'conversation_id']))),
    )
    .selectFrom('stored')
    .select(['stored.id', sql<number | null>`(select id from queued)`.as('decision_id')]);
}

/** `sendStatement` compiled once (its SQL is the same for every send); each send binds its row. */
let compiledSend: ByName<SendRow> | undefined;

/**
 * PostgreSQL: the same three writes in one statement, so a send is one round trip and needs no
 * transaction of its own: the message insert is a data-modifying CTE whose id the conversation
 * upsert (and the parent's reply count) take. A replayed `muid` inserts nothing, so nothing else
 * is written either and the statement returns no row; the first message is read back.
 */
export async function insertMessagePostgres(
  db: Db,
  appId: string,
  draft: MessageDraft,
): Promise<WrittenMessage> {
  const values = messageValues(appId, draft);
  const { conversation_type, first_uid, second_uid, guid } = conversationValues(appId, draft, 0);
  const { decision } = draft;
  const row: SendRow = {
    ...values,
    conversation_type,
    first_uid,
    second_uid,
    guid,
    decision_event: decision?.event ?? null,
    decision_attempts: decision?.attempts ?? null,
    decision_claimed_until: decision?.claimedUntil ?? null,
    decision_created_at: decision?.createdAt ?? null,
  };
  compiledSend ??= compileByName(row, (names) => sendStatement(db, names));
  const { rows } = await db.executeQuery<{ id: number; decision_id: number | null }>(
    CompiledQuery.raw(compiledSend.sql, compiledSend.bind(row)),
  );
  const [written] = rows;
  if (written === undefined) return readReplayed(db, values);
  const message = storedMessage(Number(written.id), draft);
  return written.decision_id === null
    ? { message, replayed: false }
    : { message, replayed: false, decisionId: Number(written.decision_id) };
}

/**
 * PostgreSQL: one statement per draft; a single draft (nearly every send) needs no transaction,
 * several share one so that all are stored or none.
 */
export class PostgresMessageWriter implements MessageWriter {
  constructor(private readonly db: Db) {}

  async insertAll(appId: string, drafts: ReadonlyArray<MessageDraft>): Promise<WrittenMessage[]> {
    const [only] = drafts;
    if (drafts.length === 1 && only !== undefined) return [await insertMessagePostgres(this.db, appId, only)];
    return this.db.transaction().execute(async (trx) => {
      const rows: WrittenMessage[] = [];
      for (const draft of drafts) rows.push(await insertMessagePostgres(trx, appId, draft));
      return rows;
    });
  }
}

/**
 * A Kysely statement compiled once with each column's name standing in for its value, so a row's
 * values bind by name in the order of the compiled SQL.
 */
interface ByName<Row> {
  sql: string;
  bind(row: Row): unknown[];
}

function compileByName<Row extends object>(row: Row, query: (names: Row) => Compilable): ByName<Row> {
  const names = Object.fromEntries(Object.keys(row).map((column) => [column, column])) as Row;
  const { sql, parameters } = query(names).compile();
  const columns = parameters.map((parameter) => {
    if (typeof parameter !== 'string' || !(parameter in row))
      throw new Error(`the statement binds something other than a column: ${sql}`);
    return parameter as keyof Row;
  });
  return { sql, bind: (values) => columns.map((column) => values[column]) };
}

/** A statement compiled by name and prepared once on the SQLite connection. */
interface PreparedStatement<Row> {
  statement: SQLite.Statement;
  bind(row: Row): unknown[];
}

function prepareByName<Row extends object>(
  database: SQLite.Database,
  row: Row,
  query: (row: Row) => Compilable,
): PreparedStatement<Row> {
  const { sql, bind } = compileByName(row, query);
  return { statement: database.prepare(sql), bind };
}

interface Statements {
  insertMessage: PreparedStatement<MessageValues>;
  messageByMuid: PreparedStatement<MuidKey>;
  upsertConversation: PreparedStatement<Insertable<ConversationTable>>;
  countReply: PreparedStatement<ParentKey>;
  insertDecision: PreparedStatement<DecisionValues>;
}

/** The last message of a batch in a conversation, and when the first one was sent. */
interface LatestMessage {
  appId: string;
  draft: MessageDraft;
  messageId: number;
  createdAt: number;
}

interface PendingWrite {
  appId: string;
  drafts: ReadonlyArray<MessageDraft>;
  resolve(rows: WrittenMessage[]): void;
  reject(error: unknown): void;
}

/**
 * SQLite: the same statements, prepared once, and group commit. The writes that arrive within one
 * turn of the event loop share a transaction, so a busy server pays one commit (and one set of WAL
 * pages) per batch instead of per message, and one conversation upsert per conversation of the batch. Every caller is answered only after its batch has
 * committed; a failing write is retried alone, so it fails by itself.
 */
export class SqliteMessageWriter implements MessageWriter {
  #pending: PendingWrite[] = [];
  #statements: Statements | undefined;

  constructor(
    private readonly db: Db,
    private readonly connection: SqliteConnection,
  ) {}

  insertAll(appId: string, drafts: ReadonlyArray<MessageDraft>): Promise<WrittenMessage[]> {
    return new Promise((resolve, reject) => {
      if (this.#pending.push({ appId, drafts, resolve, reject }) === 1)
        setImmediate(() => void this.#flush());
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    try {
      await this.connection.exclusive((database) => this.#write(database, batch));
    } catch (error) {
      for (const write of batch) write.reject(error);
    }
  }

  #write(database: SQLite.Database, batch: PendingWrite[]): void {
    let stored: WrittenMessage[][];
    try {
      stored = database.transaction(() => this.#store(database, batch))();
    } catch {
      for (const write of batch) {
        try {
          write.resolve(database.transaction(() => this.#store(database, [write]))()[0] ?? []);
        } catch (error) {
          write.reject(error);
        }
      }
      return;
    }
    batch.forEach((write, index) => write.resolve(stored[index] ?? []));
  }

  /**
   * The writes' messages, then each conversation's row once: what upserting it after every message
   * would leave (created by the first, current with the last), in one statement however many
   * messages of the batch it got.
   */
  #store(database: SQLite.Database, writes: ReadonlyArray<PendingWrite>): WrittenMessage[][] {
    const conversations = new Map<string, LatestMessage>();
    const stored = writes.map((write) =>
      write.drafts.map((draft) => {
        const written = this.#insert(database, write.appId, draft);
        if (written.replayed) return written;
        const key = `${write.appId}\u0000${draft.conversationId}`;
        const createdAt = conversations.get(key)?.createdAt ?? draft.sentAt;
        conversations.set(key, { appId: write.appId, draft, messageId: written.message.id, createdAt });
        return written;
      }),
    );
    const { upsertConversation } = this.#prepared(database);
    for (const { appId, draft, messageId, createdAt } of conversations.values()) {
      const values = { ...conversationValues(appId, draft, messageId), created_at: createdAt };
      upsertConversation.statement.run(upsertConversation.bind(values));
    }
    return stored;
  }

  #prepared(database: SQLite.Database): Statements {
    const draft: MessageDraft = {
      conversationId: '',
      sender: '',
      receiverType: 'user',
      receiver: '',
      category: '',
      type: '',
      data: {},
      sentAt: 0,
    };
    const values = messageValues('', draft);
    return (this.#statements ??= {
      insertMessage: prepareByName(database, values, (row) => insertMessageQuery(this.db, row)),
      messageByMuid: prepareByName(database, muidKey(values), (key) => messageByMuidQuery(this.db, key)),
      upsertConversation: prepareByName(database, conversationValues('', draft, 0), (row) =>
        upsertConversationQuery(this.db, row),
      ),
      countReply: prepareByName(database, { app_id: '', id: 0 }, (row) => countReplyQuery(this.db, row)),
      insertDecision: prepareByName(
        database,
        decisionValues('', { event: '', attempts: 0, claimedUntil: 0, createdAt: 0 }, 0),
        (row) => insertDecisionQuery(this.db, row),
      ),
    });
  }

  /** One draft's message, its parent's reply count and its decision-queue row; not its conversation. */
  #insert(database: SQLite.Database, appId: string, draft: MessageDraft): WrittenMessage {
    const values = messageValues(appId, draft);
    const { insertMessage, messageByMuid, countReply, insertDecision } = this.#prepared(database);
    const inserted = insertMessage.statement.run(insertMessage.bind(values));
    // No change: the muid's unique index turned the insert into nothing.
    if (inserted.changes === 0) {
      const first = messageByMuid.statement.get(messageByMuid.bind(muidKey(values))) as
        MessageColumns | undefined;
      if (first === undefined) throw replayedMuid(values);
      return { message: parseStoredMessage(first), replayed: true };
    }
    const messageId = Number(inserted.lastInsertRowid);
    if (draft.parentId !== undefined)
      countReply.statement.run(countReply.bind({ app_id: appId, id: draft.parentId }));
    const message = storedMessage(messageId, draft);
    if (draft.decision === undefined) return { message, replayed: false };
    const queued = insertDecision.statement.get(
      insertDecision.bind(decisionValues(appId, draft.decision, messageId)),
    ) as { id: number | bigint };
    return { message, replayed: false, decisionId: Number(queued.id) };
  }
}
