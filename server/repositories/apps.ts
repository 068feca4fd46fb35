import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ApiKeyScope, AppKeyTable, ChatDatabase } from '../db/schema.js';
import { BUILT_IN_ROLES } from '../../shared/roles.js';
import { keyHashOf, keyIdOf } from '../db/migrations-api-keys.js';
import type { StorageEngine } from '../db/database.js';
import { ChatError } from '../errors.js';
import { SecretBox } from '../secret-box.js';
import { nowSeconds } from '../time.js';
import { RowCache, type CacheGenerations } from './row-cache.js';

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

/** Keys whose scope a process keeps in memory. */
const KEYS_CACHED = 10_000;
/** The longest key whose hash is remembered: Parley's keys are 40 characters, CometChat's 40 too. */
const CACHED_KEY_LENGTH = 64;

/** CometChat's keys are 40 hex characters. */
export const generateKey = (): string => randomBytes(20).toString('hex');

/** An API key as the API shows it after its creation: named by its id, never by the key. */
export interface ApiKeyInfo {
  keyId: string;
  name: string;
  scope: ApiKeyScope;
  createdAt: number;
}

/** The path names a key or a key id: neither is echoed, a key being a secret. */
export const apiKeyNotFound = (): ChatError =>
  new ChatError(404, 'ERR_APIKEY_NOT_FOUND', 'apiKey: the app has no such key or key id.', {
    field: 'apiKey',
  });

const infoOf = (row: Pick<AppKeyTable, 'key_id' | 'name' | 'scope' | 'created_at'>): ApiKeyInfo => ({
  keyId: row.key_id,
  name: row.name,
  scope: row.scope,
  createdAt: Number(row.created_at),
});

/** Where a seeded key's sealed copy belongs: it opens only in its own row. */
const startKeyContext = (appId: string, keyId: string): string => `app_keys:${appId}:${keyId}`;

/**
 * Apps and their API keys. Keys are stored as their SHA-256 and looked up on every request by it,
 * so their scopes are cached per app (a `RowCache`: where processes share the store, a key revoked
 * through one is refused by the next request on any other).
 */
export class AppRepository {
  private readonly scopes: RowCache<ApiKeyScope>;
  /** The hashes of the keys presented lately: every request presents one, most the same few. */
  private readonly keyHashes = new Map<string, string>();
  private appCache: App[] | undefined;

