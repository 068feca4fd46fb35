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

/**
 * Group administration through CometChat's unmodified SDK 4.2.0: Alice owns the group, Bob and
 * Carol are participants. Each step builds on the one before, as a chat app's would.
 */
describe.each(SDK_RUNS)('group administration through the SDK in $runtime on $engine', (run) => {
  const guid = 'crew';
  let session: SdkSession<'alice' | 'bob' | 'carol'>;
  let users: SdkSession<'alice' | 'bob' | 'carol'>['users'];

  /** The `group` event with this action on `uid` that `user` hears. */
  const hears = (user: SdkUser, action: string, on: string) =>
    user.next(
      (event: SdkEvent) => event.kind === 'group' && event.action === action && event.on === on,
      `${action} of ${on}`,
    );
  /** The SDK's rejection, whose JSON names CometChat's error code. */
  const refusal = async (promise: Promise<unknown>): Promise<string> =>
    promise.then(
      () => 'resolved',
      (error: Error) => (JSON.parse(error.message) as { code: string }).code,
    );

  beforeAll(async () => {
    session = await startSdkSession(run, ['alice', 'bob', 'carol'], publicGroup(guid, ['bob', 'carol']));
    users = session.users;
  }, SESSION_START_TIMEOUT_MS);
  afterAll(async () => {
    await session?.close();
  });

  it('updateGroupMemberScope: the owner makes Bob a moderator, and every member hears it', async () => {
    expect(await users.alice.call('updateGroupMemberScope', guid, 'bob', 'moderator')).toBe(true);
    for (const user of [users.bob, users.carol]) {
      expect(await hears(user, 'scopeChanged', 'bob')).toMatchObject({
        by: 'alice',
        guid,
        newScope: 'moderator',
        oldScope: 'participant',
      });
    }
    expect(await users.carol.call('groupMembers', guid)).toEqual({
      alice: 'admin',
      bob: 'moderator',
      carol: 'participant',
    });
  });

  it("updateGroupMemberScope: a participant's is refused with ERR_GROUP_NO_MODERATOR_SCOPE", async () => {
    expect(await refusal(users.carol.call('updateGroupMemberScope', guid, 'bob', 'participant'))).toBe(
      'ERR_GROUP_NO_MODERATOR_SCOPE',
    );
    expect((await users.alice.call<Record<string, string>>('groupMembers', guid)).bob).toBe('moderator');
  });

  it('kickGroupMember: the moderator kicks Carol, who hears it, and may join again', async () => {
    expect(await users.bob.call('kickGroupMember', guid, 'carol')).toBe(true);
    expect(await hears(users.carol, 'kicked', 'carol')).toMatchObject({ by: 'bob', guid });
    expect(await hears(users.alice, 'kicked', 'carol')).toMatchObject({ by: 'bob' });
    expect(await users.carol.call('joinGroup', guid)).toBe(true);
    await hears(users.alice, 'joined', 'carol');
  });

  it('kickGroupMember: a participant kicking the owner is refused', async () => {
    expect(await refusal(users.carol.call('kickGroupMember', guid, 'alice'))).toBe(
      'ERR_GROUP_NO_MODERATOR_SCOPE',
    );
    expect(await refusal(users.bob.call('kickGroupMember', guid, 'alice'))).toBe(
      'ERR_GROUP_NO_SCOPE_CLEARANCE',
    );
  });

  it('banGroupMember and BannedMembersRequest: Carol is banned, listed, and cannot rejoin or be re-added', async () => {
    expect(await users.bob.call('banGroupMember', guid, 'carol')).toBe(true);
    expect(await hears(users.carol, 'banned', 'carol')).toMatchObject({ by: 'bob' });
    expect(await users.alice.call('bannedMembers', guid)).toEqual(['carol']);
    expect(await refusal(users.carol.call('joinGroup', guid))).toBe('ERR_BANNED_GROUPMEMBER');
    expect(
      await users.alice.call('addMembersToGroup', guid, [{ uid: 'carol', scope: 'participant' }], []),
    ).toEqual({ carol: expect.stringContaining('banned') });
    expect(await refusal(users.carol.call('bannedMembers', guid))).toBe('ERR_GROUP_NOT_JOINED');
  });

  it('unbanGroupMember and addMembersToGroup: Carol is unbanned, then added back by the owner', async () => {
    expect(await users.alice.call('unbanGroupMember', guid, 'carol')).toBe(true);
    await hears(users.bob, 'unbanned', 'carol');
    expect(await users.alice.call('bannedMembers', guid)).toEqual([]);
    expect(
      await users.alice.call('addMembersToGroup', guid, [{ uid: 'carol', scope: 'participant' }], []),
    ).toEqual({ carol: 'success' });
    expect(await hears(users.carol, 'added', 'carol')).toMatchObject({ by: 'alice' });
  });

  it('addMembersToGroup: a moderator is refused, adding nobody', async () => {
    expect(
      await refusal(users.bob.call('addMembersToGroup', guid, [{ uid: 'carol', scope: 'admin' }], [])),
    ).toBe('ERR_GROUP_NO_ADMIN_SCOPE');
  });

  it('updateGroup: the moderator renames the group; a participant cannot', async () => {
    expect(await users.bob.call('renameGroup', guid, 'Crew, renamed')).toEqual({
      name: 'Crew, renamed',
      owner: 'alice',
    });
    expect(await refusal(users.carol.call('renameGroup', guid, 'Mine'))).toBe('ERR_GROUP_NO_MODERATOR_SCOPE');
    expect(await users.carol.call('getGroup', guid)).toMatchObject({ name: 'Crew, renamed' });
  });

  it('transferGroupOwnership: the owner cannot leave until Bob owns the group; then she can', async () => {
    expect(await refusal(users.alice.call('leaveGroup', guid))).toBe('ERR_GROUP_NO_CLEARANCE');
    expect(await refusal(users.bob.call('transferGroupOwnership', guid, 'bob'))).toBe(
      'ERR_GROUP_NO_CLEARANCE',
    );
    expect(await users.alice.call('transferGroupOwnership', guid, 'bob')).toContain('bob');
    expect(await hears(users.carol, 'scopeChanged', 'bob')).toMatchObject({ newScope: 'admin' });
    expect(await users.bob.call('getGroup', guid)).toMatchObject({ owner: 'bob', scope: 'admin' });
    expect(await users.alice.call('leaveGroup', guid)).toBe(true);
    await hears(users.carol, 'left', 'alice');
  });

  it('deleteGroup: a participant cannot; the new owner can, and the group is gone', async () => {
    expect(await refusal(users.carol.call('deleteGroup', guid))).toBe('ERR_GROUP_NO_ADMIN_SCOPE');
    expect(await users.bob.call('deleteGroup', guid)).toBe(true);
    expect(await refusal(users.carol.call('getGroup', guid))).toBe('ERR_GUID_NOT_FOUND');
  });
});
