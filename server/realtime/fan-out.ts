import type { EndedSessions } from '../events.js';
import type { RealtimeFrame } from '../../shared/realtime.js';
import { encodeFrame } from './frames.js';

/** One authenticated socket, as the fan-out sees it. */
export interface Subscriber {
  readonly appId: string;
  readonly uid: string;
  readonly deviceId: string;
  /** The session (auth token) the socket authenticated with, so revoking it closes the socket. */
  readonly authToken: string;
  send(text: string): void;
  close(code: number, reason: string): void;
}

/**
 * Delivers frames to the sockets of users. This process's sockets are all there is today; a broker
 * (Redis, NATS, PostgreSQL LISTEN) can take this interface's place to join several server processes,
 * publishing to every process and delivering to the local sockets there.
 */
export interface FanOut {
  /** Returns true when this is the user's first socket (they just came online). */
  subscribe(subscriber: Subscriber): boolean;
  /** Returns true when it was the user's last socket (they just went offline). */
  unsubscribe(subscriber: Subscriber): boolean;
  publish(appId: string, uids: Iterable<string>, frame: RealtimeFrame): void;
  /** Every subscriber of the app, for presence to everyone. */
  subscribersOf(appId: string): Iterable<Subscriber>;
  isOnline(appId: string, uid: string): boolean;
  /** Closes the sockets of sessions that ended (a broker closes them in every process). */
  closeSessions(appId: string, ended: EndedSessions): void;
}

/** Close code and reason of a socket whose session was revoked. */
export const SESSION_ENDED = { code: 4001, reason: 'session ended' } as const;

/** Fan-out inside one process: sockets by app and user. A frame is serialised once per publish. */
export class LocalFanOut implements FanOut {
  private readonly sockets = new Map<string, Map<string, Set<Subscriber>>>();

  subscribe(subscriber: Subscriber): boolean {
    let users = this.sockets.get(subscriber.appId);
    if (users === undefined) this.sockets.set(subscriber.appId, (users = new Map()));
    let own = users.get(subscriber.uid);
    if (own === undefined) users.set(subscriber.uid, (own = new Set()));
    own.add(subscriber);
    return own.size === 1;
  }

  unsubscribe(subscriber: Subscriber): boolean {
    const users = this.sockets.get(subscriber.appId);
    const own = users?.get(subscriber.uid);
    if (own === undefined || !own.delete(subscriber)) return false;
    if (own.size > 0) return false;
    users?.delete(subscriber.uid);
    return true;
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

  *subscribersOf(appId: string): Iterable<Subscriber> {
    for (const own of this.sockets.get(appId)?.values() ?? []) yield* own;
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
}
