import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from './client-support.js';
import { APP_ONE, ENGINES, apiFixtures, textMessage, useTestServer } from './support.js';

const fileMessage = (receiver: string, name: string, receiverType: 'user' | 'group' = 'user') => ({
  receiver,
  receiverType,
  category: 'message',
  type: 'file',
  data: { attachments: [{ url: `https://files.example.com/${name}`, name, mimeType: 'application/pdf' }] },
});

/**
 * Keyword search over messages (the SDK's `setSearchKeyword`, the REST API's `searchKey`): text and
 * attachment file names contain the keyword in any case, literally; no action message and nothing
 * deleted comes back, and never a message of a conversation the caller is not in.
 */
describe.each(ENGINES)('message search on %s', (engine) => {
  const api = useTestServer(engine);
  let alice: string;
  let bob: string;
  let carol: string;
  let guid: string;
  let aliceClient: TestClient;
  let carolClient: TestClient;
  const ids: Record<string, string> = {};

  const send = async (name: string, sender: string, body: unknown): Promise<void> => {
    const response = await api.call('POST', '/messages', { body, onBehalfOf: sender });
    expect(response.status).toBe(200);
    ids[name] = response.body.data.id as string;
  };
  const found = async (client: TestClient, path: string): Promise<string[]> => {
    const response = await client.call('GET', path);
    expect(response.status).toBe(200);
    return (response.body.data as Array<{ id: string }>).map((message) => message.id);
  };

  beforeAll(async () => {
    const { createUser, createGroup } = apiFixtures(api.call);
    alice = await createUser('alice');
    bob = await createUser('bob');
    carol = await createUser('carol');
    guid = await createGroup(alice, [bob]);
    aliceClient = await connectClient(api.server, APP_ONE, alice, { socket: false });
    carolClient = await connectClient(api.server, APP_ONE, carol, { socket: false });
    await send('budgetText', alice, textMessage(bob, 'The BUDGET for May'));
    await send('other', alice, textMessage(bob, 'lunch at noon'));
    await send('budgetFile', bob, fileMessage(alice, 'budget-2026.pdf'));
    await send('groupBudget', bob, textMessage(guid, 'budget review in the group', 'group'));
    await send('percent', alice, textMessage(bob, 'a 100% raise'));
    await send('carolBudget', carol, textMessage(bob, 'my budget, not for alice'));
    await send('deleted', alice, textMessage(bob, 'budget draft to delete'));
    expect((await api.call('DELETE', `/messages/${ids.deleted}`, { onBehalfOf: alice })).status).toBe(200);
    // Editing leaves an "edited" action message in the conversation.
    const edited = await api.call('PUT', `/messages/${ids.other}`, {
      onBehalfOf: alice,
      body: { data: { text: 'lunch at one' } },
    });
    expect(edited.status).toBe(200);
  });

  it('finds text in any case and file names in a one-to-one history, and nothing else', async () => {
    expect(await found(aliceClient, `/users/${bob}/messages?searchKey=budget`)).toEqual([
      ids.budgetText,
      ids.budgetFile,
    ]);
  });

  it("searches all of the caller's conversations, never one they are not in", async () => {
    const everywhere = await found(aliceClient, '/messages?searchKey=Budget');
    expect(everywhere).toEqual([ids.budgetText, ids.budgetFile, ids.groupBudget]);
    expect(everywhere).not.toContain(ids.carolBudget);
    expect(await found(carolClient, '/messages?searchKey=budget')).toEqual([ids.carolBudget]);
  });

  it('refuses a group history to a non-member, keyword or not', async () => {
    const response = await carolClient.call('GET', `/groups/${guid}/messages?searchKey=budget`);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it('returns no action messages for a keyword that only an action would match', async () => {
    // The "edited" action's entities name both users; their UIDs are in it, the text is not.
    expect(await found(aliceClient, `/users/${bob}/messages?searchKey=${encodeURIComponent(bob)}`)).toEqual(
      [],
    );
    const lunch = await found(aliceClient, `/users/${bob}/messages?searchKey=lunch`);
    expect(lunch).toEqual([ids.other]);
  });

  it('matches wildcard characters literally', async () => {
    expect(
      await found(aliceClient, `/users/${bob}/messages?searchKey=${encodeURIComponent('100%')}`),
    ).toEqual([ids.percent]);
    expect(await found(aliceClient, `/users/${bob}/messages?searchKey=${encodeURIComponent('_')}`)).toEqual(
      [],
    );
  });

  it('combines the keyword with the other filters', async () => {
    expect(await found(aliceClient, `/users/${bob}/messages?searchKey=budget&types=file`)).toEqual([
      ids.budgetFile,
    ]);
    expect(await found(aliceClient, `/messages?searchKey=budget&receiverType=group`)).toEqual([
      ids.groupBudget,
    ]);
  });

  it('searches on behalf of a user through the REST API, and the whole app without one', async () => {
    const onBehalf = await api.call('GET', '/messages?searchKey=budget', { onBehalfOf: carol });
    expect(onBehalf.body.data.map((message: { id: string }) => message.id)).toEqual([ids.carolBudget]);
    const app = await api.call('GET', '/messages?searchKey=budget');
    expect(app.body.data.map((message: { id: string }) => message.id)).toEqual([
      ids.budgetText,
      ids.budgetFile,
      ids.groupBudget,
      ids.carolBudget,
    ]);
  });

  it('refuses a keyword past the length limit, naming the field', async () => {
    const response = await aliceClient.call('GET', `/messages?searchKey=${'x'.repeat(1000)}`);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.error)).toContain('searchKey');
  });
});
