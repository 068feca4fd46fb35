import { describe, expect, it } from 'vitest';
import { useProcessPair } from '../support/process-pair.js';
import { APP_ONE, apiFixtures, moderationOf, textMessage, uniqueId } from './support.js';

/**
 * Two `parley chat-server` processes on one PostgreSQL database, joined over Redis. Each keeps the
 * app's compiled moderation rules in memory; a rule added or removed through one process must act
 * on the sends of the other, which had cached "no rule" (or the rule) before.
 */
describe('moderation rules changed through another process', () => {
  const { a, b } = useProcessPair(APP_ONE);

  it('hold back messages sent through B once a rule is added through A, and not once it is removed', async () => {
    const { createUser } = apiFixtures(a);
    const alice = await createUser('alice');
    const bob = await createUser('bob');
    const bad = uniqueId('w').replaceAll('-', '');
    const verdictOf = async (): Promise<string | undefined> => {
      const sent = await b('POST', '/messages', { body: textMessage(bob, `say ${bad}`), onBehalfOf: alice });
      expect(sent.status).toBe(200);
      return moderationOf(sent)?.status;
    };
    expect(await verdictOf()).toBeUndefined();
    const rule = await a('POST', '/moderation/rules', {
      body: {
        id: uniqueId('rule'),
        name: 'No bad words',
        conditions: [
          { entity: 'message', operand: 'text', category: 'word', operator: 'contains', value: [bad] },
        ],
        action: ['blockMessage'],
      },
    });
    expect(rule.status).toBe(200);
    await expect.poll(verdictOf, { timeout: 15_000, interval: 50 }).toBe('disapproved');
    expect((await a('DELETE', `/moderation/rules/${rule.body.data.id as string}`)).status).toBe(200);
    await expect.poll(verdictOf, { timeout: 15_000, interval: 50 }).toBeUndefined();
  });
});
