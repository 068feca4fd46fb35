import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import type { EndedSessions } from '../events.js';
import type { ChangeNotices } from '../repositories/app-cache.js';
import type { CacheGenerations } from '../repositories/row-cache.js';
import type { Logger } from '../log.js';
import type { RealtimeFrame } from '../../shared/realtime.js';
import { LocalFanOut, type FanOut, type Subscriber } from './fan-out.js';

/** A process that has not renewed its presence for this long is taken for dead. */
export const PRESENCE_TTL_MS = 30_000;

/** What one process publishes for every other to deliver to its own sockets. */
type Broadcast =
  | { op: 'frame'; from: string; appId: string; uids: string[]; frame: RealtimeFrame }
  | { op: 'presence'; from: string; appId: string; role: string; frame: RealtimeFrame }
  | { op: 'close'; from: string; appId: string; ended: EndedSessions }
  | { op: 'changed'; from: string; appId: string; topic: string };

export interface RedisFanOutOptions {
  /** `redis://[:password@]host:port[/db]` */
  url: string;
  /** Starts every key and channel, so several deployments (or tests) can share one Redis. */
  prefix: string;
  logger: Logger;
  /** How long a dead process's sockets count as online; they are renewed every third of it. */
  presenceTtlMs?: number;
}

/** The URL without its password, for messages. */
export const redactRedisUrl = (url: string): string => {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'the configured Redis URL';
  }
};

/**
 * Joins the chat-service processes over Redis. Each process delivers to its own sockets (through a
 * `LocalFanOut`) at once, and publishes every frame, presence change and ended session once on one
 * pub/sub channel; the other processes deliver it to theirs. Presence lives in Redis: a sorted set
 * per user of the processes holding a socket for them, scored by when that claim expires. Each
 * process renews its claims every third of the TTL; a process that stops renewing (SIGKILL, lost
 * host) is swept by the next process whose heartbeat finds it expired, which reports the users who
 * had no other socket as gone offline. It carries the processes' change notices too, so what each
 * caches (agents, client settings) is forgotten everywhere when one changes it, and keeps the
 * counters of changes that the row caches (users, groups, memberships, blocks) check on every read.
 */
/** Change counters waiting to be read together: each field's index in the HMGET's answer. */
interface GenerationReads {
  fields: Map<string, number>;
  counts: Promise<Array<string | null>>;
}

export class RedisFanOut implements FanOut, ChangeNotices, CacheGenerations {
  private readonly local = new LocalFanOut();
  /** Names the host and pid, so an operator (or a test) can tell which process holds a user's sockets. */
  private readonly processId = `${hostname()}:${process.pid}:${randomUUID()}`;
  private readonly channel: string;
  private readonly ttlMs: number;
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private readonly expiredListeners: Array<(appId: string, uid: string) => void> = [];
  private readonly changeListeners = new Map<string, Array<(appId: string | undefined) => void>>();
  private beating: Promise<void> = Promise.resolve();
  /**
   * Counts reconnections of the command connection. It is part of every cache generation, so rows
   * cached before an outage are dropped after it even if Redis lost its counters (a restart).
   */
  private connections = 0;
  private closing: Promise<void> | undefined;
  /** Counter reads asked for in this turn of the event loop, answered by one HMGET at its end. */
  private generationReads: GenerationReads | undefined;

