import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentTakeovers } from '../../server/agents/index.js';
import { openChatStore, type ChatStore } from '../../server/db/database.js';
import { createTestStore, ENGINES, type TestStore } from './support.js';

/** Take-overs kept in the chat store, on both engines. */
describe.each(ENGINES)('agent take-overs on %s', (engine) => {
  let location: TestStore;
  let store: ChatStore;
  let takeovers: AgentTakeovers;
  beforeAll(async () => {
    location = await createTestStore(engine);
    store = await openChatStore({ dataDir: location.dataDir, databaseUrl: location.databaseUrl });
    takeovers = new AgentTakeovers(store.db);
  });
  afterAll(async () => {
    await store?.close();
    await location?.dispose();
  });

  it('keeps who took a conversation over and since when, until it is given back', async () => {
    expect(await takeovers.get('app', 'knowledge', 'group_support')).toEqual({
      agentId: 'knowledge',
      conversationId: 'group_support',
      takenOver: false,
    });
    const taken = await takeovers.takeOver('app', 'knowledge', 'group_support', 'operator');
    expect(taken).toMatchObject({ takenOver: true, takenOverBy: 'operator' });
    expect(typeof taken.takenOverAt).toBe('number');
    expect(await takeovers.list('app', 'knowledge')).toEqual([taken]);
    expect(await takeovers.list('other-app', 'knowledge')).toEqual([]);
    await takeovers.giveBack('app', 'knowledge', 'group_support');
    expect((await takeovers.get('app', 'knowledge', 'group_support')).takenOver).toBe(false);
  });

  it('keeps the first operator when the conversation is taken over again', async () => {
    await takeovers.takeOver('app', 'knowledge', 'group_desk', 'operator');
    const again = await takeovers.takeOver('app', 'knowledge', 'group_desk', undefined);
    expect(again.takenOverBy).toBe('operator');
  });
});
