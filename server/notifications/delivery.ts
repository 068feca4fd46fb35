import type { Logger } from '../log.js';
import type { ChatCore } from '../services/registry.js';
import type { Clock } from './clock.js';
import type { NotificationData } from './data.js';
import { mutesHonoured } from './decide.js';
import type { DeliveryHold, OutboxDelivery } from './outbox.js';
import type {
  DeliveryRecipient,
  NotificationPayload,
  ProviderKind,
  PushToken,
  SendOutcome,
} from './providers/provider.js';
import type { StoredProvider } from './providers/registry.js';
import { SuppressReason } from './reasons.js';
import { retryDelay, type RetryPolicy } from './retry.js';
import type { ReadStateSource } from './sources.js';

/**
 * Works through due outbox rows: claims a batch of them for one attempt each, hands each to the
 * app's provider for its channel — the channel-wide one (a custom webhook, an e-mail or SMS
 * service), or for push without one, every provider the recipient's registered tokens name — and
 * records the outcome: delivered, retry later with backoff, or dead letter. Tokens a push service
 * calls dead are deleted. A call held through a do-not-disturb span is first checked again: a
 * conversation muted or a message read since drops it.
 */

export interface DeliverySettings {
  retry: RetryPolicy;
  /** Per attempt. */
  timeoutMs: number;
  /** Calls in flight at once. */
  concurrency: number;
  /** Jitter source, in [0, 1). */
  random: () => number;
  /** Base URLs of hosted services (see `SendContext.baseUrls`). */
  baseUrls: Readonly<Record<string, string>>;
}

/** Calls per pass at most, so one pass cannot run for ever while new rows keep arriving. */
const ROUNDS_PER_PASS = 50;

interface Route {
  kind: ProviderKind;
  provider: StoredProvider;
  tokens: PushToken[];
}

type Recipients = Map<string, Omit<DeliveryRecipient, 'pushTokens'>>;
const recipientKey = (appId: string, uid: string): string => `${appId}\n${uid}`;

function payloadOf(body: string): NotificationPayload | undefined {
  try {
    const payload = JSON.parse(body) as Partial<NotificationPayload> | null;
    return typeof payload?.data?.to?.uid === 'string' ? (payload as NotificationPayload) : undefined;
  } catch {
    return undefined;
  }
}

export class DeliveryWorker {
  constructor(
    private readonly core: ChatCore,
    private readonly data: NotificationData,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: DeliverySettings,
    private readonly readState: ReadStateSource,
  ) {}

  /**
   * Attempts the deliveries due now, up to `ROUNDS_PER_PASS` rounds of `concurrency` calls; returns
   * how many were delivered and whether more may be due (the pass stopped at its last round). The
   * calls of a round that succeeded are marked delivered together, in one statement.
   */
  async deliverDue(): Promise<{ delivered: number; more: boolean }> {
    let delivered = 0;
    for (let round = 0; round < ROUNDS_PER_PASS; round += 1) {
      const now = this.clock.now();
      const due = await this.data.outbox.claimDue(now, this.settings.concurrency, now + this.leaseMs);
      const recipients = await this.recipientsOf(due);
      const outcomes = await Promise.all(due.map((delivery) => this.attempt(delivery, recipients)));
      const done = due.filter((_, index) => outcomes[index] === true).map((delivery) => delivery.id);
      await this.data.outbox.delivered(done, this.clock.now());
      delivered += done.length;
      if (due.length < this.settings.concurrency) return { delivered, more: false };
    }
    return { delivered, more: true };
  }

  /** A claim outlives the longest attempt, so it only lapses when the process died mid-call. */
  private get leaseMs(): number {
    return this.settings.timeoutMs * 2 + 1_000;
  }

  /** Where a delivery goes: the channel-wide provider, else (push) the providers of the recipient's tokens. */
  private async routesOf(delivery: OutboxDelivery, uid: string): Promise<Route[]> {
    const { providers, pushTokens } = this.data;
    const wide = await providers.channelWide(delivery.appId, delivery.channel);
    if (wide !== undefined) return [{ ...wide, tokens: [] }];
    if (delivery.channel !== 'push') return [];
    const routes = new Map<string, Route>();
    for (const token of await pushTokens.list(delivery.appId, uid)) {
      const found = await providers.forToken(delivery.appId, token.platform, token.providerId);
      if (found === undefined) continue;
      const key = `${found.kind.name}/${found.provider.providerId}`;
      const route = routes.get(key) ?? { ...found, tokens: [] };
      route.tokens.push({ token: token.token, platform: token.platform, providerId: token.providerId });
      routes.set(key, route);
    }
    return [...routes.values()];
  }

