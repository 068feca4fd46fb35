import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { AuthToken } from '../../shared/users.js';
import type { AuthTokenTable, ChatDatabase } from '../db/schema.js';
import { ChatError } from '../errors.js';
import type { ChatEvents } from '../events.js';
import { nowSeconds } from '../time.js';
import { parseJsonColumn } from './json-column.js';

/** A user's session: its auth token, and what the client said of itself (`appInfo` parsed). */
export interface StoredAuthToken {
  uid: string;
  authToken: string;
  createdAt: number;
  platform: string | undefined;
  userAgent: string | undefined;
  appInfo: Record<string, unknown> | undefined;
  updatedAt: number | undefined;
}

/** The one place an auth_tokens row becomes a session. */
const authTokenOf = (row: Selectable<AuthTokenTable>): StoredAuthToken => ({
  uid: row.uid,
  authToken: row.auth_token,
  createdAt: Number(row.created_at),
  platform: row.platform ?? undefined,
  userAgent: row.user_agent ?? undefined,
  appInfo: parseJsonColumn<Record<string, unknown>>(row.app_info),
  updatedAt: row.updated_at === null ? undefined : Number(row.updated_at),
});

/** The wire shape of an auth token: the fields the client never set are left out. */
export const toAuthTokenEntity = (token: StoredAuthToken): AuthToken => ({
  uid: token.uid,
  authToken: token.authToken,
  createdAt: token.createdAt,
  ...(token.platform === undefined ? {} : { platform: token.platform }),
  ...(token.userAgent === undefined ? {} : { userAgent: token.userAgent }),
  ...(token.appInfo === undefined ? {} : { appInfo: token.appInfo }),
  ...(token.updatedAt === undefined ? {} : { updatedAt: token.updatedAt }),
});

/** What a client may say about its token: `PUT /users/{uid}/auth_tokens/{authToken}`. */
export interface AuthTokenDetails {
  platform?: string | undefined;
  userAgent?: string | undefined;
  appInfo?: Record<string, unknown> | undefined;
}

const authTokenNotFound = (uid: string): ChatError =>
  new ChatError(404, 'ERR_AUTH_TOKEN_NOT_FOUND', `The auth token does not exist for the UID ${uid}.`, {
    uid,
  });

/**
 * Auth tokens log a user in from a client; CometChat's form is `<uid>_<seconds><40 hex>`. Every
 * token removed here is announced as `sessionsEnded`, so the sockets it opened close.
 */
export class AuthTokenRepository {
  constructor(
    private readonly db: Kysely<ChatDatabase>,
    private readonly events: ChatEvents,
  ) {}

  /**
   * Returns the user's newest token, or a new one when there is none or `force` asks for one;
   * inside the caller's transaction `db` when given.
   */
  async issue(
    appId: string,
    uid: string,
    force: boolean,
    db: Kysely<ChatDatabase> = this.db,
  ): Promise<StoredAuthToken> {
    if (!force) {
      const existing = await db
        .selectFrom('auth_tokens')
        .selectAll()
        .where('app_id', '=', appId)
        .where('uid', '=', uid)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      if (existing !== undefined) return authTokenOf(existing);
    }
    const createdAt = nowSeconds();
    const row: Selectable<AuthTokenTable> = {
      app_id: appId,
      uid,
      auth_token: `${uid}_${createdAt}${randomBytes(20).toString('hex')}`,
      created_at: createdAt,
      platform: null,
      user_agent: null,
      app_info: null,
      updated_at: null,
    };
    await db.insertInto('auth_tokens').values(row).execute();
    return authTokenOf(row);
  }

  /** The session an auth token belongs to, for client API calls that carry it. */
  async find(appId: string, authToken: string): Promise<StoredAuthToken | undefined> {
    const row = await this.db
      .selectFrom('auth_tokens')
      .selectAll()
      .where('app_id', '=', appId)
      .where('auth_token', '=', authToken)
      .executeTakeFirst();
    return row === undefined ? undefined : authTokenOf(row);
  }

  /** The user's token that `matches`, for checking a socket token minted from one of them. */
  async findBySession(
    appId: string,
    uid: string,
    matches: (authToken: string) => boolean,
  ): Promise<StoredAuthToken | undefined> {
    const rows = await this.db
      .selectFrom('auth_tokens')
      .selectAll()
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .execute();
    const row = rows.find((candidate) => matches(candidate.auth_token));
    return row === undefined ? undefined : authTokenOf(row);
  }

  /** Ends the user's oldest sessions beyond the newest `keep`. */
  async prune(appId: string, uid: string, keep: number): Promise<void> {
    const stale = await this.db
      .selectFrom('auth_tokens')
      .select('auth_token')
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .orderBy('created_at', 'desc')
      .orderBy('auth_token', 'desc')
      .offset(keep)
      .limit(1000)
      .execute();
    if (stale.length === 0) return;
    const authTokens = stale.map((row) => row.auth_token);
    await this.db
      .deleteFrom('auth_tokens')
      .where('app_id', '=', appId)
      .where('auth_token', 'in', authTokens)
      .execute();
    this.events.emit('sessionsEnded', appId, { uid, authTokens });
  }

  async list(
    appId: string,
    uid: string,
    page: number,
    perPage: number,
  ): Promise<{ rows: StoredAuthToken[]; total: number }> {
    const base = this.db.selectFrom('auth_tokens').where('app_id', '=', appId).where('uid', '=', uid);
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst();
    const tokens = await base
      .selectAll()
      .orderBy('created_at')
      .orderBy('auth_token')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    return { rows: tokens.map(authTokenOf), total: Number(counted?.total ?? 0) };
  }

  /** One token of the user; another user's token answers as a missing one. */
  async get(appId: string, uid: string, authToken: string): Promise<StoredAuthToken> {
    const token = await this.find(appId, authToken);
    if (token?.uid !== uid) throw authTokenNotFound(uid);
    return token;
  }

  /** Records what the client said about itself; fields left out keep their values. */
  async describe(
    appId: string,
    uid: string,
    authToken: string,
    details: AuthTokenDetails,
  ): Promise<StoredAuthToken> {
    const current = await this.get(appId, uid, authToken);
    const next: StoredAuthToken = {
      ...current,
      platform: details.platform ?? current.platform,
      userAgent: details.userAgent ?? current.userAgent,
      appInfo: details.appInfo ?? current.appInfo,
      updatedAt: nowSeconds(),
    };
    await this.db
      .updateTable('auth_tokens')
      .set({
        platform: next.platform ?? null,
        user_agent: next.userAgent ?? null,
        app_info: next.appInfo === undefined ? null : JSON.stringify(next.appInfo),
        updated_at: next.updatedAt ?? null,
      })
      .where('app_id', '=', appId)
      .where('auth_token', '=', current.authToken)
      .execute();
    return next;
  }

  async delete(appId: string, uid: string, authToken: string): Promise<void> {
    const deleted = await this.db
      .deleteFrom('auth_tokens')
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .where('auth_token', '=', authToken)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw authTokenNotFound(uid);
    this.events.emit('sessionsEnded', appId, { uid, authTokens: [authToken] });
  }

  /** Ends every session of the user (CometChat's flush). */
  async flush(appId: string, uid: string): Promise<void> {
    await this.db.deleteFrom('auth_tokens').where('app_id', '=', appId).where('uid', '=', uid).execute();
    this.events.emit('sessionsEnded', appId, { uid });
  }
}
