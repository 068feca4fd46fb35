import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MessageRepository } from '../../server/repositories/messages.js';
import { ENGINES, FORM_DATA, apiFixtures, injectFailure, useTestServer } from './support.js';

/** Waits for `condition` without timing anything: fails only if it never holds. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 30_000) throw new Error(`gave up waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A hook in the repository layer that makes the worst interleaving certain: the first read of a
 * watched message waits until a second read of it has returned, so two changes to one message
 * have both read it before either writes. Only a change that reads the message again under its
 * lock, inside the transaction that writes it, keeps both effects.
 */
function readBothBeforeWriting(messages: MessageRepository, watched: Set<number>): void {
  const reads = new Map<number, number>();
  const find = messages.find.bind(messages);
  vi.spyOn(messages, 'find').mockImplementation(async (appId, id, db) => {
    const row = await find(appId, id, db);
    if (!watched.has(id)) return row;
    const count = (reads.get(id) ?? 0) + 1;
    reads.set(id, count);
    if (count === 1) await until(() => (reads.get(id) ?? 0) >= 2, `the message ${id} was read twice`);
    return row;
  });
}

describe.each(ENGINES)('message changes own their transactions on %s', (engine) => {
  const api = useTestServer(engine);
  const call = api.call;
  const { createUser } = apiFixtures(call);

  const sendForm = async (sender: string, receiver: string): Promise<string> => {
    const response = await call('POST', '/messages', {
      body: { receiver, receiverType: 'user', category: 'interactive', type: 'form', data: FORM_DATA },
      onBehalfOf: sender,
    });
    expect(response.status).toBe(200);
    return String(response.body.data.id);
  };

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('keeps both a concurrent edit and an interaction on the same form, every time', async () => {
    const alice = await createUser();
    const bob = await createUser();
    const ids = await Promise.all(Array.from({ length: 20 }, () => sendForm(alice, bob)));
    readBothBeforeWriting(api.server.core.messages, new Set(ids.map(Number)));
    const answers = await Promise.all(
      ids.flatMap((id, round) => [
        call('PUT', `/messages/${id}`, { body: { data: { metadata: { round } } }, onBehalfOf: alice }),
        call('PATCH', `/messages/${id}/interacted`, {
          body: { interactions: ['fullName'] },
          onBehalfOf: bob,
        }),
      ]),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    vi.restoreAllMocks();
    for (const [round, id] of ids.entries()) {
      const stored = await call('GET', `/messages/${id}`);
      expect(stored.body.data.data.metadata).toEqual({ round });
      expect(stored.body.data.data.interactions).toEqual([
        { elementId: 'fullName', interactedAt: expect.any(Number) },
      ]);
    }
  });

  it('stores nothing of a form submission that fails midway, so it can be sent again', async () => {
    const alice = await createUser();
    const bob = await createUser();
    const id = await sendForm(alice, bob);
    const { store } = api.server.core;
    // Its write of the interactions fails, after it has noted which elements were used.
    const allowUpdates = await injectFailure(store, 'messages', 'update', `new.id = ${Number(id)}`);
    const submit = () =>
      call('PATCH', `/messages/${id}/interacted`, {
        body: { interactions: ['submitVisit'] },
        onBehalfOf: bob,
      });
    const failed = await submit();
    await allowUpdates();
    expect(failed.status).toBe(500);
    const noted = await store.db
      .selectFrom('form_submissions')
      .select('element_id')
      .where('message_id', '=', Number(id))
      .execute();
    expect(noted).toEqual([]);
    const stored = await call('GET', `/messages/${id}`);
    expect(stored.body.data.data.interactions).toBeUndefined();
    // The button acts once per user: a half-stored first attempt would refuse the second.
    const retried = await submit();
    expect(retried.status).toBe(200);
    expect(retried.body.data.interactionGoalCompleted).toBe(true);
  });
});
