import type { StorageEngine } from '../db/database.js';

/** Rows a cache keeps at most; past it the least recently used rows are dropped. */
const CAPACITY = 50_000;

/**
 * How many rows a repository may cache on this engine. A SQLite file belongs to one server process,
 * which sees every change. Several processes may share one PostgreSQL database, and nothing tells
 * one of another's changes, so there every read goes to the store.
 */
export const rowCacheCapacity = (engine: StorageEngine): number => (engine === 'sqlite' ? CAPACITY : 0);

/**
 * Rows that every message send reads (users, groups, memberships, member counts), kept in memory
 * per app so that sending a message reads nothing from the store in the steady state.
 *
 * Correctness rests on two rules. Only this process changes the store (see `rowCacheCapacity`),
 * and every change to these rows goes through the repositories, which `forget` what they change
 * (after the change commits). And a read that began before a change never fills the cache after
 * it: `load` notes the cache's change count before reading and drops its result when anything was
 * forgotten meanwhile.
 */
export class RowCache<V> {
  readonly #entries = new Map<string, V>();
  #changes = 0;

  /** `capacity` bounds memory; 0 keeps nothing, so every read goes to the store. */
  constructor(private readonly capacity: number) {}

  get(appId: string, key: string): V | undefined {
    const entry = cacheKey(appId, key);
    const value = this.#entries.get(entry);
    if (value !== undefined) {
      // Re-inserting keeps the map in least-recently-used order for eviction.
      this.#entries.delete(entry);
      this.#entries.set(entry, value);
    }
    return value;
  }

  /** The cached row, else `read`'s, which is kept unless a change happened while it was read. */
  async load(appId: string, key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.get(appId, key);
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
    const found = new Map<string, V>();
    const missing: string[] = [];
    for (const key of new Set(keys)) {
      const cached = this.get(appId, key);
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

  forget(appId: string, key: string): void {
    this.#changes += 1;
    this.#entries.delete(cacheKey(appId, key));
  }

  /** Drops every row of the app: for changes that touch rows the caller cannot name. */
  forgetApp(appId: string): void {
    this.#changes += 1;
    const prefix = cacheKey(appId, '');
    for (const entry of this.#entries.keys()) if (entry.startsWith(prefix)) this.#entries.delete(entry);
  }

  #fill(appId: string, key: string, value: V, since: number): void {
    if (since !== this.#changes || this.capacity === 0) return;
    this.#entries.set(cacheKey(appId, key), value);
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }
}

/** NUL cannot occur in an app id (it comes from a header, a host name or a command line). */
const cacheKey = (appId: string, key: string): string => `${appId}\u0000${key}`;
