import type { ChatEventMap } from '../events.js';
import type { Logger } from '../log.js';
import type { ChangeDecisions, QueuedChange } from '../services/decisions.js';
import type { ChatCore } from '../services/registry.js';
import { systemClock, type Clock } from './clock.js';
import { notificationDataOf, type NotificationData } from './data.js';
import { DeliveryWorker } from './delivery.js';
import { DEFAULT_PROVIDER_BASE_URLS } from './providers/kinds.js';
import { DigestSender } from './digest-sender.js';
import { EventNotifier } from './notify.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
import { nobodyOnline, storedReadState, type PresenceSource, type ReadStateSource } from './sources.js';
import { decisionRowOf, eventOfHeard, type ClaimedDecision, type HeardEvent } from './decision-queue.js';

/**
 * The notifications engine. Each change that feeds it stores its row in the decision queue in the
 * change's own transaction (the engine tells the services, while it runs, whether and what to
 * store: `ChangeDecisions`); the engine hears the chat events emitted after each commit and decides
 * them in the background, one at a time, so a change never waits for (or fails with)
 * notifications. A worker then decides events whose process died before deciding them, sends due
 * email/SMS batches and delivers the outbox.
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

type HeardEvents = 'message' | 'messageEdited' | 'messageDeleted' | 'reaction';
type Listeners = { [Event in HeardEvents]: (...args: ChatEventMap[Event]) => void };

/** A queued event to decide: its row, and how to get the event (from the change, or read back). */
interface PendingDecision {
  id: number;
  appId: string;
  kind: QueuedChange['kind'];
  messageId: string;
  /** Attempts begun, this one included. */
  attempts: number;
  heard(): Promise<HeardEvent | undefined>;
}

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
  private readonly changeDecisions: ChangeDecisions;
  private decisions: Promise<void> = Promise.resolve();
  private backlog = 0;
  private passes: Promise<void> = Promise.resolve();
  private passQueued = false;
  private lastPrune = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;

  constructor(
    private readonly core: ChatCore,
    private readonly logger: Logger,
    options: NotificationOptions = {},
  ) {
    this.data = notificationDataOf(core);
    this.clock = options.clock ?? systemClock;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
    this.decisionLeaseMs = options.decisionLeaseMs ?? 10_000;
    this.notifier = new EventNotifier(core, this.data, options.presence ?? nobodyOnline);
    const readState = options.readState ?? storedReadState(core.readState);
    this.digests = new DigestSender(core, this.data, readState);
    this.delivery = new DeliveryWorker(
      core,
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
    this.changeDecisions = {
      // An app with no channel enabled has nothing to decide: its changes store no row.
      wanted: async (appId) => (await this.data.providers.enabledChannels(appId)).size > 0,
      rowOf: (change) => {
        const now = this.clock.now();
        return decisionRowOf(change, now, now + this.decisionLeaseMs);
      },
    };
    // Only events whose change stored a row are decided: none other is wanted.
    const heard = (appId: string, decision: number | undefined, event: HeardEvent): void => {
      if (decision !== undefined) this.take(appId, decision, event.kind, event.message.id, async () => event);
    };
    this.listeners = {
      message: (appId, message, _origin, decision) => heard(appId, decision, { kind: 'message', message }),
      messageEdited: (appId, message, _origin, decision) =>
        heard(appId, decision, { kind: 'edited', message }),
      messageDeleted: (appId, message, _origin, decision) =>
        heard(appId, decision, { kind: 'deleted', message }),
      // The reaction event does not carry its message: it is read back, as the worker does.
      reaction: (appId, { body }, _origin, decision) => {
        if (decision === undefined) return;
        const change: QueuedChange = {
          kind: 'reaction',
          reaction: { reaction: body.reaction, by: body.reactedBy },
        };
        this.take(appId, decision, 'reaction', body.messageId, () =>
          this.readBack(appId, change, Number(body.messageId)),
        );
      },
    };
  }

  /** Starts listening to chat events and, unless polling is off, the background worker. */
  start(): this {
    if (!this.stopped) return this;
    this.stopped = false;
    const { events } = this.core;
    events.on('message', this.listeners.message);
    events.on('messageEdited', this.listeners.messageEdited);
    events.on('messageDeleted', this.listeners.messageDeleted);
    events.on('reaction', this.listeners.reaction);
    this.core.notifiedChanges.decideWith(this.changeDecisions);
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
    const { events } = this.core;
    events.off('message', this.listeners.message);
    events.off('messageEdited', this.listeners.messageEdited);
    events.off('messageDeleted', this.listeners.messageDeleted);
    events.off('reaction', this.listeners.reaction);
    this.core.notifiedChanges.decideWith(undefined);
    clearInterval(this.timer);
    await this.idle();
    await this.passes;
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
   * An event whose change stored row `id`, claimed by this process: decided here in turn. With the
   * backlog full it is left to the worker (of any process), which claims it when the claim ends.
   */
  private take(
    appId: string,
    id: number,
    kind: QueuedChange['kind'],
    messageId: string,
    heard: () => Promise<HeardEvent | undefined>,
  ): void {
    if (this.stopped) return;
    if (this.backlog >= MAX_BACKLOG) {
      this.logger.warn('notification_backlog_full', { backlog: this.backlog });
      return;
    }
    this.backlog += 1;
    this.decisions = this.decisions
      .then(() => this.decide({ id, appId, kind, messageId, attempts: 1, heard }))
      .finally(() => {
        this.backlog -= 1;
      });
  }

  /**
   * The event of a row claimed from the queue, its message read back and presented as its change
   * presented it; none when the message is gone (deleted for good since).
   */
  private async readBack(
    appId: string,
    change: QueuedChange,
    messageId: number,
  ): Promise<HeardEvent | undefined> {
    const { apps, messages } = this.core;
    const messageService = this.core.services.messages;
    const app = await apps.find(appId);
    const row = app === undefined ? undefined : await messages.find(appId, messageId);
    if (app === undefined || row === undefined) return undefined;
    const [message] = await messageService.present(app, [row]);
    if (message === undefined) return undefined;
    if (change.kind === 'message') return { kind: 'message', message };
    if (change.kind === 'reaction') return { kind: 'reaction', message, reaction: change.reaction };
    // An edit's or a deletion's row names the action message recording it, which holds the message
    // as the change left it.
    const on = message.data.entities.on;
    return on?.entityType === 'message' ? { kind: change.kind, message: on.entity } : undefined;
  }

  /**
   * Decides one queued event and settles it in the decision's transaction. Never rejects: one
   * event failing must not stop the ones queued behind it; it stays queued and is tried again when
   * its lease ends, up to `MAX_DECISION_ATTEMPTS`.
   */
  private async decide(queued: PendingDecision): Promise<void> {
    const { decisions } = this.data;
    try {
      const heard = await queued.heard();
      const event = heard === undefined ? undefined : eventOfHeard(queued.appId, heard);
      if (event === undefined) {
        await decisions.settle(queued.id);
        return;
      }
      const { queued: pushes } = await this.notifier.notify(event, this.clock.now(), (db) =>
        decisions.settle(queued.id, db),
      );
      if (pushes > 0) this.schedulePass();
    } catch (error) {
      this.logger.error('notification_decision_failed', {
        appId: queued.appId,
        kind: queued.kind,
        messageId: queued.messageId,
        error: error instanceof Error ? error.message : String(error),
      });
      if (queued.attempts >= MAX_DECISION_ATTEMPTS) await decisions.settle(queued.id).catch(() => false);
    }
  }

  /** Decides the queued events nobody holds (heard by a process that died); true when more may wait. */
  private async decideOrphans(): Promise<boolean> {
    const now = this.clock.now();
    const claimed = await this.data.decisions.claimDue(now, DECISIONS_PER_ROUND, now + this.decisionLeaseMs);
    for (const queued of claimed) await this.decide(this.pendingOf(queued));
    return claimed.length === DECISIONS_PER_ROUND;
  }

  private pendingOf({ id, appId, change, messageId, attempts }: ClaimedDecision): PendingDecision {
    const heard = () => this.readBack(appId, change, messageId);
    return { id, appId, kind: change.kind, messageId: String(messageId), attempts, heard };
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
