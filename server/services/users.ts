import type { Kysely } from 'kysely';
import type { ChatDatabase } from '../db/schema.js';
import { ChatError, uidNotFound } from '../errors.js';
import type { AuthTokenDetails, AuthTokenRepository, StoredAuthToken } from '../repositories/auth-tokens.js';
import type {
  BlockRelation,
  BlockedUserQuery,
  BlockedUserRepository,
} from '../repositories/blocked-users.js';
import type { ClientSettingsRepository } from '../repositories/client-settings.js';
import type { FriendRepository } from '../repositories/friends.js';
import type { RoleRepository } from '../repositories/roles.js';
import type { NewUser, User, UserChanges, UserQuery, UserRepository } from '../repositories/users.js';

/** Sessions (auth tokens from logins) a user keeps; a login beyond this ends the oldest. */
export const MAX_SESSIONS_PER_USER = 50;

/** A page of users, with how each stands to the user who reads it (none for the app). */
export interface UserPage {
  users: User[];
  total: number;
  blocks: Map<string, BlockRelation> | undefined;
}

/** What adding each named friend did: added, or refused with the reason. */
export type FriendOutcome = { success: true; message: string } | { success: false; message: string };

/**
 * Users and what hangs on them: their roles' check, auth tokens (sessions), friends and blocks.
 * Every check a change depends on is made here, with the change; deleting or deactivating a
 * user and ending tokens announce `sessionsEnded`, so their sockets close.
 */
export class UserService {
  constructor(
    private readonly db: Kysely<ChatDatabase>,
    private readonly users: UserRepository,
    private readonly roles: RoleRepository,
    private readonly authTokens: AuthTokenRepository,
    private readonly friendships: FriendRepository,
    private readonly blocks: BlockedUserRepository,
    private readonly clientSettings: ClientSettingsRepository,
  ) {}

  /** An active user, or `ERR_UID_NOT_FOUND`. */
  get(appId: string, uid: string): Promise<User> {
    return this.users.get(appId, uid);
  }

  /** Active users by UID; the UIDs of no active user are left out. */
  findMany(appId: string, uids: Iterable<string>): Promise<Map<string, User>> {
    return this.users.findMany(appId, uids);
  }

  /** Users online now (`getOnlineUserCount`). */
  countOnline(appId: string): Promise<number> {
    return this.users.countOnline(appId);
  }

  /**
   * Creates a user whose `role` (if named) is one of the app's, with a first auth token when
   * `withAuthToken` asks: the check, the user and the token in one transaction, so a role deleted
   * meanwhile either waits for the user or refuses it.
   */
  create(
    appId: string,
    user: NewUser & { withAuthToken?: boolean | undefined },
  ): Promise<{ user: User; authToken?: StoredAuthToken }> {
    return this.db.transaction().execute(async (trx) => {
      await this.roles.requireExisting(appId, user.role, trx);
      const created = await this.users.create(appId, user, trx);
      if (user.withAuthToken !== true) return { user: created };
      return { user: created, authToken: await this.authTokens.issue(appId, created.uid, true, trx) };
    });
  }

  /** A page of users; `viewer`, a user reading it, also gets the blocks between them and each. */
  async list(appId: string, viewer: string | undefined, query: UserQuery): Promise<UserPage> {
    const { users, total } = await this.users.list(appId, query);
    const blocks =
      viewer === undefined
        ? undefined
        : await this.blocks.relations(
            appId,
            viewer,
            users.map((user) => user.uid),
          );
    return { users, total, blocks };
  }

  /**
   * One user; `viewer`, another user reading it, also gets the blocks between them (an empty
   * relation when there are none).
   */
  async read(
    appId: string,
    uid: string,
    viewer: string | undefined,
  ): Promise<{ user: User; blocks: BlockRelation | undefined }> {
    const user = await this.users.get(appId, uid);
    if (viewer === undefined || viewer === user.uid) return { user, blocks: undefined };
    const blocks = await this.blocks.relations(appId, viewer, [user.uid]);
    return { user, blocks: blocks.get(user.uid) ?? {} };
  }

  /**
   * Changes a user whose new `role` (if named) is one of the app's: the check and the change in one
   * transaction, as for a create, so a role deleted meanwhile either waits for the change (and is
   * then refused, the user having it) or refuses it.
   */
  async update(appId: string, uid: string, changes: UserChanges): Promise<User> {
    const updated = await this.db.transaction().execute(async (trx) => {
      await this.roles.requireExisting(appId, changes.role, trx);
      return this.users.update(appId, uid, changes, trx);
    });
    await this.users.forget(appId, updated.uid);
    return updated;
  }

  /** Deletes a user for good (`permanent`) or deactivates them; either ends their sessions. */
  delete(appId: string, uid: string, permanent: boolean): Promise<void> {
    return this.users.delete(appId, uid, permanent);
  }

  /** Deactivates the active users among `uids`; answers those it deactivated. */
  async deactivate(appId: string, uids: ReadonlyArray<string>): Promise<string[]> {
    const active = [...(await this.users.findMany(appId, uids)).keys()];
    for (const uid of active) await this.users.delete(appId, uid, false);
    return active;
  }

  reactivate(
    appId: string,
    uids: ReadonlyArray<string>,
  ): Promise<{ reactivated: string[]; notDeactivated: string[] }> {
    return this.users.reactivate(appId, uids);
  }

