import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SdkUser } from './sdk/drivers.js';
import {
  SDK_RUNS,
  SESSION_START_TIMEOUT_MS,
  publicGroup,
  startSdkSession,
  type SdkSession,
} from './sdk/sessions.js';

/**
 * The ten calls of CometChat's official SDK 4.2.0 `CometChatNotifications` (over TLS), unmodified:
 * preferences, push tokens, muted conversations and the time zone, each read back through the
 * server API, in Node on SQLite and in Chromium on PostgreSQL.
 */
describe.each(SDK_RUNS)('CometChat SDK 4.2.0 CometChatNotifications in $runtime on $engine', (run) => {
  let session: SdkSession<'alice' | 'bob'>;
  let bob: SdkUser;

  beforeAll(async () => {
    session = await startSdkSession(run, ['alice', 'bob'], publicGroup('hikers', ['bob']));
    ({ bob } = session.users);
  }, SESSION_START_TIMEOUT_MS);
  afterAll(async () => {
    await session?.close();
  });

  it('fetches, updates and resets the user’s notification preferences', async () => {
    const initial = await bob.call('fetchNotificationPreferences');
    // MessagesOptions.SUBSCRIBE_TO_MENTIONS is 3, DNDOptions.ENABLED is 2 in the SDK.
    expect(await bob.call('updateNotificationPreferences', 3, true)).toMatchObject({
      groupMessages: 3,
      dnd: 2,
    });
    const stored = await session.server.serverApi('GET', '/notifications/v1/preferences?uid=bob');
    expect(stored.body.data).toMatchObject({
      groupPreferences: { groupMessages: 3 },
      mutePreferences: { dnd: 2 },
    });
    expect(await bob.call('fetchNotificationPreferences')).toMatchObject({ groupMessages: 3, dnd: 2 });
    expect(await bob.call('resetNotificationPreferences')).toEqual(initial);
  });

  it('registers and unregisters the push token of its session', async () => {
    expect(await bob.call('registerPushToken', 'sdk-fcm-token', 'default')).toBe(
      'Push token registered successfully.',
    );
    const listed = await session.server.serverApi('GET', '/notifications/push/v1/tokens?uid=bob');
    expect(listed.body.data).toEqual([
      {
        token: 'sdk-fcm-token',
        platform: 'fcm_web',
        providerId: 'default',
        uid: 'bob',
        createdAt: expect.any(Number),
      },
    ]);
    expect(await bob.call('unregisterPushToken')).toBe('Push token unregistered successfully.');
    expect(
      (await session.server.serverApi('GET', '/notifications/push/v1/tokens?uid=bob')).body.data,
    ).toEqual([]);
  });

  it('mutes, lists and unmutes conversations', async () => {
    const until = Date.now() + 3_600_000;
    const muted = [
      { id: 'alice', type: 'oneOnOne' },
      { id: 'hikers', type: 'group', until },
    ];
    expect(await bob.call('muteConversations', muted)).toBe('Conversations muted successfully.');
    expect(await bob.call('mutedConversations')).toEqual([
      { id: 'hikers', type: 'group', until },
      { id: 'alice', type: 'oneOnOne', until: null },
    ]);
    expect(await bob.call('unmuteConversations', [{ id: 'alice', type: 'oneOnOne' }])).toBe(
      'Conversations unmuted successfully.',
    );
    expect(await bob.call('mutedConversations')).toEqual([{ id: 'hikers', type: 'group', until }]);
  });

  it('updates and reads the time zone the schedule is read in', async () => {
    expect(await bob.call('updateTimezone', 'Asia/Tokyo')).toBe('Timezone updated successfully.');
    expect(await bob.call('getTimezone')).toEqual({ success: true, timezone: 'Asia/Tokyo' });
  });
});
