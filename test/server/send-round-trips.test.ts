import { Redis, type Command } from 'ioredis';
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
 * its conversation row is one statement, so a send is one round trip to the database. The caches'
 * shared change counters are read from Redis with one command per send.
 */
describe('statements a send makes on PostgreSQL joined by Redis', () => {
  let store: TestStore;
  let server: TestServer;
  /** The text of every statement any pg client of this test process sends while `recording`. */
  const statements: string[] = [];
  /** The name of every command any Redis client of this test process sends while `recording`. */
  const commands: string[] = [];
  let recording = false;
  const query = pg.Client.prototype.query;
  const sendCommand = Redis.prototype.sendCommand;

  beforeAll(async () => {
    store = await createTestStore('postgres');
    server = await startTestServer(store, { redis: testRedis() });
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [config] = args as [string | { text?: string }];
      if (recording) statements.push(typeof config === 'string' ? config : (config.text ?? ''));
      return (query as (...args: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    Redis.prototype.sendCommand = function (this: Redis, command: Command, ...rest: unknown[]) {
      if (recording) commands.push(command.name);
      return (sendCommand as (...args: unknown[]) => unknown).apply(this, [command, ...rest]);
    } as typeof sendCommand;
  });
  afterAll(async () => {
    Redis.prototype.sendCommand = sendCommand;
    pg.Client.prototype.query = query;
    await server?.close();
    await store?.dispose();
  });

  /** Statements about the rows a send reads or writes; the notification workers' polls are not. */
  const aboutSends = (sql: string): boolean =>
    /"(messages|conversations|users|groups|group_members|blocked_users)"|^(begin|commit)/i.test(sql);

  /** Records five one-to-one sends between new users, after a first one that fills the caches. */
  const recordOneToOneSends = async (): Promise<void> => {
    const { createUser } = apiFixtures(server.call);
    const [alice, bob] = [await createUser('alice'), await createUser('bob')];
    const send = (text: string) =>
      server.call('POST', '/messages', { body: textMessage(bob, text), onBehalfOf: alice });
    expect((await send('first: fills the caches')).status).toBe(200);
    statements.length = 0;
    commands.length = 0;
    recording = true;
    for (let index = 0; index < 5; index += 1) expect((await send(`message ${index}`)).status).toBe(200);
    recording = false;
  };

  it('stores a one-to-one message with one statement and reads nothing else', async () => {
    await recordOneToOneSends();
    const sent = statements.filter(aboutSends);
    expect(sent).toHaveLength(5);
    for (const sql of sent) expect(sql).toMatch(/^with "stored" as \(insert into "messages"/);
  });

  it("reads the change counters of a one-to-one send with two Redis commands: the caller's API key, then the sender, receiver and blocks", async () => {
    await recordOneToOneSends();
    // Reads of the counters (publishing to other processes and heartbeats are not). The key is
    // checked before the send's reads can start, so it takes a turn of the event loop of its own.
    const reads = commands.filter((name) => name === 'hget' || name === 'hmget');
    expect(reads).toEqual(Array.from({ length: 10 }, () => 'hmget'));
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
