import type { EndedSessions } from '../events.js';
import type { PresenceSubscription, RealtimeFrame } from '../../shared/realtime.js';
import { encodeFrame } from './frames.js';

/** One authenticated socket, as the fan-out sees it. */
export interface Subscriber {
  readonly appId: string;
  readonly uid: string;
  readonly deviceId: string;
  /** The session (auth token) the socket authenticated with, so revoking it closes the socket. */
  readonly authToken: string;
  /** Whose presence the socket hears: everyone, users of `roles`, or nobody. */
  readonly presence: PresenceSubscription;
  readonly roles: readonly string[];
  send(text: string): void;
  close(code: number, reason: string): void;
}

/**
 * Delivers frames to the sockets of users. `LocalFanOut` is one process's sockets; `RedisFanOut`
 * joins several processes, publishing to every process and delivering to the local sockets there.
 */
export interface FanOut {
  /** Resolves true when this is the user's first socket anywhere (they just came online). */
  subscribe(subscriber: Subscriber): Promise<boolean>;
  /** Resolves true when it was the user's last socket anywhere (they just went offline). */
  unsubscribe(subscriber: Subscriber): Promise<boolean>;
  publish(appId: string, uids: Iterable<string>, frame: RealtimeFrame): void;
  /** A user's presence frame to every socket of the app that watches users of `role`, but the user's own. */
  publishPresence(appId: string, frame: RealtimeFrame, role: string): void;
  isOnline(appId: string, uid: string): boolean | Promise<boolean>;
  /** Closes the sockets of sessions that ended, in every process. */
  closeSessions(appId: string, ended: EndedSessions): void;
  /**
   * Calls `listener` for users who went offline because the process holding their sockets died
   * without closing them (only a fan-out shared by several processes notices that).
   */
  onPresenceExpired(listener: (appId: string, uid: string) => void): void;
  close(): Promise<void>;
}

/** Close code and reason of a socket whose session was revoked. */
export const SESSION_ENDED = { code: 4001, reason: 'session ended' } as const;

/** Fan-out inside one process: sockets by app and user. A frame is serialised once per publish. */
export class LocalFanOut implements FanOut {
  private readonly sockets = new Map<string, Map<string, Set<Subscriber>>>();

  /** Synchronous, for `RedisFanOut`: true when it is the user's first socket in this process. */
  add(subscriber: Subscriber): boolean {
    let users = this.sockets.get(subscriber.appId);
    if (users === undefined) this.sockets.set(subscriber.appId, (users = new Map()));
    let own = users.get(subscriber.uid);
    if (own === undefined) users.set(subscriber.uid, (own = new Set()));
    own.add(subscriber);
    return own.size === 1;
  }

  /** Synchronous, for `RedisFanOut`: true when it was the user's last socket in this process. */
  remove(subscriber: Subscriber): boolean {
    const users = this.sockets.get(subscriber.appId);
    const own = users?.get(subscriber.uid);
    if (own === undefined || !own.delete(subscriber)) return false;
    if (own.size > 0) return false;
    users?.delete(subscriber.uid);
    return true;
  }

  subscribe(subscriber: Subscriber): Promise<boolean> {
    return Promise.resolve(this.add(subscriber));
  }

  unsubscribe(subscriber: Subscriber): Promise<boolean> {
    return Promise.resolve(this.remove(subscriber));
  }

  publish(appId: string, uids: Iterable<string>, frame: RealtimeFrame): void {
    const users = this.sockets.get(appId);
    if (users === undefined) return;
    let text: string | undefined;
    for (const uid of new Set(uids)) {
      const own = users.get(uid);
      if (own === undefined) continue;
      text ??= encodeFrame(frame);
      for (const subscriber of own) subscriber.send(text);
    }
  }

  publishPresence(appId: string, frame: RealtimeFrame, role: string): void {
    let text: string | undefined;
    for (const [uid, own] of this.sockets.get(appId) ?? []) {
      if (uid === frame.sender) continue;
      for (const watcher of own) {
        const watches =
          watcher.presence === 'ALL_USERS' || (watcher.presence === 'ROLES' && watcher.roles.includes(role));
        if (watches) watcher.send((text ??= encodeFrame(frame)));
      }
    }
  }

  /** Users with a socket in this process, for presence heartbeats. */
  *onlineUsers(): Iterable<[appId: string, uid: string]> {
    for (const [appId, users] of this.sockets) for (const uid of users.keys()) yield [appId, uid];
  }

  isOnline(appId: string, uid: string): boolean {
    return (this.sockets.get(appId)?.get(uid)?.size ?? 0) > 0;
  }

  closeSessions(appId: string, ended: EndedSessions): void {
    const tokens = ended.authTokens === undefined ? undefined : new Set(ended.authTokens);
    for (const subscriber of [...(this.sockets.get(appId)?.get(ended.uid) ?? [])]) {
      if (tokens === undefined || tokens.has(subscriber.authToken))
        subscriber.close(SESSION_ENDED.code, SESSION_ENDED.reason);
    }
  }

  onPresenceExpired(): void {
    // One process sees every socket close; nothing here can expire.
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
