import { createHash } from 'node:crypto';
import { chunks } from './chunks.js';
import type { PushToken } from './providers/provider.js';
import type { NotificationDb } from './tables.js';

/**
 * Push tokens registered by users' devices. A token belongs to the session (auth token) that
 * registered it, so logging out of one device unregisters that device only. Auth tokens are kept
 * as SHA-256 hashes: this table never holds a credential.
 */

export interface RegisteredToken extends PushToken {
  uid: string;
  /** Epoch seconds. */
  createdAt: number;
}

export const hashAuthToken = (authToken: string): string =>
  createHash('sha256').update(authToken).digest('hex');

export class PushTokens {
  constructor(private readonly db: NotificationDb) {}

  /** Registers (or moves) a token to the user and session; a token belongs to one user at a time. */
  async register(
    appId: string,
    uid: string,
    authToken: string,
    token: PushToken,
    now: number,
  ): Promise<void> {
    const values = {
      uid,
      platform: token.platform,
      provider_id: token.providerId,
      auth_token_hash: hashAuthToken(authToken),
      created_at: now,
    };
    await this.db
      .insertInto('notification_push_tokens')
      .values({ app_id: appId, token: token.token, ...values })
      .onConflict((oc) => oc.columns(['app_id', 'token']).doUpdateSet(values))
      .execute();
  }

  /** The user's tokens; with `authToken`, only the ones that session registered. */
  async list(appId: string, uid: string, authToken?: string): Promise<RegisteredToken[]> {
    let query = this.db
      .selectFrom('notification_push_tokens')
      .selectAll()
      .where('app_id', '=', appId)
      .where('uid', '=', uid);
    if (authToken !== undefined) query = query.where('auth_token_hash', '=', hashAuthToken(authToken));
    const rows = await query.orderBy('created_at').orderBy('token').execute();
    return rows.map((row) => ({
      token: row.token,
      platform: row.platform,
      providerId: row.provider_id,
      uid: row.uid,
      createdAt: Math.floor(Number(row.created_at) / 1000),
    }));
  }

  /** Removes the user's tokens: all, the session's, or one; returns how many went. */
  async remove(appId: string, uid: string, which: { authToken?: string; token?: string }): Promise<number> {
    let query = this.db
      .deleteFrom('notification_push_tokens')
      .where('app_id', '=', appId)
      .where('uid', '=', uid);
    if (which.authToken !== undefined)
      query = query.where('auth_token_hash', '=', hashAuthToken(which.authToken));
    if (which.token !== undefined) query = query.where('token', '=', which.token);
    return Number((await query.executeTakeFirst()).numDeletedRows);
  }

  /** Drops tokens a push service called dead, whoever they belonged to. */
  async prune(appId: string, tokens: readonly string[]): Promise<void> {
    for (const part of chunks(tokens)) {
      await this.db
        .deleteFrom('notification_push_tokens')
        .where('app_id', '=', appId)
        .where('token', 'in', part)
        .execute();
    }
  }
}
