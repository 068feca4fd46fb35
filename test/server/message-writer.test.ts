import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChatStore, type ChatStore } from '../../server/index.js';
import { MessageRepository, type MessageDraft } from '../../server/repositories/messages.js';

const draft = (text: string, overrides: Partial<MessageDraft> = {}): MessageDraft => ({
  conversationId: 'alice_user_bob',
  sender: 'alice',
  receiverType: 'user',
  receiver: 'bob',
  category: 'message',
  type: 'text',
  data: { text },
  sentAt: 1_763_700_000,
  ...overrides,
});

/** The SQLite writer commits the sends of one event-loop turn together; these hold it to one send's rules. */
describe('SQLite message writes', () => {
  let dataDir: string;
  let store: ChatStore;
  let messages: MessageRepository;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'parley-writer-'));
    store = await openChatStore({ dataDir });
    messages = new MessageRepository(store);
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores sends made together each once, in order of arrival', async () => {
    const rows = await Promise.all(
      ['one', 'two', 'three'].map((text) => messages.insertAll('app', [draft(text)])),
    );
    const ids = rows.map(([row]) => row?.message.id ?? 0);
    expect(ids[0]! < ids[1]! && ids[1]! < ids[2]!).toBe(true);
    const stored = await messages.findMany('app', ids);
    expect(ids.map((id) => stored.get(id)?.data.text)).toEqual(['one', 'two', 'three']);
  });

  it('fails a send that breaks a constraint alone, storing the ones sent beside it', async () => {
    const broken = draft('no conversation', { conversationId: null as unknown as string });
    const results = await Promise.allSettled([
      messages.insertAll('app', [draft('before')]),
      messages.insertAll('app', [draft('kept'), broken]),
      messages.insertAll('app', [draft('after')]),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const listed = await messages.list('app', {}, { affix: 'append' }, 100);
    const texts = listed.map((row) => row.data.text);
    expect(texts).toContain('before');
    expect(texts).toContain('after');
    expect(texts).not.toContain('kept');
  });

  it('keeps the conversation row on the last message of the batch', async () => {
    const [[first], [second]] = await Promise.all([
      messages.insertAll('app2', [draft('a')]),
      messages.insertAll('app2', [draft('b')]),
    ]);
    const conversation = await store.db
      .selectFrom('conversations')
      .selectAll()
      .where('app_id', '=', 'app2')
      .executeTakeFirstOrThrow();
    expect(conversation.last_message_id).toBe(second?.message.id);
    expect(conversation.last_message_id).toBeGreaterThan(first?.message.id ?? Infinity);
  });

  it('leaves each conversation of a batch created by its first message and current with its last', async () => {
    const toCarol = { conversationId: 'alice_user_carol', receiver: 'carol' };
    const written = await Promise.all([
      messages.insertAll('app4', [draft('first to bob', { sentAt: 100 })]),
      messages.insertAll('app4', [draft('first to carol', { ...toCarol, sentAt: 101 })]),
      messages.insertAll('app4', [draft('last to bob', { sentAt: 102 })]),
      messages.insertAll('app4', [draft('last to carol', { ...toCarol, sentAt: 103 })]),
    ]);
    const ids = written.map(([row]) => row?.message.id);
    const conversations = await store.db
      .selectFrom('conversations')
      .select(['conversation_id', 'last_message_id', 'created_at', 'updated_at'])
      .where('app_id', '=', 'app4')
      .orderBy('conversation_id')
      .execute();
    expect(
      conversations.map((row) => ({
        ...row,
        created_at: Number(row.created_at),
        updated_at: Number(row.updated_at),
      })),
    ).toEqual([
      { conversation_id: 'alice_user_bob', last_message_id: ids[2], created_at: 100, updated_at: 102 },
      { conversation_id: 'alice_user_carol', last_message_id: ids[3], created_at: 101, updated_at: 103 },
    ]);
  });

  it('waits for a transaction that holds the connection instead of joining it', async () => {
    let releaseTransaction: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (releaseTransaction = resolve));
    const transaction = store.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('apps')
        .values({ app_id: 'rolled-back', name: 'x', region: 'us', created_at: 0 })
        .execute();
      await held;
      throw new Error('roll back');
    });
    const sent = messages.insertAll('app3', [draft('outside the transaction')]);
    // Long enough for the writer's turn to come while the transaction is still open.
    await new Promise((resolve) => setTimeout(resolve, 50));
    releaseTransaction();
    await expect(transaction).rejects.toThrow('roll back');
    const [row] = await sent;
    expect(row === undefined ? undefined : (await messages.findMany('app3', [row.message.id])).size).toBe(1);
  });
});