  private constructor(
    private readonly commands: Redis,
    private readonly subscriber: Redis,
    private readonly options: RedisFanOutOptions,
  ) {
    this.channel = `${options.prefix}fanout`;
    this.ttlMs = options.presenceTtlMs ?? PRESENCE_TTL_MS;
    subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.channel) this.deliver(text);
    });
    // Back after an outage (ioredis resubscribes): changes announced meanwhile went unheard.
    subscriber.on('ready', () => {
      for (const listeners of this.changeListeners.values())
        for (const listener of listeners) listener(undefined);
    });
    commands.on('ready', () => (this.connections += 1));
    this.heartbeat = setInterval(() => {
      this.beating = this.beating.then(() => this.beat());
    }, this.ttlMs / 3);
    this.heartbeat.unref();
  }

  /** Connects (failing with a clear message when Redis cannot be reached) and listens on the channel. */
  static async connect(options: RedisFanOutOptions): Promise<RedisFanOut> {
    const { logger } = options;
    const open = async (): Promise<Redis> => {
      const redis = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 3 });
      let reported = false;
      let firstError: Error | undefined;
      redis.on('error', (error: Error) => {
        firstError ??= error;
        // ioredis reconnects by itself; say so once per outage, not once per retry.
        if (!reported) logger.warn('redis_unreachable', { error: error.name, code: codeOf(error) });
        reported = true;
      });
      redis.on('ready', () => (reported = false));
      try {
        await redis.connect();
      } catch (error) {
        redis.disconnect();
        throw new Error(
          `Cannot reach Redis at ${redactRedisUrl(options.url)} (REDIS_URL): ${codeOf(firstError ?? error) ?? 'connection failed'}`,
        );
      }
      return redis;
    };
    const commands = await open();
    const subscriber = await open().catch((error: unknown) => {
      commands.disconnect();
      throw error;
    });
    const fanOut = new RedisFanOut(commands, subscriber, options);
    await subscriber.subscribe(fanOut.channel);
    await fanOut.beat();
    return fanOut;
  }

  /** The command connection, for the other state the processes share (rate-limit counts). */
  get redis(): Redis {
    return this.commands;
  }

  /** Answers readiness checks: Redis answers a PING. */
  async ping(): Promise<void> {
    await this.commands.ping();
  }

  async subscribe(subscriber: Subscriber): Promise<boolean> {
    if (!this.local.add(subscriber)) return false;
    const key = this.userKey(subscriber.appId, subscriber.uid);
    const now = Date.now();
    const result = await this.commands
      .multi()
      .zadd(key, now + this.ttlMs, this.processId)
      .pexpire(key, this.ttlMs)
      .sadd(this.processKey(this.processId), JSON.stringify([subscriber.appId, subscriber.uid]))
      .zremrangebyscore(key, '-inf', now)
      .zcard(key)
      .exec();
    return countOf(result?.[4]) === 1;
  }

  async unsubscribe(subscriber: Subscriber): Promise<boolean> {
    if (!this.local.remove(subscriber)) return false;
    return (await this.release(this.processId, subscriber.appId, subscriber.uid)) === 0;
  }

  publish(appId: string, uids: Iterable<string>, frame: RealtimeFrame): void {
    const audience = [...new Set(uids)];
    this.local.publish(appId, audience, frame);
    this.broadcast({ op: 'frame', from: this.processId, appId, uids: audience, frame });
  }

  publishPresence(appId: string, frame: RealtimeFrame, role: string): void {
    this.local.publishPresence(appId, frame, role);
    this.broadcast({ op: 'presence', from: this.processId, appId, role, frame });
  }

  async isOnline(appId: string, uid: string): Promise<boolean> {
    if (this.local.isOnline(appId, uid)) return true;
    return (await this.commands.zcount(this.userKey(appId, uid), Date.now(), '+inf')) > 0;
  }

  closeSessions(appId: string, ended: EndedSessions): void {
    this.local.closeSessions(appId, ended);
    this.broadcast({ op: 'close', from: this.processId, appId, ended });
  }

  onPresenceExpired(listener: (appId: string, uid: string) => void): void {
    this.expiredListeners.push(listener);
  }

  announce(topic: string, appId: string): void {
    this.broadcast({ op: 'changed', from: this.processId, appId, topic });
  }

  listen(topic: string, listener: (appId: string | undefined) => void): void {
    const listeners = this.changeListeners.get(topic);
    if (listeners === undefined) this.changeListeners.set(topic, [listener]);
    else listeners.push(listener);
  }

  /**
   * Every counter asked for in one turn of the event loop (a send's users, memberships and blocks,
   * and those of the other requests handled in that turn) is read with one HMGET, sent once the
   * turn's callbacks have run: after each request began, so no change answered before is missed.
   */
  async current(topic: string, appId: string): Promise<string> {
    const reads = (this.generationReads ??= this.readGenerations());
    const field = JSON.stringify([topic, appId]);
    let index = reads.fields.get(field);
    if (index === undefined) {
      index = reads.fields.size;
      reads.fields.set(field, index);
    }
    const counts = await reads.counts;
    return this.generation(counts[index] ?? 0);
  }

  private readGenerations(): GenerationReads {
    const fields = new Map<string, number>();
    const counts = new Promise<Array<string | null>>((resolve, reject) => {
      setImmediate(() => {
        this.generationReads = undefined;
        this.commands.hmget(this.generationsKey, ...fields.keys()).then(resolve, reject);
      });
    });
    return { fields, counts };
  }

  async bump(topic: string, appId: string): Promise<{ before: string; after: string }> {
    const connections = this.connections;
    const count = await this.commands.hincrby(this.generationsKey, JSON.stringify([topic, appId]), 1);
    return connections === this.connections
      ? { before: this.generation(count - 1), after: this.generation(count) }
      : { before: '', after: '' };
  }

  private generation(count: number | string): string {
    return `${this.connections}:${count}`;
  }

  /** Stops renewing, withdraws this process (its sockets have closed by now) and disconnects. */
  close(): Promise<void> {
    return (this.closing ??= this.shutDown());
  }

  private async shutDown(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.beating;
    try {
      await this.commands
        .multi()
        .zrem(this.processesKey, this.processId)
        .del(this.processKey(this.processId))
        .exec();
    } finally {
      await Promise.allSettled([this.subscriber.quit(), this.commands.quit()]);
    }
  }

  private get processesKey(): string {
    return `${this.options.prefix}processes`;
  }

  private get generationsKey(): string {
    return `${this.options.prefix}cache-generations`;
  }

  private processKey(processId: string): string {
    return `${this.options.prefix}process:${processId}`;
  }

  private userKey(appId: string, uid: string): string {
    return `${this.options.prefix}presence:${JSON.stringify([appId, uid])}`;
  }

  /** Drops a process's claim on a user; resolves how many processes still hold a socket for them. */
  private async release(processId: string, appId: string, uid: string): Promise<number> {
    const key = this.userKey(appId, uid);
    const result = await this.commands
      .multi()
      .zrem(key, processId)
      .srem(this.processKey(processId), JSON.stringify([appId, uid]))
      .zremrangebyscore(key, '-inf', Date.now())
      .zcard(key)
      .exec();
    return countOf(result?.[3]);
  }

  private broadcast(message: Broadcast): void {
    this.commands.publish(this.channel, JSON.stringify(message)).catch((error: unknown) =>
      this.options.logger.warn('redis_publish_failed', {
        op: message.op,
        error: error instanceof Error ? error.name : 'unknown',
      }),
    );
  }

  private deliver(text: string): void {
    let message: Broadcast;
    try {
      message = JSON.parse(text) as Broadcast;
    } catch {
      return;
    }
    if (message.from === this.processId) return;
    if (message.op === 'frame') this.local.publish(message.appId, message.uids, message.frame);
    else if (message.op === 'presence')
      this.local.publishPresence(message.appId, message.frame, message.role);
    else if (message.op === 'close') this.local.closeSessions(message.appId, message.ended);
    else if (message.op === 'changed')
      for (const listener of this.changeListeners.get(message.topic) ?? []) listener(message.appId);
  }

  /** Renews this process's claims, then sweeps processes that stopped renewing theirs. */
  private async beat(): Promise<void> {
    try {
      const now = Date.now();
      const renew = this.commands.pipeline().zadd(this.processesKey, now + this.ttlMs, this.processId);
      for (const [appId, uid] of this.local.onlineUsers()) {
        const key = this.userKey(appId, uid);
        renew.zadd(key, now + this.ttlMs, this.processId).pexpire(key, this.ttlMs);
      }
      await renew.exec();
      for (const dead of await this.commands.zrangebyscore(this.processesKey, '-inf', now)) {
        // Only the process whose ZREM removed it sweeps it, so each user is reported once.
        if ((await this.commands.zrem(this.processesKey, dead)) === 1) await this.sweep(dead);
      }
    } catch (error) {
      this.options.logger.warn('presence_heartbeat_failed', {
        error: error instanceof Error ? error.name : 'unknown',
      });
    }
  }

  private async sweep(dead: string): Promise<void> {
    for (const member of await this.commands.smembers(this.processKey(dead))) {
      const [appId, uid] = JSON.parse(member) as [string, string];
      if ((await this.release(dead, appId, uid)) === 0)
        for (const listener of this.expiredListeners) listener(appId, uid);
    }
    await this.commands.del(this.processKey(dead));
  }
}

function countOf(reply: [Error | null, unknown] | undefined): number {
  if (reply === undefined || reply[0] !== null) throw reply?.[0] ?? new Error('no reply from Redis');
  return Number(reply[1]);
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : undefined;
}