  /**
   * A login by UID with an authOnly key: a new session, the user made on the spot when the app's
   * client settings allow it. One token per login, so logging out one device leaves the others
   * signed in; sessions left open (closed tabs) are bounded, so checking a socket's token stays cheap.
   */
  async login(appId: string, uid: string, name: string): Promise<{ user: User; authToken: StoredAuthToken }> {
    let user = await this.users.find(appId, uid);
    if (user === undefined) {
      if (!(await this.clientSettings.get(appId)).createUsersOnLogin) throw uidNotFound(uid);
      user = await this.users.create(appId, { uid, name });
    }
    const authToken = await this.authTokens.issue(appId, user.uid, true);
    await this.authTokens.prune(appId, user.uid, MAX_SESSIONS_PER_USER);
    return { user, authToken };
  }

  /** The user's newest token, or a new one when there is none or `force` asks for one. */
  async issueToken(appId: string, uid: string, force: boolean): Promise<StoredAuthToken> {
    const user = await this.users.get(appId, uid);
    return this.authTokens.issue(appId, user.uid, force);
  }

  async tokens(
    appId: string,
    uid: string,
    page: number,
    perPage: number,
  ): Promise<{ rows: StoredAuthToken[]; total: number }> {
    const user = await this.users.get(appId, uid);
    return this.authTokens.list(appId, user.uid, page, perPage);
  }

  async token(appId: string, uid: string, authToken: string): Promise<StoredAuthToken> {
    const user = await this.users.get(appId, uid);
    return this.authTokens.get(appId, user.uid, authToken);
  }

  /** Records the platform, user agent and app of the device holding a token. */
  async describeToken(
    appId: string,
    uid: string,
    authToken: string,
    details: AuthTokenDetails,
  ): Promise<StoredAuthToken> {
    const user = await this.users.get(appId, uid);
    return this.authTokens.describe(appId, user.uid, authToken, details);
  }

  /** Ends one session of the user (a logout, or the app deleting the token). */
  async endSession(appId: string, uid: string, authToken: string): Promise<void> {
    const user = await this.users.get(appId, uid);
    await this.authTokens.delete(appId, user.uid, authToken);
  }

  /** Ends every session of the user; answers the user. */
  async endSessions(appId: string, uid: string): Promise<User> {
    const user = await this.users.get(appId, uid);
    await this.authTokens.flush(appId, user.uid);
    return user;
  }

  /**
   * Makes `uid` and each of `named` that exists friends of each other; answers what happened to
   * each name (a user cannot be their own friend, a missing UID is not added).
   */
  async addFriends(
    appId: string,
    uid: string,
    named: ReadonlyArray<string>,
  ): Promise<Map<string, FriendOutcome>> {
    const user = await this.users.get(appId, uid);
    const found = await this.users.findMany(appId, named);
    await this.friendships.add(
      appId,
      user.uid,
      [...found.keys()].filter((other) => other !== user.uid),
    );
    const outcome = (other: string): FriendOutcome =>
      other === user.uid
        ? { success: false, message: 'A user cannot be their own friend.' }
        : found.has(other)
          ? { success: true, message: 'Created relationship with status accepted.' }
          : { success: false, message: `The UID ${other} does not exist.` };
    return new Map(named.map((other) => [other, outcome(other)]));
  }

  /** A page of the user's friends; answers the user too. */
  async friends(
    appId: string,
    uid: string,
    query: Omit<UserQuery, 'friendsOf'>,
  ): Promise<{ user: User; friends: User[]; total: number }> {
    const user = await this.users.get(appId, uid);
    const { users, total } = await this.users.list(appId, { ...query, friendsOf: user.uid });
    return { user, friends: users, total };
  }

  /** Ends the friendships of `uid` with each of `named`, on both sides; answers the user. */
  async removeFriends(appId: string, uid: string, named: ReadonlyArray<string>): Promise<User> {
    const user = await this.users.get(appId, uid);
    await this.friendships.remove(appId, user.uid, named);
    return user;
  }

  /** `uid` blocks each of `named`; answers the distinct UIDs named. */
  async block(appId: string, uid: string, named: ReadonlyArray<string>): Promise<string[]> {
    const others = await this.othersNamedBy(appId, uid, named);
    await this.blocks.block(appId, uid, others);
    return others;
  }

  /** `uid` unblocks each of `named`; answers the distinct UIDs named. */
  async unblock(appId: string, uid: string, named: ReadonlyArray<string>): Promise<string[]> {
    const others = await this.othersNamedBy(appId, uid, named);
    await this.blocks.unblock(appId, uid, others);
    return others;
  }

  /** The distinct UIDs `uid` (an active user) names, every one an existing user other than `uid`. */
  private async othersNamedBy(appId: string, uid: string, named: ReadonlyArray<string>): Promise<string[]> {
    await this.users.get(appId, uid);
    const others = [...new Set(named)];
    if (others.includes(uid)) {
      throw new ChatError(400, 'ERR_CANNOT_BLOCK_SELF', 'blockedUids: a user cannot block themselves.', {
        field: 'blockedUids',
      });
    }
    const found = await this.users.findMany(appId, others);
    const missing = others.find((other) => !found.has(other));
    if (missing !== undefined) {
      throw new ChatError(404, 'ERR_UID_NOT_FOUND', `blockedUids: the UID ${missing} does not exist.`, {
        field: 'blockedUids',
        uid: missing,
      });
    }
    return others;
  }

  /** A page of the users `uid` blocked or was blocked by, with when each block was made. */
  async blocked(
    appId: string,
    uid: string,
    query: BlockedUserQuery,
  ): Promise<UserPage & { blocks: Map<string, BlockRelation> }> {
    await this.users.get(appId, uid);
    const { users, total } = await this.blocks.list(appId, uid, query);
    const blocks = await this.blocks.relations(
      appId,
      uid,
      users.map((user) => user.uid),
    );
    return { users, total, blocks };
  }
}
