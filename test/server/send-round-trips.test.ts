import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiFixtures,
  createTestStore,
  startTestServer,
  testRedis,
  textMessage,
  type TestServer,
  type TestStore,
} from './support.js';

/**
 * What one message send asks of PostgreSQL when the processes are joined by Redis: the sender,
 * receivers, groups, memberships and blocks come from the process's caches, and the message with
 * its conversation row is one statement, so a send is one round trip to the database.
 */
describe('statements a send makes on PostgreSQL joined by Redis', () => {
  let store: TestStore;
  let server: TestServer;
  /** The text of every statement any pg client of this test process sends while `recording`. */
  const statements: string[] = [];
  let recording = false;
  const query = pg.Client.prototype.query;

  beforeAll(async () => {
    store = await createTestStore('postgres');
    server = await startTestServer(store, { redis: testRedis() });
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [config] = args as [string | { text?: string }];
      if (recording) statements.push(typeof config === 'string' ? config : (config.text ?? ''));
      return (query as (...args: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  });
  afterAll(async () => {
    pg.Client.prototype.query = query;
    await server?.close();
    await store?.dispose();
  });

  /** Statements about the rows a send reads or writes; the notification workers' polls are not. */
  const aboutSends = (sql: string): boolean =>
    /"(messages|conversations|users|groups|group_members|blocked_users)"|^(begin|commit)/i.test(sql);

  it('stores a one-to-one message with one statement and reads nothing else', async () => {
    const { createUser } = apiFixtures(server.call);
    const [alice, bob] = [await createUser('alice'), await createUser('bob')];
    const send = (text: string) =>
      server.call('POST', '/messages', { body: textMessage(bob, text), onBehalfOf: alice });
    expect((await send('first: fills the caches')).status).toBe(200);
    recording = true;
    for (let index = 0; index < 5; index += 1) expect((await send(`message ${index}`)).status).toBe(200);
    recording = false;
    const sent = statements.filter(aboutSends);
    expect(sent).toHaveLength(5);
    for (const sql of sent) expect(sql).toMatch(/^with "stored" as \(insert into "messages"/);
  });

  it('stores a group message with one statement once the sender and membership are cached', async () => {
    const { createUser, createGroup } = apiFixtures(server.call);
    const owner = await createUser('owner');
    const guid = await createGroup(owner);
    const send = (text: string) =>
      server.call('POST', '/messages', { body: textMessage(guid, text, 'group'), onBehalfOf: owner });
    expect((await send('first: fills the caches')).status).toBe(200);
    statements.length = 0;
    recording = true;
    for (let index = 0; index < 5; index += 1) expect((await send(`message ${index}`)).status).toBe(200);
    recording = false;
    // Delivery reads the members' UIDs after the answer (cached too); the first message's may land here.
    const delivery = /^select "uid" from "group_members"/;
    const sent = statements.filter((sql) => aboutSends(sql) && !delivery.test(sql));
    expect(sent).toHaveLength(5);
    for (const sql of sent) expect(sql).toMatch(/^with "stored" as \(insert into "messages"/);
  });
});
