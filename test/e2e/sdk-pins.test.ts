import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SdkUser } from './sdk/drivers.js';
import type { SdkEvent } from './sdk/sdk-ops.js';
import {
  SDK_RUNS,
  SESSION_START_TIMEOUT_MS,
  publicGroup,
  startSdkSession,
  type SdkSession,
} from './sdk/sessions.js';

type Pin = { id: string; pinned: boolean; pinnedBy: string | null; systemPinned: boolean; saved: boolean };
type ConversationPin = { conversationId: string; pinned: boolean; pinnedBy: string | null };

/**
 * Pinned messages, saved messages and pinned conversations as CometChat's official SDK 4.2.0 does
 * them (over TLS): the feature flags and caps it reads, who may pin in a group, the pinned and saved
 * lists, the pin events its listeners fire, and pinned conversations first in the list.
 */
describe.each(SDK_RUNS)('CometChat SDK 4.2.0 pins and saves in $runtime on $engine', (run) => {
  let session: SdkSession<'alice' | 'bob'>;
  let alice: SdkUser;
  let bob: SdkUser;
  let notice: SdkEvent & { id: string };
  let other: SdkEvent & { id: string };

  beforeAll(async () => {
    session = await startSdkSession(run, ['alice', 'bob'], publicGroup('crew', ['bob']));
    ({ alice, bob } = session.users);
    await alice.call('sendText', 'bob', 'user', 'an older one-to-one message');
    notice = await bob.call('sendText', 'crew', 'group', 'the gate code is 4711');
    other = await alice.call('sendText', 'crew', 'group', 'bring a jacket');
  }, SESSION_START_TIMEOUT_MS);
  afterAll(async () => {
    await session?.close();
  });

  it('reads pins and saves as enabled, each capped at 100, from the app settings', async () => {
    expect(await alice.call('pinFeatures')).toEqual({
      pinMessage: true,
      saveMessage: true,
      pinConversation: true,
      pinnedMessagesLimit: 100,
      savedMessagesLimit: 100,
      pinnedConversationsLimit: 100,
    });
  });

  it("pins a group message as the group's owner; the other member hears onMessagePinned", async () => {
    const pinned = await alice.call<Pin>('pinMessage', notice.id);
    expect(pinned).toEqual({
      id: notice.id,
      pinned: true,
      pinnedBy: 'alice',
      systemPinned: false,
      saved: false,
    });
    expect(
      await bob.next((event) => event.kind === 'messagePinned' && event.id === notice.id, 'the pin event'),
    ).toMatchObject({ pinned: true, pinnedBy: 'alice' });
  });

  it("refuses a participant's pin with ERR_ACTION_NOT_ALLOWED", async () => {
    expect(await bob.call('tryPinMessage', other.id)).toEqual({ code: 'ERR_ACTION_NOT_ALLOWED' });
    expect(await bob.call<Pin>('pinMessageDetails', other.id)).toMatchObject({ pinned: false });
  });

  it("lists the group's pinned messages with setPinned, whole in one page, newest pin first", async () => {
    await alice.call('pinMessage', other.id);
    const { first, next } = await bob.call<{ first: Pin[]; next: number }>('pinSaveList', 'pinned', {
      guid: 'crew',
    });
    expect(first.map((message) => message.id)).toEqual([other.id, notice.id]);
    expect(first.every((message) => message.pinned)).toBe(true);
    expect(next).toBe(0);
  });

  it('unpins: the message is no longer pinned and the other member hears onMessageUnpinned', async () => {
    expect(await alice.call<Pin>('unpinMessage', other.id)).toMatchObject({ pinned: false, pinnedBy: null });
    await bob.next((event) => event.kind === 'messageUnpinned' && event.id === other.id, 'the unpin event');
  });

  it("saves a message for the saver alone and lists it with setSaved; the other member's list stays empty", async () => {
    expect(await bob.call<Pin>('saveMessage', other.id)).toMatchObject({ id: other.id, saved: true });
    const saved = await bob.call<{ first: Pin[]; next: number }>('pinSaveList', 'saved');
    expect(saved.first.map((message) => message.id)).toEqual([other.id]);
    expect(saved.next).toBe(0);
    expect(await alice.call<Pin>('pinMessageDetails', other.id)).toMatchObject({ saved: false });
    expect((await alice.call<{ first: Pin[] }>('pinSaveList', 'saved')).first).toEqual([]);
    expect(await bob.call<Pin>('unsaveMessage', other.id)).toMatchObject({ saved: false });
  });

  it('pins a one-to-one conversation: it comes first in the list, and setPinnedBy(me) lists it alone', async () => {
    const before = await alice.call<ConversationPin[]>('conversationPins');
    expect(before[0]?.conversationId).toBe('group_crew');
    const pinned = await alice.call<ConversationPin>('pinConversation', 'bob', 'user');
    expect(pinned).toEqual({ conversationId: 'alice_user_bob', pinned: true, pinnedBy: 'alice' });
    const after = await alice.call<ConversationPin[]>('conversationPins');
    expect(after.map((conversation) => conversation.conversationId)).toEqual([
      'alice_user_bob',
      'group_crew',
    ]);
    expect(await alice.call('conversationPins', ['me'])).toEqual([pinned]);
    const bobs = await bob.call<ConversationPin[]>('conversationPins');
    expect(bobs.every((conversation) => !conversation.pinned)).toBe(true);
    expect(await alice.call<ConversationPin>('unpinConversation', 'bob', 'user')).toMatchObject({
      pinned: false,
    });
  });
});
