/**
 * How processes sharing one store tell each other that what they cache changed. Alone (SQLite, or
 * PostgreSQL without Redis, which the store lock keeps to one process) nobody else needs telling.
 */
export interface ChangeNotices {
  /** Tells every other process that `topic` changed for `appId`. */
  announce(topic: string, appId: string): void;
  /**
   * Calls `listener` with the app when another process announced a change of `topic`, and with
   * `undefined` when announcements may have been missed (the connection to the others came back).
   */
  listen(topic: string, listener: (appId: string | undefined) => void): void;
}

/** One process alone: nothing to tell, nothing to hear. */
export const PROCESS_ALONE: ChangeNotices = {
  announce: () => undefined,
  listen: () => undefined,
};

/**
 * One value per app read on the hot path (agents on every message, client settings on every login
 * and form submission), kept in memory. A change through this process forgets it here and
 * announces it; an announcement from another process forgets it there, so the next read goes to the
 * store. A read that began before something was forgotten never fills the cache after it.
 */
export class AppCache<V> {
  readonly #values = new Map<string, V>();
  #forgotten = 0;

  constructor(
    private readonly topic: string,
    private readonly notices: ChangeNotices,
  ) {
    notices.listen(topic, (appId) => this.#forget(appId));
  }

  /** The app's value if it is in memory, without reading the store. */
  peek(appId: string): V | undefined {
    return this.#values.get(appId);
  }

  async get(appId: string, load: () => Promise<V>): Promise<V> {
    const cached = this.#values.get(appId);
    if (cached !== undefined) return cached;
    const before = this.#forgotten;
    const value = await load();
    if (before === this.#forgotten) this.#values.set(appId, value);
    return value;
  }

  /** After this process changed the app's value in the store (and the change committed). */
  changed(appId: string): void {
    this.#forget(appId);
    this.notices.announce(this.topic, appId);
  }

  #forget(appId: string | undefined): void {
    this.#forgotten += 1;
    if (appId === undefined) this.#values.clear();
    else this.#values.delete(appId);
  }
}
