import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ApiKeyScope, ChatDatabase } from '../db/schema.js';
import { nowSeconds } from '../time.js';

export interface App {
  appId: string;
  name: string;
  region: string;
  createdAt: number;
}

export interface AppSeed {
  appId: string;
  name?: string;
  region?: string;
  /** fullAccess key for the server REST API. */
  apiKey?: string;
  /** authOnly key for client login. */
  authKey?: string;
}

export interface SeededApp {
  app: App;
  apiKey: string;
  authKey: string;
  /** Which keys this call created, the only ones a start may print in full (once). */
  generated: { apiKey: boolean; authKey: boolean };
}

export const DEFAULT_REGION = 'us';

/** CometChat's keys are 40 hex characters. */
export const generateKey = (): string => randomBytes(20).toString('hex');

/**
 * Apps and their API keys. Keys are looked up on every request, so they are cached per app and
 * the cache is dropped whenever this repository changes them.
 */
export class AppRepository {
  private readonly keyCache = new Map<string, Map<string, ApiKeyScope>>();
  private appCache: App[] | undefined;

  constructor(private readonly db: Kysely<ChatDatabase>) {}

  async list(): Promise<App[]> {
    if (this.appCache === undefined) {
      const rows = await this.db
        .selectFrom('apps')
        .selectAll()
        .orderBy('created_at')
        .orderBy('app_id')
        .execute();
      this.appCache = rows.map((row) => ({
        appId: row.app_id,
        name: row.name,
        region: row.region,
        createdAt: row.created_at,
      }));
    }
    return this.appCache;
  }

  async find(appId: string): Promise<App | undefined> {
    return (await this.list()).find((app) => app.appId === appId);
  }

  /** The scope of `apiKey` in `appId`, or undefined when the app has no such key. */
  async keyScope(appId: string, apiKey: string): Promise<ApiKeyScope | undefined> {
    let keys = this.keyCache.get(appId);
    if (keys === undefined) {
      const rows = await this.db
        .selectFrom('api_keys')
        .select(['api_key', 'scope'])
        .where('app_id', '=', appId)
        .execute();
      keys = new Map(rows.map((row) => [row.api_key, row.scope]));
      this.keyCache.set(appId, keys);
    }
    return keys.get(apiKey);
  }

  /**
   * Creates the app or updates its name/region, and makes sure it has the given keys (or one key
   * of each scope, generated, when none are given and it has none yet). Returns the keys in force.
   */
  async ensure(seed: AppSeed): Promise<SeededApp> {
    const now = nowSeconds();
    const result = await this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('apps')
        .selectAll()
        .where('app_id', '=', seed.appId)
        .executeTakeFirst();
      if (existing === undefined) {
        await trx
          .insertInto('apps')
          .values({
            app_id: seed.appId,
            name: seed.name ?? seed.appId,
            region: seed.region ?? DEFAULT_REGION,
            created_at: now,
          })
          .execute();
      } else if (seed.name !== undefined || seed.region !== undefined) {
        await trx
          .updateTable('apps')
          .set({ name: seed.name ?? existing.name, region: seed.region ?? existing.region })
          .where('app_id', '=', seed.appId)
          .execute();
      }
      const generated = { apiKey: false, authKey: false };
      const keyOf = async (scope: ApiKeyScope, wanted: string | undefined): Promise<string> => {
        if (wanted !== undefined) {
          await trx
            .insertInto('api_keys')
            .values({ app_id: seed.appId, api_key: wanted, name: `${scope} key`, scope, created_at: now })
            .onConflict((oc) => oc.columns(['app_id', 'api_key']).doUpdateSet({ scope }))
            .execute();
          return wanted;
        }
        const current = await trx
          .selectFrom('api_keys')
          .select('api_key')
          .where('app_id', '=', seed.appId)
          .where('scope', '=', scope)
          .orderBy('created_at')
          .executeTakeFirst();
        if (current !== undefined) return current.api_key;
        const created = generateKey();
        await trx
          .insertInto('api_keys')
          .values({ app_id: seed.appId, api_key: created, name: `${scope} key`, scope, created_at: now })
          .execute();
        generated[scope === 'fullAccess' ? 'apiKey' : 'authKey'] = true;
        return created;
      };
      const apiKey = await keyOf('fullAccess', seed.apiKey);
      const authKey = await keyOf('authOnly', seed.authKey);
      return { apiKey, authKey, generated };
    });
    this.appCache = undefined;
    this.keyCache.delete(seed.appId);
    const app = await this.find(seed.appId);
    if (app === undefined) throw new Error(`app ${seed.appId} vanished while it was being created`);
    return { app, ...result };
  }
}
