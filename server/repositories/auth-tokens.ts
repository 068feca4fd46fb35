import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { AuthToken } from '../../shared/users.js';
import type { AuthTokenTable, ChatDatabase } from '../db/schema.js';
import { ChatError } from '../errors.js';
import type { ChatEvents } from '../events.js';
import { nowSeconds } from '../time.js';

export type AuthTokenRow = Selectable<AuthTokenTable>;

export const toAuthTokenEntity = (row: AuthTokenRow): AuthToken => ({
  uid: row.uid,
  authToken: row.auth_token,
  createdAt: row.created_at,
  ...(row.platform === null ? {} : { platform: row.platform }),
  ...(row.user_agent === null ? {} : { userAgent: row.user_agent }),
  ...(row.app_info === null ? {} : { appInfo: JSON.parse(row.app_info) as Record<string, unknown> }),
  ...(row.updated_at === null ? {} : { updatedAt: row.updated_at }),
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

  /** Returns the user's newest token, or a new one when there is none or `force` asks for one. */
  async issue(appId: string, uid: string, force: boolean): Promise<AuthTokenRow> {
    if (!force) {
      const existing = await this.db
        .selectFrom('auth_tokens')
        .selectAll()
        .where('app_id', '=', appId)
        .where('uid', '=', uid)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      if (existing !== undefined) return existing;
    }
    const createdAt = nowSeconds();
    const row: AuthTokenRow = {
      app_id: appId,
      uid,
      auth_token: `${uid}_${createdAt}${randomBytes(20).toString('hex')}`,
      created_at: createdAt,
      platform: null,
      user_agent: null,
      app_info: null,
      updated_at: null,
    };
    await this.db.insertInto('auth_tokens').values(row).execute();
    return row;
  }

  /** The session an auth token belongs to, for client API calls that carry it. */
  async find(appId: string, authToken: string): Promise<AuthTokenRow | undefined> {
    return this.db
      .selectFrom('auth_tokens')
      .selectAll()
      .where('app_id', '=', appId)
      .where('auth_token', '=', authToken)
      .executeTakeFirst();
  }

  /** The user's token that `matches`, for checking a socket token minted from one of them. */
  async findBySession(
    appId: string,
    uid: string,
    matches: (authToken: string) => boolean,
  ): Promise<AuthTokenRow | undefined> {
    const rows = await this.db
      .selectFrom('auth_tokens')
      .selectAll()
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .execute();
    return rows.find((row) => matches(row.auth_token));
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
  ): Promise<{ tokens: AuthTokenRow[]; total: number }> {
    const base = this.db.selectFrom('auth_tokens').where('app_id', '=', appId).where('uid', '=', uid);
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst();
    const tokens = await base
      .selectAll()
      .orderBy('created_at')
      .orderBy('auth_token')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    return { tokens, total: Number(counted?.total ?? 0) };
  }

  /** One token of the user; another user's token answers as a missing one. */
  async get(appId: string, uid: string, authToken: string): Promise<AuthTokenRow> {
    const row = await this.find(appId, authToken);
    if (row?.uid !== uid) throw authTokenNotFound(uid);
    return row;
  }

  /** Records what the client said about itself; fields left out keep their values. */
  async describe(
    appId: string,
    uid: string,
    authToken: string,
    details: AuthTokenDetails,
  ): Promise<AuthTokenRow> {
    const current = await this.get(appId, uid, authToken);
    const next = {
      platform: details.platform ?? current.platform,
      user_agent: details.userAgent ?? current.user_agent,
      app_info: details.appInfo === undefined ? current.app_info : JSON.stringify(details.appInfo),
      updated_at: nowSeconds(),
    };
    await this.db
      .updateTable('auth_tokens')
      .set(next)
      .where('app_id', '=', appId)
      .where('auth_token', '=', current.auth_token)
      .execute();
    return { ...current, ...next };
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
