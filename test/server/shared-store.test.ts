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
 * Several chat-service processes (joined by Redis) may share one PostgreSQL database: what one of
 * them changes, the next request to another sees, even for the rows every message send reads.
 */
describe('two server instances on one PostgreSQL database', () => {
  let store: TestStore;
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    store = await createTestStore('postgres');
    const redis = testRedis();
    first = await startTestServer(store, { redis });
    second = await startTestServer(store, { redis });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await store?.dispose();
  });

  const fixtures = () => apiFixtures((...args) => first.call(...args));
  const sendThrough = (server: TestServer, sender: string, body: unknown) =>
    server.call('POST', '/messages', { body, onBehalfOf: sender });

  it('names a sender as the other instance renamed them', async () => {
    const alice = await fixtures().createUser();
    const bob = await fixtures().createUser();
    expect((await sendThrough(first, alice, textMessage(bob, 'before'))).status).toBe(200);
    expect((await second.call('PUT', `/users/${alice}`, { body: { name: 'Alice Renamed' } })).status).toBe(
      200,
    );
    const after = await sendThrough(first, alice, textMessage(bob, 'after'));
    expect(after.body.data.data.entities.sender.entity.name).toBe('Alice Renamed');
  });

  it('refuses a receiver the other instance deleted', async () => {
    const alice = await fixtures().createUser();
    const bob = await fixtures().createUser();
    expect((await sendThrough(first, alice, textMessage(bob, 'hi'))).status).toBe(200);
    expect((await second.call('DELETE', `/users/${bob}`)).status).toBe(200);
    const refused = await sendThrough(first, alice, textMessage(bob, 'still there?'));
    expect(refused.body.error.code).toBe('ERR_UID_NOT_FOUND');
  });

  it('refuses a member the other instance kicked, and counts the members it added', async () => {
    const owner = await fixtures().createUser();
    const member = await fixtures().createUser();
    const guid = await fixtures().createGroup(owner, [member]);
    expect((await sendThrough(first, member, textMessage(guid, 'in', 'group'))).status).toBe(200);
    expect((await second.call('DELETE', `/groups/${guid}/members/${member}`)).status).toBe(200);
    const kicked = await sendThrough(first, member, textMessage(guid, 'out?', 'group'));
    expect(kicked.body.error.code).toBe('ERR_NOT_A_MEMBER');
    const joiner = await fixtures().createUser();
    await second.call('POST', `/groups/${guid}/members`, { body: { participants: [joiner] } });
    const counted = await sendThrough(first, owner, textMessage(guid, 'welcome', 'group'));
    expect(counted.body.data.data.entities.receiver.entity.membersCount).toBe(2);
  });
});
