import { describe, expect, it } from 'vitest';
import { insertMessagePostgres } from '../../server/repositories/message-writer.js';
import { APP_ONE, apiFixtures, holdRows, textMessage, until, useTestServer, waitersOn } from './support.js';

/**
 * Changes that PostgreSQL runs side by side, each met by the test as the concurrent caller: a
 * transaction of its own makes the other change and holds its row until the change under test
 * waits on it (`pg_blocking_pids`), then commits.
 */
describe('changes racing one another on postgres', () => {
  const api = useTestServer('postgres');
  const { createUser, sendMessage } = apiFixtures(api.call);

  it("keeps another update's change of other fields of a user", async () => {
    const uid = await createUser('contested');
    // Another update sets the user's metadata and has not committed yet.
    const { db } = api.server.core.store;
    const other = await holdRows(db, (trx) =>
      trx
        .updateTable('users')
        .set({ metadata: JSON.stringify({ team: 'support' }) })
        .where('app_id', '=', APP_ONE.appId)
        .where('uid', '=', uid)
        .execute(),
    );
    const renaming = api.call('PUT', `/users/${uid}`, { body: { name: 'Renamed' } });
    await until(async () => (await waitersOn(db, other.pid)) === 1);
    other.release();
    await other.done;
    expect((await renaming).status).toBe(200);
    const read = await api.call('GET', `/users/${uid}`);
    expect(read.body.data).toMatchObject({ name: 'Renamed', metadata: { team: 'support' } });
  });

  it("keeps another update's change of other fields of a role", async () => {
    expect(
      (await api.call('POST', '/roles', { body: { role: 'contested', name: 'Contested' } })).status,
    ).toBe(200);
    // Another update sets the role's metadata and has not committed yet.
    const { db } = api.server.core.store;
    const other = await holdRows(db, (trx) =>
      trx
        .updateTable('roles')
        .set({ metadata: JSON.stringify({ tier: 'gold' }) })
        .where('app_id', '=', APP_ONE.appId)
        .where('role', '=', 'contested')
        .execute(),
    );
    const renaming = api.call('PUT', '/roles/contested', { body: { name: 'Renamed' } });
    await until(async () => (await waitersOn(db, other.pid)) === 1);
    other.release();
    await other.done;
    expect((await renaming).status).toBe(200);
    const read = await api.call('GET', '/roles/contested');
    expect(read.body.data).toMatchObject({ name: 'Renamed', metadata: { tier: 'gold' } });
  });

  it('registers an agent whose user another registration of it creates meanwhile', async () => {
    // Another registration of the agent has stored its user and not committed yet.
    const { db } = api.server.core.store;
    const other = await holdRows(db, (trx) =>
      trx
        .insertInto('users')
        .values({
          app_id: APP_ONE.appId,
          uid: 'helper',
          name: 'Helper',
          role: 'agent',
          tags: '[]',
          status: 'offline',
          created_at: Math.floor(Date.now() / 1000),
        })
        .execute(),
    );
    const registering = api.call('POST', '/ai-agents', {
      body: {
        agentId: 'helper',
        provider: 'mastra',
        deploymentUrl: 'http://127.0.0.1:4111',
        name: 'Help Desk',
        namespace: 'handbook',
      },
    });
    await until(async () => (await waitersOn(db, other.pid)) === 1);
    other.release();
    await other.done;
    expect((await registering).status).toBe(200);
    const user = await api.call('GET', '/users/helper');
    expect(user.body.data).toMatchObject({ name: 'Help Desk', role: 'agent' });
  });

  it("keeps a later send as the conversation's last message when an earlier one updates the row after it", async () => {
    const [alice, bob] = [await createUser('alice'), await createUser('bob')];
    const first = await sendMessage(alice, textMessage(bob, 'first'));
    const { conversationId } = (await api.call('GET', `/messages/${first.id}`, { onBehalfOf: alice })).body
      .data as { conversationId: string };
    const { db } = api.server.core.store;
    // A later send that reaches the conversation's row first: it holds the row, then stores its
    // message (taking the next id) and makes it the last one, as every send does.
    const later = await holdRows(
      db,
      (trx) =>
        trx
          .selectFrom('conversations')
          .select('last_message_id')
          .where('app_id', '=', APP_ONE.appId)
          .where('conversation_id', '=', conversationId)
          .forNoKeyUpdate()
          .execute(),
      async (trx) => {
        const written = await insertMessagePostgres(trx, APP_ONE.appId, {
          conversationId,
          sender: bob,
          receiverType: 'user',
          receiver: alice,
          category: 'message',
          type: 'text',
          data: { text: 'later' },
          sentAt: Math.floor(Date.now() / 1000),
        });
        return written.message.id;
      },
    );
    // The earlier send stores its message, then waits for the row.
    const earlier = api.call('POST', '/messages', { body: textMessage(bob, 'earlier'), onBehalfOf: alice });
    await until(async () => (await waitersOn(db, later.pid)) === 1);
    later.release();
    const laterId = (await later.done)!;
    const earlierAnswer = await earlier;
    expect(earlierAnswer.status).toBe(200);
    expect(Number(earlierAnswer.body.data.id)).toBeLessThan(laterId);
    const conversation = await db
      .selectFrom('conversations')
      .select('last_message_id')
      .where('app_id', '=', APP_ONE.appId)
      .where('conversation_id', '=', conversationId)
      .executeTakeFirstOrThrow();
    expect(Number(conversation.last_message_id)).toBe(laterId);
  });
});
