import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SdkUser } from './sdk/drivers.js';
import type { SdkEvent } from './sdk/sdk-ops.js';
import { SDK_RUNS, SESSION_START_TIMEOUT_MS, startSdkSession, type SdkSession } from './sdk/sessions.js';

/**
 * Moderation rules as CometChat's official SDK 4.2.0 sees them (over TLS): a message a rule blocks
 * comes back from `sendMessage` with `getModerationStatus()` `disapproved` and `onMessageModerated`
 * says so; the receiver hears nothing until a moderator approves it through the REST API, when it
 * arrives marked `approved` under the id the sender was answered with, and the sender hears
 * `onMessageModerated` again for that id.
 */
describe.each(SDK_RUNS)('CometChat SDK 4.2.0 moderation in $runtime on $engine', (run) => {
  let session: SdkSession<'alice' | 'bob'>;
  let alice: SdkUser;
  let bob: SdkUser;

  beforeAll(async () => {
    session = await startSdkSession(run, ['alice', 'bob']);
    ({ alice, bob } = session.users);
    const rule = await session.server.serverApi('POST', '/moderation/rules', {
      id: 'no-pills',
      name: 'No pill spam',
      conditions: [
        {
          entity: 'message',
          operand: 'text',
          category: 'word',
          operator: 'contains',
          value: ['cheap pills'],
        },
      ],
      action: ['blockMessage'],
    });
    expect(rule.status).toBe(200);
  }, SESSION_START_TIMEOUT_MS);
  afterAll(async () => {
    await session?.close();
  });

  it('answers a blocked message as disapproved, tells the sender, and delivers it once approved', async () => {
    const text = 'buy Cheap  Pills here';
    const sent = await alice.call<SdkEvent & { id: string }>('sendText', 'bob', 'user', text);
    expect(sent).toMatchObject({ text, moderationStatus: 'disapproved' });
    await alice.next(
      (event) =>
        event.kind === 'moderated' && event.id === sent.id && event.moderationStatus === 'disapproved',
      'the disapproval',
    );
    const fine = await alice.call<SdkEvent & { id: string }>('sendText', 'bob', 'user', 'see you at noon');
    expect(fine.moderationStatus).toBeUndefined();
    await bob.next((event) => event.kind === 'message' && event.id === fine.id, 'the message sent after it');
    expect(bob.events().some((event) => event.kind === 'message' && event.text === text)).toBe(false);

    const approved = await session.server.serverApi('PATCH', `/moderation/blocked-messages/${sent.id}`, {
      status: 'approved',
    });
    expect(approved.status).toBe(200);
    const delivered = await bob.next(
      (event) => event.kind === 'message' && event.text === text,
      'the approved message',
    );
    expect(delivered.moderationStatus).toBe('approved');
    // The message the sender's UI shows, under the id `sendMessage` answered, is the one approved.
    expect(delivered.id).toBe(sent.id);
    await alice.next(
      (event) => event.kind === 'moderated' && event.id === sent.id && event.moderationStatus === 'approved',
      'the approval',
    );
  });
});
