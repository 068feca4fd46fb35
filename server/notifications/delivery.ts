import type { Logger } from '../log.js';
import type { Clock } from './clock.js';
import type { NotificationData } from './data.js';
import { postWebhook } from './deliver.js';
import type { OutboxDelivery } from './outbox.js';
import { retryDelay, type RetryPolicy } from './retry.js';

/**
 * Works through due outbox rows: claims a batch of them for one attempt each, calls the webhook, and records the
 * outcome — delivered, retry later with backoff, or dead letter after the last attempt.
 */

export interface DeliverySettings {
  retry: RetryPolicy;
  /** Per attempt. */
  timeoutMs: number;
  /** Calls in flight at once. */
  concurrency: number;
  /** Jitter source, in [0, 1). */
  random: () => number;
}

/** Calls per pass at most, so one pass cannot run for ever while new rows keep arriving. */
const ROUNDS_PER_PASS = 50;

export class DeliveryWorker {
  constructor(
    private readonly data: NotificationData,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: DeliverySettings,
  ) {}

  /** Attempts every delivery due now; returns how many were delivered. */
  async deliverDue(): Promise<number> {
    let delivered = 0;
    for (let round = 0; round < ROUNDS_PER_PASS; round += 1) {
      const now = this.clock.now();
      const due = await this.data.outbox.claimDue(now, this.settings.concurrency, now + this.leaseMs);
      const outcomes = await Promise.all(due.map((delivery) => this.attempt(delivery)));
      delivered += outcomes.filter(Boolean).length;
      if (due.length < this.settings.concurrency) break;
    }
    return delivered;
  }

  /** A claim outlives the longest attempt, so it only lapses when the process died mid-call. */
  private get leaseMs(): number {
    return this.settings.timeoutMs * 2 + 1_000;
  }

  private async attempt(delivery: OutboxDelivery): Promise<boolean> {
    const { outbox, webhooks } = this.data;
    const started = this.clock.now();
    const attempt = delivery.attempts + 1;
    const fields = { appId: delivery.appId, channel: delivery.channel, outboxId: delivery.id, attempt };
    const webhook = (await webhooks.all(delivery.appId)).get(delivery.channel);
    if (webhook === undefined || !webhook.enabled) {
      await outbox.dead(delivery.id, started, 'the webhook is disabled');
      this.logger.warn('notification_dead_lettered', { ...fields, error: 'webhook disabled' });
      return false;
    }
    const error = await postWebhook(
      webhook,
      delivery,
      attempt,
      Math.floor(started / 1000),
      this.settings.timeoutMs,
    );
    const finished = this.clock.now();
    if (error === undefined) {
      await outbox.delivered(delivery.id, finished);
      return true;
    }
    if (attempt >= this.settings.retry.maxAttempts) {
      await outbox.dead(delivery.id, finished, error);
      this.logger.warn('notification_dead_lettered', { ...fields, error });
      return false;
    }
    const delay = retryDelay(this.settings.retry, attempt, this.settings.random);
    await outbox.retryLater(delivery.id, finished + delay, error);
    this.logger.info('notification_delivery_failed', { ...fields, error, retryInMs: delay });
    return false;
  }
}