  constructor(
    private readonly db: Kysely<ChatDatabase>,
    private readonly engine: StorageEngine,
    generations: CacheGenerations | undefined,
    private readonly secrets: SecretBox,
  ) {
    // Keys change only through this repository. A process alone on its store (SQLite's file lock,
    // PostgreSQL's exclusive advisory lock without Redis) sees every change; joined processes
    // check the shared counter first.
    this.scopes = new RowCache('apiKeys', { capacity: KEYS_CACHED, generations });
  }

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
    const keyHash = this.hashOf(apiKey);
    return this.scopes.load(appId, keyHash, async () => {
      const row = await this.db
        .selectFrom('app_keys')
        .select('scope')
        .where('app_id', '=', appId)
        .where('key_hash', '=', keyHash)
        .executeTakeFirst();
      return row?.scope;
    });
  }

  /**
   * `keyHashOf(apiKey)`, remembered for the last `KEYS_CACHED` distinct keys presented. Only
   * strings of a key's length are kept, so bogus headers cannot fill memory with 16 KB entries.
   */
  private hashOf(apiKey: string): string {
    if (apiKey.length > CACHED_KEY_LENGTH) return keyHashOf(apiKey);
    let keyHash = this.keyHashes.get(apiKey);
    if (keyHash === undefined) {
      if (this.keyHashes.size >= KEYS_CACHED) this.keyHashes.clear();
      keyHash = keyHashOf(apiKey);
      this.keyHashes.set(apiKey, keyHash);
    }
    return keyHash;
  }

  /** The app's keys, oldest first, narrowed to a scope and to names containing `searchKey`. */
  async listKeys(appId: string, filter: { scope?: ApiKeyScope; searchKey?: string }): Promise<ApiKeyInfo[]> {
    let query = this.db
      .selectFrom('app_keys')
      .select(['key_id', 'name', 'scope', 'created_at'])
      .where('app_id', '=', appId);
    if (filter.scope !== undefined) query = query.where('scope', '=', filter.scope);
    const rows = await query.orderBy('created_at').orderBy('key_id').execute();
    const needle = filter.searchKey?.toLowerCase();
    return rows.filter((row) => needle === undefined || row.name.toLowerCase().includes(needle)).map(infoOf);
  }

  /** The key named by `apiKey`: the key itself or its id. */
  async findKey(appId: string, apiKey: string): Promise<ApiKeyInfo> {
    return infoOf(await this.keyRow(appId, apiKey));
  }

  /** A new key; the only answer that holds the key itself, which is stored as its hash alone. */
  async createKey(appId: string, name: string, scope: ApiKeyScope): Promise<ApiKeyInfo & { apiKey: string }> {
    const apiKey = generateKey();
    const row = {
      app_id: appId,
      key_hash: keyHashOf(apiKey),
      key_id: keyIdOf(apiKey),
      name,
      scope,
      created_at: nowSeconds(),
      start_key: null,
    };
    // Unknown keys are never cached: nothing to forget.
    await this.db.insertInto('app_keys').values(row).execute();
    return { apiKey, ...infoOf(row) };
  }

  async updateKey(
    appId: string,
    apiKey: string,
    change: { name?: string | undefined; scope?: ApiKeyScope | undefined },
  ): Promise<ApiKeyInfo> {
    const updated = await this.db.transaction().execute(async (trx) => {
      const row = await this.keyRow(appId, apiKey, trx);
      if (change.scope === 'authOnly' && row.scope === 'fullAccess') await this.keepOneFullAccess(trx, appId);
      const next = { ...row, name: change.name ?? row.name, scope: change.scope ?? row.scope };
      await trx
        .updateTable('app_keys')
        .set({ name: next.name, scope: next.scope })
        .where('app_id', '=', appId)
        .where('key_hash', '=', row.key_hash)
        .execute();
      return next;
    });
    await this.scopes.forget(appId, updated.key_hash);
    return infoOf(updated);
  }

  /** Revokes the key: the next request that carries it is refused, on every process. */
  async deleteKey(appId: string, apiKey: string): Promise<ApiKeyInfo> {
    const deleted = await this.db.transaction().execute(async (trx) => {
      const row = await this.keyRow(appId, apiKey, trx);
      if (row.scope === 'fullAccess') await this.keepOneFullAccess(trx, appId);
      await trx
        .deleteFrom('app_keys')
        .where('app_id', '=', appId)
        .where('key_hash', '=', row.key_hash)
        .execute();
      return row;
    });
    await this.scopes.forget(appId, deleted.key_hash);
    return infoOf(deleted);
  }

  /** Keys stored in the clear by the migration to hashed keys: sealed before anything is served. */
  async sealStartKeys(): Promise<void> {
    const rows = await this.db
      .selectFrom('app_keys')
      .select(['app_id', 'key_hash', 'key_id', 'start_key'])
      .where('start_key', 'is not', null)
      .execute();
    for (const row of rows) {
      if (row.start_key === null || SecretBox.isSealed(row.start_key)) continue;
      await this.db
        .updateTable('app_keys')
        .set({ start_key: this.secrets.seal(row.start_key, startKeyContext(row.app_id, row.key_id)) })
        .where('app_id', '=', row.app_id)
        .where('key_hash', '=', row.key_hash)
        .execute();
    }
  }

  private async keyRow(
    appId: string,
    apiKey: string,
    db: Kysely<ChatDatabase> = this.db,
  ): Promise<AppKeyTable> {
    const row = await db
      .selectFrom('app_keys')
      .selectAll()
      .where('app_id', '=', appId)
      .where((eb) => eb.or([eb('key_hash', '=', keyHashOf(apiKey)), eb('key_id', '=', apiKey)]))
      .executeTakeFirst();
    if (row === undefined) throw apiKeyNotFound();
    return row;
  }

  /** Taking away the app's last fullAccess key would lock its server API out until a restart. */
  private async keepOneFullAccess(db: Kysely<ChatDatabase>, appId: string): Promise<void> {
    // Two revocations at once must not both see the other's key: the app's row serializes them
    // (SQLite's write transactions are serialized already).
    if (this.engine === 'postgres') {
      await db.selectFrom('apps').select('app_id').where('app_id', '=', appId).forUpdate().execute();
    }
    const { count } = await db
      .selectFrom('app_keys')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('app_id', '=', appId)
      .where('scope', '=', 'fullAccess')
      .executeTakeFirstOrThrow();
    if (Number(count) <= 1) {
      throw new ChatError(
        409,
        'ERR_LAST_FULL_ACCESS_KEY',
        "This is the app's only fullAccess key: create another before revoking or narrowing it.",
        { scope: 'fullAccess' },
      );
    }
  }

  /**
   * Creates the app or updates its name/region, and makes sure it has the given keys (or one key
   * of each scope, generated, when none are given and it has none it can show). Returns the keys in
   * force. Seeded keys keep a sealed copy, so a later start can hand them to the operator again.
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
      await trx
        .insertInto('roles')
        .values(
          BUILT_IN_ROLES.map(({ role, name }) => ({
            app_id: seed.appId,
            role,
            name,
            description: null,
            metadata: null,
            settings: null,
            created_at: now,
            updated_at: null,
          })),
        )
        .onConflict((oc) => oc.columns(['app_id', 'role']).doNothing())
        .execute();
      const generated = { apiKey: false, authKey: false };
      const store = async (scope: ApiKeyScope, key: string): Promise<void> => {
        const keyId = keyIdOf(key);
        const startKey = this.secrets.seal(key, startKeyContext(seed.appId, keyId));
        await trx
          .insertInto('app_keys')
          .values({
            app_id: seed.appId,
            key_hash: keyHashOf(key),
            key_id: keyId,
            name: `${scope} key`,
            scope,
            created_at: now,
            start_key: startKey,
          })
          .onConflict((oc) => oc.columns(['app_id', 'key_hash']).doUpdateSet({ scope, start_key: startKey }))
          .execute();
      };
      const keyOf = async (scope: ApiKeyScope, wanted: string | undefined): Promise<string> => {
        if (wanted !== undefined) {
          await store(scope, wanted);
          return wanted;
        }
        const current = await trx
          .selectFrom('app_keys')
          .select(['key_id', 'start_key'])
          .where('app_id', '=', seed.appId)
          .where('scope', '=', scope)
          .where('start_key', 'is not', null)
          .orderBy('created_at')
          .executeTakeFirst();
        // Sealed by `sealStartKeys` before the start seeds its app.
        if (current?.start_key != null) {
          return this.secrets.open(current.start_key, startKeyContext(seed.appId, current.key_id));
        }
        const created = generateKey();
        await store(scope, created);
        generated[scope === 'fullAccess' ? 'apiKey' : 'authKey'] = true;
        return created;
      };
      const apiKey = await keyOf('fullAccess', seed.apiKey);
      const authKey = await keyOf('authOnly', seed.authKey);
      return { apiKey, authKey, generated };
    });
    this.appCache = undefined;
    await this.scopes.forgetApp(seed.appId);
    const app = await this.find(seed.appId);
    if (app === undefined) throw new Error(`app ${seed.appId} vanished while it was being created`);
    return { app, ...result };
  }
}
