import type { StorageEngine } from '../db/database.js';

/** Rows a cache keeps at most; past it rows not read lately are dropped (CLOCK, close to LRU). */
const CAPACITY = 50_000;

/**
 * Where several processes share one store: a counter per cache (topic) and app that every process
 * bumps after it changed rows of that topic (once the change committed, before it answers), and
 * that a process reads before it trusts what it cached. One read of the shared counter replaces the
 * store reads a send would otherwise make, and a change through one process is seen by the next
 * request on any other: no window in which a removed member or a blocked user can still send.
 */
export interface CacheGenerations {
  /** The counter of `topic` for the app now (any string; it only has to change when rows change). */
  current(topic: string, appId: string): Promise<string>;
  /** Bumps the counter after a change committed; answers its value before and after. */
  bump(topic: string, appId: string): Promise<{ before: string; after: string }>;
}

/** How the repositories of one process cache rows. */
export interface RowCacheOptions {
  /** Rows per cache; 0 keeps nothing, so every read goes to the store. */
  capacity: number;
  /** Set where other processes change the same store (PostgreSQL joined over Redis). */
  generations?: CacheGenerations | undefined;
}

/**
 * How the repositories may cache rows on this store. A SQLite file belongs to one server process,
 * which sees every change. Processes sharing a PostgreSQL database cache when they share counters
 * of changes (`CacheGenerations`, over Redis); without them every read goes to the store.
 */
export const rowCacheOptions = (engine: StorageEngine, generations?: CacheGenerations): RowCacheOptions =>
  engine === 'sqlite'
    ? { capacity: CAPACITY }
    : generations === undefined
      ? { capacity: 0 }
      : { capacity: CAPACITY, generations };

/**
 * Rows that every message send reads (users, groups, memberships, member counts, blocks), kept in
 * memory per app so that sending a message reads nothing from the store in the steady state.
 *
 * Correctness rests on two rules. Every change to these rows goes through the repositories, which
 * `forget` what they change (after the change commits); where other processes share the store,
 * forgetting also bumps the shared counter of the cache's topic, and every read first compares
 * that counter with the one its rows were read under, dropping the app's rows when it moved. And a
 * read that began before a change never fills the cache after it: `load` notes the cache's change
 * count before reading and drops its result when anything was forgotten meanwhile.
 */
export class RowCache<V> {
  /** Per app, its rows by key: a hit reads two maps and builds no key. */
  readonly #apps = new Map<string, Map<string, CachedRow<V>>>();
  /** Every row once, oldest first: the order `#fill` evicts in. */
  readonly #order = new Set<CachedRow<V>>();
  /** Per app, the shared counter the cached rows were read under. */
  readonly #generations = new Map<string, string>();
  readonly #capacity: number;
  readonly #shared: CacheGenerations | undefined;
  #changes = 0;

  /** `topic` names the cache's shared counter; it must differ between caches. */
  constructor(
    private readonly topic: string,
    options: RowCacheOptions,
  ) {
    this.#capacity = options.capacity;
    this.#shared = options.capacity === 0 ? undefined : options.generations;
  }

  /** The cached row, else `read`'s, which is kept unless a change happened while it was read. */
  async load(appId: string, key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    if (this.#capacity === 0) return read();
    if (this.#shared !== undefined) await this.#current(this.#shared, appId);
    const cached = this.#get(appId, key);
    if (cached !== undefined) return cached;
    const since = this.#changes;
    const value = await read();
    if (value !== undefined) this.#fill(appId, key, value, since);
    return value;
  }

  /** Like `load` for several keys: `read` is asked only for the ones not cached, in one call. */
  async loadMany(
    appId: string,
    keys: Iterable<string>,
    read: (missing: string[]) => Promise<Map<string, V>>,
  ): Promise<Map<string, V>> {
    const wanted = new Set(keys);
    if (wanted.size === 0) return new Map();
    if (this.#capacity === 0) return read([...wanted]);
    if (this.#shared !== undefined) await this.#current(this.#shared, appId);
    const found = new Map<string, V>();
    const missing: string[] = [];
    for (const key of wanted) {
      const cached = this.#get(appId, key);
      if (cached === undefined) missing.push(key);
      else found.set(key, cached);
    }
    if (missing.length === 0) return found;
    const since = this.#changes;
    for (const [key, value] of await read(missing)) {
      found.set(key, value);
      this.#fill(appId, key, value, since);
    }
    return found;
  }

  /** After a change to the row committed: drops it here and tells the other processes. */
  async forget(appId: string, key: string): Promise<void> {
    this.#changes += 1;
    const rows = this.#apps.get(appId);
    const row = rows?.get(key);
    if (row !== undefined) {
      rows?.delete(key);
      this.#order.delete(row);
    }
    await this.#bump(appId);
  }

  /** Drops every row of the app: for changes that touch rows the caller cannot name. */
  async forgetApp(appId: string): Promise<void> {
    this.#dropApp(appId);
    await this.#bump(appId);
  }

  /** A hit only marks its row as used: the eviction gives used rows a second chance (CLOCK). */
  #get(appId: string, key: string): V | undefined {
    const row = this.#apps.get(appId)?.get(key);
    if (row === undefined) return undefined;
    row.used = true;
    return row.value;
  }

  /** Drops the app's rows when another process changed some since they were read. */
  async #current(shared: CacheGenerations, appId: string): Promise<void> {
    const generation = await shared.current(this.topic, appId);
    if (this.#generations.get(appId) === generation) return;
    this.#dropApp(appId);
    this.#generations.set(appId, generation);
  }

  async #bump(appId: string): Promise<void> {
    if (this.#shared === undefined) return;
    const { before, after } = await this.#shared.bump(this.topic, appId);
    // Only this change happened since the rows were read, and it was forgotten here already.
    if (this.#generations.get(appId) === before) this.#generations.set(appId, after);
  }

  #dropApp(appId: string): void {
    this.#changes += 1;
    const rows = this.#apps.get(appId);
    if (rows === undefined) return;
    this.#apps.delete(appId);
    for (const row of rows.values()) this.#order.delete(row);
  }

  #fill(appId: string, key: string, value: V, since: number): void {
    if (since !== this.#changes) return;
    let rows = this.#apps.get(appId);
    if (rows === undefined) this.#apps.set(appId, (rows = new Map()));
    const replaced = rows.get(key);
    if (replaced !== undefined) this.#order.delete(replaced);
    const row: CachedRow<V> = { appId, key, value, used: false };
    rows.set(key, row);
    this.#order.add(row);
    if (this.#order.size > this.#capacity) this.#evictOne();
  }

  /** Drops the oldest row not used since it was last passed over; used ones move to the back. */
  #evictOne(): void {
    for (const row of this.#order) {
      this.#order.delete(row);
      if (row.used) {
        row.used = false;
        this.#order.add(row);
        continue;
      }
      const rows = this.#apps.get(row.appId);
      rows?.delete(row.key);
      if (rows?.size === 0) this.#apps.delete(row.appId);
      return;
    }
  }
}

interface CachedRow<V> {
  readonly appId: string;
  readonly key: string;
  readonly value: V;
  /** Read since the eviction last passed it. */
  used: boolean;
}
