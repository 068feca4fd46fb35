import { describe, expect, it } from 'vitest';
import { ClientConversation, Conversation } from '../../shared/conversations.js';
import { Pagination } from '../../shared/users.js';
import { connectClient } from './client-support.js';
import { APP_ONE, apiFixtures, textMessage, useTestServer } from './support.js';

/** Both APIs answer conversations in the shapes shared/ defines once, each with its own counts. */
describe('conversations as the shared schemas define them', () => {
  const api = useTestServer('sqlite');
  const { createUser, createGroup } = apiFixtures(api.call);

  it('the server API answers conversations and their pagination in the shared shapes', async () => {
    const alice = await createUser('alice');
    const bob = await createUser('bob');
    const guid = await createGroup(alice, [bob]);
    await api.call('POST', '/messages', { body: textMessage(bob, 'hi'), onBehalfOf: alice });
    await api.call('POST', '/messages', { body: textMessage(guid, 'all', 'group'), onBehalfOf: alice });
    const listed = await api.call('GET', '/conversations', { onBehalfOf: bob });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    for (const conversation of listed.body.data) Conversation.parse(conversation);
    expect(Pagination.parse(listed.body.meta.pagination).total).toBe(2);
  });

  it('the client API answers conversations in the client shape, counts as numbers', async () => {
    const alice = await createUser('alice');
    const bob = await createUser('bob');
    await api.call('POST', '/messages', { body: textMessage(bob, 'hi'), onBehalfOf: alice });
    const client = await connectClient(api.server, APP_ONE, bob, { socket: false });
    const listed = await client.call('GET', '/conversations');
    expect(listed.status).toBe(200);
    const [conversation] = listed.body.data.map((item: unknown) => ClientConversation.parse(item));
    expect(conversation?.unreadMessageCount).toBe(1);
  });
});
