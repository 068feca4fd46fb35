/** The part of the Web Storage API the client uses; absent under SSR or when storage is blocked. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface StoredSession {
  uid: string;
  authToken: string;
}

/** `parley:<appId>:session`: namespaced so several apps (and the host page's own keys) never collide. */
export function sessionKey(appId: string): string {
  return `parley:${appId}:session`;
}

/** Storage the page allows, looked up only when asked (never at module load, so SSR imports are safe). */
export function browserStorage(): KeyValueStorage | undefined {
  try {
    return (globalThis as { localStorage?: KeyValueStorage }).localStorage ?? undefined;
  } catch {
    // Reading localStorage throws when the page's storage is disabled.
    return undefined;
  }
}

/** The auth token of the logged-in user, kept across reloads; never in a cookie. */
export class SessionStore {
  constructor(
    private readonly storage: KeyValueStorage | undefined,
    private readonly key: string,
  ) {}

  read(): StoredSession | undefined {
    try {
      const raw = this.storage?.getItem(this.key);
      if (!raw) return undefined;
      const parsed = JSON.parse(raw) as Partial<StoredSession>;
      if (typeof parsed.uid === 'string' && typeof parsed.authToken === 'string') {
        return { uid: parsed.uid, authToken: parsed.authToken };
      }
    } catch {
      // Unreadable or foreign content under our key: treat as no session.
    }
    return undefined;
  }

  write(session: StoredSession): void {
    try {
      this.storage?.setItem(this.key, JSON.stringify(session));
    } catch {
      // Quota or privacy mode: the session then lasts as long as the page.
    }
  }

  clear(): void {
    try {
      this.storage?.removeItem(this.key);
    } catch {
      // Nothing stored that could be removed.
    }
  }
}
