/** A minimal typed event emitter; `on` returns the function that removes the listener. */
export class Emitter<Events extends object> {
  readonly #listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  on<K extends keyof Events>(type: K, listener: (payload: Events[K]) => void): () => void {
    let set = this.#listeners.get(type);
    if (!set) this.#listeners.set(type, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  emit<K extends keyof Events>(type: K, payload: Events[K]): void {
    for (const listener of [...(this.#listeners.get(type) ?? [])]) {
      // One failing listener must not keep the others (or the socket loop) from running.
      try {
        (listener as (payload: Events[K]) => void)(payload);
      } catch (error) {
        const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
        if (report) report(error);
        else console.error(error);
      }
    }
  }
}
