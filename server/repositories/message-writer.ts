import type SQLite from 'better-sqlite3';
import type { Insertable, Kysely } from 'kysely';
import type { SqliteConnection } from '../db/database.js';
import type { ChatDatabase, ConversationTable } from '../db/schema.js';
import type { MessageRow } from './messages.js';

type Db = Kysely<ChatDatabase>;

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
  sentAt: number;
}

/** Stores sent messages: each call's drafts in one transaction with their conversation rows. */
export interface MessageWriter {
  insertAll(appId: string, drafts: ReadonlyArray<MessageDraft>): Promise<MessageRow[]>;
}

function messageValues(appId: string, draft: MessageDraft): Omit<MessageRow, 'id'> {
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
  };
}

/** The conversation row a message makes current: one-to-one rows name both UIDs in sorted order. */
function conversationValues(
  appId: string,
  draft: MessageDraft,
  messageId: number,
): Insertable<ConversationTable> {
  const [first, second] =
    draft.receiverType === 'user' ? [draft.sender, draft.receiver].sort() : [undefined, undefined];
  return {
    app_id: appId,
    conversation_id: draft.conversationId,
    conversation_type: draft.receiverType,
    first_uid: first ?? null,
    second_uid: second ?? null,
    guid: draft.receiverType === 'group' ? draft.receiver : null,
    last_message_id: messageId,
    created_at: draft.sentAt,
    updated_at: draft.sentAt,
  };
}

/** One message and its conversation upsert through Kysely, inside the caller's transaction. */
export async function insertMessage(db: Db, appId: string, draft: MessageDraft): Promise<MessageRow> {
  const values = messageValues(appId, draft);
  const { id } = await db.insertInto('messages').values(values).returning('id').executeTakeFirstOrThrow();
  const messageId = Number(id);
  const conversation = conversationValues(appId, draft, messageId);
  await db
    .insertInto('conversations')
    .values(conversation)
    .onConflict((oc) =>
      oc
        .columns(['app_id', 'conversation_id'])
        .doUpdateSet({ last_message_id: messageId, updated_at: conversation.updated_at }),
    )
    .execute();
  return { ...values, id: messageId };
}

/** PostgreSQL (and any engine without a faster path): one Kysely transaction per call. */
export class KyselyMessageWriter implements MessageWriter {
  constructor(private readonly db: Db) {}

  insertAll(appId: string, drafts: ReadonlyArray<MessageDraft>): Promise<MessageRow[]> {
    return this.db.transaction().execute(async (trx) => {
      const rows: MessageRow[] = [];
      for (const draft of drafts) rows.push(await insertMessage(trx, appId, draft));
      return rows;
    });
  }
}

const INSERT_MESSAGE = `insert into messages
  (app_id, conversation_id, sender, receiver_type, receiver, category, type, data, muid, tags, sent_at, updated_at)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const UPSERT_CONVERSATION = `insert into conversations
  (app_id, conversation_id, conversation_type, first_uid, second_uid, guid, last_message_id, created_at, updated_at)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?)
  on conflict (app_id, conversation_id)
  do update set last_message_id = excluded.last_message_id, updated_at = excluded.updated_at`;

interface Statements {
  insertMessage: SQLite.Statement;
  upsertConversation: SQLite.Statement;
}

interface PendingWrite {
  appId: string;
  drafts: ReadonlyArray<MessageDraft>;
  resolve(rows: MessageRow[]): void;
  reject(error: unknown): void;
}

/**
 * SQLite: statements prepared once, and group commit. The writes that arrive within one turn of
 * the event loop share a transaction, so a busy server pays one commit (and one set of WAL pages)
 * per batch instead of per message. Every caller is answered only after its batch has committed;
 * a failing write is retried alone, so it fails by itself.
 */
export class SqliteMessageWriter implements MessageWriter {
  #pending: PendingWrite[] = [];
  #statements: Statements | undefined;

  constructor(private readonly connection: SqliteConnection) {}

  insertAll(appId: string, drafts: ReadonlyArray<MessageDraft>): Promise<MessageRow[]> {
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
    const statements = (this.#statements ??= {
      insertMessage: database.prepare(INSERT_MESSAGE),
      upsertConversation: database.prepare(UPSERT_CONVERSATION),
    });
    const store = (write: PendingWrite): MessageRow[] =>
      write.drafts.map((draft) => insertPrepared(statements, write.appId, draft));
    let stored: MessageRow[][];
    try {
      stored = database.transaction(() => batch.map(store))();
    } catch {
      for (const write of batch) {
        try {
          write.resolve(database.transaction(() => store(write))());
        } catch (error) {
          write.reject(error);
        }
      }
      return;
    }
    batch.forEach((write, index) => write.resolve(stored[index] ?? []));
  }
}

function insertPrepared(statements: Statements, appId: string, draft: MessageDraft): MessageRow {
  const values = messageValues(appId, draft);
  const { lastInsertRowid } = statements.insertMessage.run(
    values.app_id,
    values.conversation_id,
    values.sender,
    values.receiver_type,
    values.receiver,
    values.category,
    values.type,
    values.data,
    values.muid,
    values.tags,
    values.sent_at,
    values.updated_at,
  );
  const id = Number(lastInsertRowid);
  const conversation = conversationValues(appId, draft, id);
  statements.upsertConversation.run(
    conversation.app_id,
    conversation.conversation_id,
    conversation.conversation_type,
    conversation.first_uid,
    conversation.second_uid,
    conversation.guid,
    conversation.last_message_id,
    conversation.created_at,
    conversation.updated_at,
  );
  return { ...values, id };
}
