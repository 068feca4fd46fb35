import type { Message } from '../../shared/message.js';
import type { ChatEventMap } from '../events.js';
import type { Logger } from '../log.js';
import type { ChatServices } from '../services/registry.js';
import { systemClock, type Clock } from './clock.js';
import { notificationDataOf, type NotificationData } from './data.js';
import { DeliveryWorker } from './delivery.js';
import { DEFAULT_PROVIDER_BASE_URLS } from './providers/kinds.js';
import { DigestSender } from './digest-sender.js';
import { EventNotifier } from './notify.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
import { nobodyOnline, storedReadState, type PresenceSource, type ReadStateSource } from './sources.js';
import {
  eventOfDelete,
  eventOfEdit,
  eventOfMessage,
  eventOfReaction,
  type NotificationEvent,
  type Reaction,
} from './triggers.js';

/**
 * The notifications engine. It listens to the chat events emitted after each commit and decides
 * them in the background, one at a time, so sending a message never waits for (or fails with)
 * notifications. A worker then sends due email/SMS batches and delivers the outbox.
 */

export interface NotificationOptions {
  clock?: Clock;
  /** Who has a connected socket (push skips them); the realtime channel passes its own. */
  presence?: PresenceSource;
  readState?: ReadStateSource;
  retry?: Partial<RetryPolicy>;
  /** Per provider call; default 5 s (CometChat asks receivers to answer within 2 s). */
  timeoutMs?: number;
  /** How often the worker looks for due work; `false` leaves it to `runDue()` (tests). Default 1 s. */
  pollIntervalMs?: number | false;
  /** Provider calls in flight at once; default 16. */
  concurrency?: number;
  /** Jitter source for retry delays, in [0, 1). */
  random?: () => number;
  /**
   * Base URLs of the hosted providers' APIs by kind (`fcm`, `apns`, `sendgrid`, `twilio`): their
   * public endpoints by default; a test or a relay points them elsewhere.
   */
  providerBaseUrls?: Readonly<Record<string, string>>;
  /** How long logs and finished deliveries are kept; default 7 days. */
  retentionMs?: number;
}

/** Decisions waiting beyond this are dropped (and logged) rather than growing memory without bound. */
const MAX_BACKLOG = 100_000;
const PRUNE_EVERY_MS = 3_600_000;
const DEFAULT_RETENTION_MS = 7 * 86_400_000;

type MessageEvents = 'message' | 'messageEdited' | 'messageDeleted';
type Listeners = { [Event in MessageEvents]: (...args: ChatEventMap[Event]) => void };

export class NotificationEngine {
  readonly data: NotificationData;
  private readonly clock: Clock;
  private readonly notifier: EventNotifier;
  private readonly digests: DigestSender;
  private readonly delivery: DeliveryWorker;
  private readonly pollIntervalMs: number | false;
  private readonly retentionMs: number;
  private readonly listeners: Listeners;
  private decisions: Promise<void> = Promise.resolve();
  private backlog = 0;
  private passes: Promise<void> = Promise.resolve();
  private passQueued = false;
  private lastPrune = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;

  constructor(
    private readonly services: ChatServices,
    private readonly logger: Logger,
    options: NotificationOptions = {},
  ) {
    this.data = notificationDataOf(services);
    this.clock = options.clock ?? systemClock;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
    this.notifier = new EventNotifier(services, this.data, options.presence ?? nobodyOnline);
    const readState = options.readState ?? storedReadState(services.store.db);
    this.digests = new DigestSender(services, this.data, readState);
    this.delivery = new DeliveryWorker(
      services,
      this.data,
      this.clock,
      logger,
      {
        retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
        timeoutMs: options.timeoutMs ?? 5_000,
        concurrency: options.concurrency ?? 16,
        random: options.random ?? Math.random,
        baseUrls: { ...DEFAULT_PROVIDER_BASE_URLS, ...options.providerBaseUrls },
      },
      readState,
    );
    this.listeners = {
      message: (appId, message) => this.submit(() => eventOfMessage(appId, message)),
      messageEdited: (appId, message) => this.submit(() => eventOfEdit(appId, message)),
      messageDeleted: (appId, message) => this.submit(() => eventOfDelete(appId, message)),
    };
  }

  /** Starts listening to chat events and, unless polling is off, the background worker. */
  start(): this {
    if (!this.stopped) return this;
    this.stopped = false;
    const { events } = this.services;
    events.on('message', this.listeners.message);
    events.on('messageEdited', this.listeners.messageEdited);
    events.on('messageDeleted', this.listeners.messageDeleted);
    if (this.pollIntervalMs !== false) {
      this.timer = setInterval(() => this.schedulePass(), this.pollIntervalMs);
      this.timer.unref();
      this.schedulePass();
    }
    return this;
  }

  /** Stops listening, finishes the decisions already taken in and the pass under way. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const { events } = this.services;
    events.off('message', this.listeners.message);
    events.off('messageEdited', this.listeners.messageEdited);
    events.off('messageDeleted', this.listeners.messageDeleted);
    clearInterval(this.timer);
    await this.idle();
    await this.passes;
  }

  /** A reaction was stored: whoever adds reactions to the chat service reports them here (while started). */
  reactionAdded(appId: string, message: Message, reaction: Reaction): void {
    this.submit(() => eventOfReaction(appId, message, reaction));
  }

  /** Resolves once every event received so far has been decided. */
  async idle(): Promise<void> {
    for (;;) {
      const current = this.decisions;
      await current;
      if (current === this.decisions) return;
    }
  }

  /** One pass of the worker now: due email/SMS batches, due deliveries, and old records pruned. */
  runDue(): Promise<void> {
    this.passes = this.passes.then(() => this.pass());
    return this.passes;
  }

  private submit(eventOf: () => NotificationEvent | undefined): void {
    if (this.stopped) return;
    if (this.backlog >= MAX_BACKLOG) {
      this.logger.warn('notification_backlog_full', { dropped: 1, backlog: this.backlog });
      return;
    }
    this.backlog += 1;
    this.decisions = this.decisions
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => this.decide(eventOf))
      .finally(() => {
        this.backlog -= 1;
      });
  }

  /** Never rejects: one event failing must not stop the ones queued behind it. */
  private async decide(eventOf: () => NotificationEvent | undefined): Promise<void> {
    let event: NotificationEvent | undefined;
    try {
      event = eventOf();
      if (event === undefined) return;
      const { queued } = await this.notifier.notify(event, this.clock.now());
      if (queued > 0) this.schedulePass();
    } catch (error) {
      this.logger.error('notification_decision_failed', {
        appId: event?.appId,
        trigger: event?.trigger,
        messageId: event?.message.id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Queues a background pass unless one is already waiting to start. */
  private schedulePass(): void {
    if (this.stopped || this.pollIntervalMs === false || this.passQueued) return;
    this.passQueued = true;
    this.passes = this.passes.then(() => {
      this.passQueued = false;
      return this.pass();
    });
  }

  private async pass(): Promise<void> {
    try {
      await this.digests.sendDue(this.clock.now());
      await this.delivery.deliverDue();
      const now = this.clock.now();
      if (now - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = now;
        await this.data.logs.prune(now - this.retentionMs);
        await this.data.outbox.prune(now - this.retentionMs);
      }
    } catch (error) {
      this.logger.error('notification_worker_failed', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
