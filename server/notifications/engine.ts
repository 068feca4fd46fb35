import type { Message } from '../../shared/message.js';
import type { ChatEventMap } from '../events.js';
import type { Logger } from '../log.js';
import type { SentMessageDecisions } from '../services/messages.js';
import type { ChatServices } from '../services/registry.js';
import { systemClock, type Clock } from './clock.js';
import { notificationDataOf, type NotificationData } from './data.js';
import { DeliveryWorker } from './delivery.js';
import { DEFAULT_PROVIDER_BASE_URLS } from './providers/kinds.js';
import { DigestSender } from './digest-sender.js';
import { EventNotifier } from './notify.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
import { nobodyOnline, storedReadState, type PresenceSource, type ReadStateSource } from './sources.js';
import type { Reaction } from './triggers.js';
import { decisionRowOfSent, eventOfHeard, type HeardEvent, type QueuedDecision } from './decision-queue.js';

/**
 * The notifications engine. It listens to the chat events emitted after each commit and decides
 * them in the background, one at a time, so sending a message never waits for (or fails with)
 * notifications. Each event is in the decision queue first: a sent message's row is stored in the
 * send's own transaction (the engine tells the message service what to store), other events are
 * written when heard. A worker then decides events another process heard but never decided (it
 * died), sends due email/SMS batches and delivers the outbox.
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
  /**
   * How long a process may take to decide an event it heard before any process may (it died);
   * default 10 s. Deciding twice is harmless (one of them records nothing), only wasted work.
   */
  decisionLeaseMs?: number;
}

/** Decisions waiting in memory at most; beyond, events wait in the queue for the worker. */
const MAX_BACKLOG = 100_000;
/** Events the worker claims per round from the decision queue. */
const DECISIONS_PER_ROUND = 32;
/** An event whose decision failed this often is dropped (and logged). */
const MAX_DECISION_ATTEMPTS = 5;
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
  private readonly decisionLeaseMs: number;
  private readonly listeners: Listeners;
  private readonly sentDecisions: SentMessageDecisions;
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
    this.decisionLeaseMs = options.decisionLeaseMs ?? 10_000;
    this.notifier = new EventNotifier(services, this.data, options.presence ?? nobodyOnline);
    const readState = options.readState ?? storedReadState(services.readState);
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
    this.sentDecisions = {
      // An app with no channel enabled has nothing to decide: its sends store no row.
      wanted: async (appId) => (await this.data.providers.enabledChannels(appId)).size > 0,
      rowOf: (message) => {
        const now = this.clock.now();
        return decisionRowOfSent(message, now, now + this.decisionLeaseMs);
      },
    };
    this.listeners = {
      message: (appId, message, _origin, decision) =>
        decision === undefined
          ? this.submit(appId, { kind: 'message', message })
          : this.take(appId, { kind: 'message', message }, decision),
      messageEdited: (appId, message) => this.submit(appId, { kind: 'edited', message }),
      messageDeleted: (appId, message) => this.submit(appId, { kind: 'deleted', message }),
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
    this.services.messageService.decideSentWith(this.sentDecisions);
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
    this.services.messageService.decideSentWith(undefined);
    clearInterval(this.timer);
    await this.idle();
    await this.passes;
  }

  /** A reaction was stored: whoever adds reactions to the chat service reports them here (while started). */
  reactionAdded(appId: string, message: Message, reaction: Reaction): void {
    this.submit(appId, { kind: 'reaction', message, reaction });
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

  /**
   * Writes the event to the decision queue, claimed by this process, and queues its decision here;
   * with the backlog full it is written unclaimed, for the worker (of any process) to decide. An
   * app with no channel enabled has nothing to decide, so its events are not written at all: a
   * chat without notifications pays nothing for them on every send.
   */
  private submit(appId: string, heard: HeardEvent): void {
    if (this.stopped) return;
    const now = this.clock.now();
    const here = this.backlog < MAX_BACKLOG;
    const added = this.data.providers
      .enabledChannels(appId)
      .then((channels) =>
        channels.size === 0
          ? undefined
          : this.data.decisions.add(appId, heard, now, here ? now + this.decisionLeaseMs : now),
      );
    this.queue(appId, heard, added, here);
  }

  /**
   * A sent message whose row (`id`) its send stored, claimed by this process. With the backlog
   * full it is left to the worker (of any process), which claims it when the claim ends.
   */
  private take(appId: string, heard: HeardEvent, id: number): void {
    if (this.stopped) return;
    this.queue(appId, heard, Promise.resolve(id), this.backlog < MAX_BACKLOG);
  }

  /** Queues the decision of an event once its row (`added`) is written, unless the backlog is full. */
  private queue(appId: string, heard: HeardEvent, added: Promise<number | undefined>, here: boolean): void {
    if (!here) {
      this.logger.warn('notification_backlog_full', { backlog: this.backlog });
      added.catch((error: unknown) => this.decisionFailed(appId, heard, error));
      return;
    }
    this.backlog += 1;
    this.decisions = this.decisions
      .then(() => added)
      .then(
        (id) => (id === undefined ? undefined : this.decide({ id, appId, heard, attempts: 1 })),
        (error: unknown) => this.decisionFailed(appId, heard, error),
      )
      .finally(() => {
        this.backlog -= 1;
      });
  }

  /**
   * Decides one queued event and settles it in the decision's transaction. Never rejects: one
   * event failing must not stop the ones queued behind it; it stays queued and is tried again when
   * its lease ends, up to `MAX_DECISION_ATTEMPTS`.
   */
  private async decide(queued: QueuedDecision): Promise<void> {
    const { decisions } = this.data;
    try {
      const event = eventOfHeard(queued.appId, queued.heard);
      if (event === undefined) {
        await decisions.settle(queued.id);
        return;
      }
      const { queued: pushes } = await this.notifier.notify(event, this.clock.now(), (db) =>
        decisions.settle(queued.id, db),
      );
      if (pushes > 0) this.schedulePass();
    } catch (error) {
      this.decisionFailed(queued.appId, queued.heard, error);
      if (queued.attempts >= MAX_DECISION_ATTEMPTS) await decisions.settle(queued.id).catch(() => false);
    }
  }

  private decisionFailed(appId: string, heard: HeardEvent, error: unknown): void {
    this.logger.error('notification_decision_failed', {
      appId,
      kind: heard.kind,
      messageId: heard.message.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }

  /** Decides the queued events nobody holds (heard by a process that died); true when more may wait. */
  private async decideOrphans(): Promise<boolean> {
    const now = this.clock.now();
    const claimed = await this.data.decisions.claimDue(now, DECISIONS_PER_ROUND, now + this.decisionLeaseMs);
    for (const queued of claimed) await this.decide(queued);
    return claimed.length === DECISIONS_PER_ROUND;
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
      const orphans = await this.decideOrphans();
      await this.digests.sendDue(this.clock.now());
      const { more } = await this.delivery.deliverDue();
      // A backlog (a message to a large group) is worked through pass after pass, not once a poll.
      if (orphans || more) this.schedulePass();
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
