import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiFixtures,
  createTestStore,
  startTestServer,
  textMessage,
  type TestServer,
  type TestStore,
} from './support.js';

/** The texts of a one-to-one conversation, as `uid` lists them. */
async function conversationTexts(server: TestServer, uid: string, other: string): Promise<string[]> {
  const listed = await server.call('GET', `/users/${other}/messages?perPage=100`, { onBehalfOf: uid });
  expect(listed.status).toBe(200);
  return (listed.body.data as Array<{ data: { text?: string } }>).map((message) => message.data.text ?? '');
}

describe('a muid sent again through one process (SQLite)', () => {
  let store: TestStore;
  let server: TestServer;

  beforeAll(async () => {
    store = await createTestStore('sqlite');
    server = await startTestServer(store);
  });
  afterAll(async () => {
    await server?.close();
    await store?.dispose();
  });

  it('stores one message for sends racing and retried with one muid, and answers each with it', async () => {
    const { createUser } = apiFixtures(server.call);
    const [alice, bob] = [await createUser('alice'), await createUser('bob')];
    const send = (text: string) =>
      server.call('POST', '/messages', {
        body: { ...textMessage(bob, text), muid: 'retry-1' },
        onBehalfOf: alice,
      });
    // Sent in one turn of the event loop, the two share one SQLite transaction.
    const racing = await Promise.all([send('first try'), send('second try')]);
    const retried = await send('third try');
    const answers = [...racing, retried];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
    expect(answers.map((answer) => answer.body.data.data.text)).toEqual([
      'first try',
      'first try',
      'first try',
    ]);
    expect(await conversationTexts(server, alice, bob)).toEqual(['first try']);
  });

  it('stores one message per receiver for a muid sent to several receivers', async () => {
    const { createUser } = apiFixtures(server.call);
    const [alice, bob, carol] = [
      await createUser('alice'),
      await createUser('bob'),
      await createUser('carol'),
    ];
    const body = {
      category: 'message',
      type: 'text',
      data: { text: 'to both' },
      muid: 'several-1',
      multipleReceivers: { uids: [bob, carol] },
    };
    const first = await server.call('POST', '/messages', { body, onBehalfOf: alice });
    const again = await server.call('POST', '/messages', { body, onBehalfOf: alice });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body.data).toEqual(first.body.data);
    expect(await conversationTexts(server, alice, bob)).toEqual(['to both']);
    expect(await conversationTexts(server, alice, carol)).toEqual(['to both']);
  });
});
