import type { Kysely } from 'kysely';
import type { ChatDatabase } from '../db/schema.js';
import { nowSeconds } from '../time.js';

/**
 * Friendships (`/users/{uid}/friends`, the SDK's friends-only user list). CometChat's REST API adds
 * them as accepted relations: each is stored both ways, so both users list the other, and removing
 * one removes both rows.
 */
export class FriendRepository {
  constructor(private readonly db: Kysely<ChatDatabase>) {}

  /** Adds `friends` (existing users, not `uid` itself) as friends of `uid`; adding one twice changes nothing. */
  async add(appId: string, uid: string, friends: readonly string[]): Promise<void> {
    if (friends.length === 0) return;
    const createdAt = nowSeconds();
    const rows = friends.flatMap((friend) => [
      { app_id: appId, uid, friend_uid: friend, created_at: createdAt },
      { app_id: appId, uid: friend, friend_uid: uid, created_at: createdAt },
    ]);
    await this.db
      .insertInto('user_friends')
      .values(rows)
      .onConflict((conflict) => conflict.columns(['app_id', 'uid', 'friend_uid']).doNothing())
      .execute();
  }

  async remove(appId: string, uid: string, friends: readonly string[]): Promise<void> {
    if (friends.length === 0) return;
    await this.db
      .deleteFrom('user_friends')
      .where('app_id', '=', appId)
      .where((eb) =>
        eb.or([
          eb.and([eb('uid', '=', uid), eb('friend_uid', 'in', friends)]),
          eb.and([eb('friend_uid', '=', uid), eb('uid', 'in', friends)]),
        ]),
      )
      .execute();
  }
}