  /** Who each delivery of a round is for (name, stored e-mail and phone), read together per app. */
  private async recipientsOf(due: readonly OutboxDelivery[]): Promise<Recipients> {
    const byApp = new Map<string, Set<string>>();
    for (const delivery of due) {
      const uid = payloadOf(delivery.body)?.data.to.uid;
      if (uid === undefined) continue;
      const uids = byApp.get(delivery.appId) ?? new Set();
      byApp.set(delivery.appId, uids.add(uid));
    }
    const recipients: Recipients = new Map();
    for (const [appId, uids] of byApp) {
      const [users, contacts] = await Promise.all([
        this.core.users.findMany(appId, uids),
        this.data.contacts.getMany(appId, [...uids]),
      ]);
      for (const uid of uids) {
        const contact = contacts.get(uid) ?? {};
        recipients.set(recipientKey(appId, uid), {
          uid,
          name: users.get(uid)?.name,
          email: contact.email,
          phone: contact.phno,
        });
      }
    }
    return recipients;
  }

  /** Sends to every route; the first failure is the attempt's, and dead tokens are pruned either way. */
  private async send(
    delivery: OutboxDelivery,
    attempt: number,
    started: number,
    recipients: Recipients,
  ): Promise<SendOutcome> {
    const payload = payloadOf(delivery.body);
    if (payload === undefined)
      return { ok: false, retry: false, error: 'the stored payload names no recipient' };
    const uid = payload.data.to.uid;
    const routes = await this.routesOf(delivery, uid);
    if (routes.length === 0)
      return {
        ok: false,
        retry: false,
        error: `no enabled ${delivery.channel} provider reaches the recipient`,
      };
    const recipient = recipients.get(recipientKey(delivery.appId, uid)) ?? {
      uid,
      name: undefined,
      email: undefined,
      phone: undefined,
    };
    const outcomes = await Promise.all(
      routes.map(({ kind, provider, tokens }) =>
        kind
          .send(
            provider.config as never,
            {
              appId: delivery.appId,
              channel: delivery.channel,
              idempotencyKey: delivery.idempotencyKey,
              attempt,
              body: delivery.body,
              payload,
              recipient: { ...recipient, pushTokens: tokens },
            },
            { baseUrls: this.settings.baseUrls, timeoutMs: this.settings.timeoutMs, now: started },
          )
          .catch((error: unknown): SendOutcome => ({
            ok: false,
            retry: true,
            error: `${kind.name} failed: ${error instanceof Error ? error.name : 'error'}`,
          })),
      ),
    );
    const dead = outcomes.flatMap((outcome) => outcome.deadTokens ?? []);
    if (dead.length > 0) {
      await this.data.pushTokens.prune(delivery.appId, dead);
      this.logger.info('notification_tokens_pruned', { appId: delivery.appId, count: dead.length });
    }
    return outcomes.find((outcome) => !outcome.ok) ?? { ok: true };
  }

  /** Why a held call is no longer wanted now its span has ended, or undefined when it still is. */
  private async dropReason(appId: string, hold: DeliveryHold): Promise<SuppressReason | undefined> {
    const settings = await this.core.notifications.settings(appId);
    const { uid, conversation } = hold;
    const bypass = settings.preferences.bypassPreferencesForMentions && hold.mentioned;
    if (!bypass && mutesHonoured(settings, conversation.type)) {
      const muted = await this.data.userState.mutedBy(
        appId,
        conversation.type,
        conversation.id,
        [uid],
        this.clock.now(),
      );
      if (muted.has(uid)) return SuppressReason.MUTE_PREFERENCE;
    }
    if (hold.messageId === undefined) return undefined;
    const lastRead = await this.readState.lastReadMessageId(appId, uid, hold.conversationId);
    return lastRead >= hold.messageId ? SuppressReason.MESSAGES_READ : undefined;
  }

  /** True when it was delivered (for the caller to record); any other outcome is recorded here. */
  private async attempt(delivery: OutboxDelivery, recipients: Recipients): Promise<boolean> {
    const { outbox } = this.data;
    const started = this.clock.now();
    const attempt = delivery.attempts + 1;
    const fields = { appId: delivery.appId, channel: delivery.channel, outboxId: delivery.id, attempt };
    const dropped =
      delivery.hold === undefined ? undefined : await this.dropReason(delivery.appId, delivery.hold);
    if (dropped !== undefined) {
      await outbox.dropped(delivery.id, started, dropped);
      this.logger.info('notification_hold_dropped', { ...fields, reason: dropped });
      return false;
    }
    const outcome = await this.send(delivery, attempt, started, recipients);
    if (outcome.ok) return true;
    const finished = this.clock.now();
    const { error } = outcome;
    if (!outcome.retry || attempt >= this.settings.retry.maxAttempts) {
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
