import type { Message } from '../../shared/message.js';
import type { NotificationSettings } from '../../shared/notification-settings.js';
import type { ChatCore } from '../services/registry.js';
import type { NotificationData } from './data.js';
import { muteTargetOf } from './audience.js';
import { decide, type Recipient } from './decide.js';
import type { LogEntry } from './logs.js';
import type { DeliveryHold, OutboxEntry } from './outbox.js';
import { pushDetails } from './payload.js';
import { SuppressReason } from './reasons.js';
import {
  messageForTemplates,
  renderNotificationText,
  usesPrivacyTemplates,
  type NameBook,
} from './render.js';
import type { PresenceSource } from './sources.js';
import type { Channel, NotificationDb } from './tables.js';
import type { DigestItem } from './digests.js';
import type { NotificationEvent } from './triggers.js';

/**
 * Decides one event for everyone it concerns and writes the outcome in one transaction: push calls
 * into the outbox, messages into their recipients' email/SMS batches, and a log entry for every
 * decision that was not a batching. The same transaction settles the event's place in the decision
 * queue; when another process settled it first, nothing is written.
 */

/** Removes the event from the decision queue within `db`; false when it was no longer there. */
export type Settle = (db: NotificationDb) => Promise<boolean>;

class DecidedElsewhere extends Error {}

/** Email and SMS carry messages only; push carries every event. */
const DIGEST_TOPICS = new Set(['messages', 'replies', 'quotedReplies']);
const DIGEST_CHANNELS = ['email', 'sms'] as const;

export interface NotifyOutcome {
  /** Push calls written to the outbox. */
  queued: number;
  /** Recipients the event was decided for. */
  decided: number;
}

export class EventNotifier {
  constructor(
    private readonly core: ChatCore,
    private readonly data: NotificationData,
    private readonly presence: PresenceSource,
  ) {}

  async notify(event: NotificationEvent, now: number, settle: Settle): Promise<NotifyOutcome> {
    const none = { queued: 0, decided: 0 };
    const channels = await this.channelsFor(event);
    const uids = channels.size === 0 ? [] : await this.data.audience.uidsOf(event);
    if (uids.length === 0) {
      await settle(this.data.db);
      return none;
    }
    const [settings, recipients, names] = await Promise.all([
      this.core.notifications.settings(event.appId),
      this.data.audience.recipients(event, uids, now),
      this.mentionNames(event),
    ]);
    const shown = messageForTemplates(event.message, names, event.reaction?.by);
    const logs: LogEntry[] = [];
    const pushes: Array<{ entry: OutboxEntry; log: LogEntry }> = [];
    const digestItems: DigestItem[] = [];
    const render = this.pushRenderer(settings, event, shown);
    for (const recipient of recipients) {
      const verdict = decide(settings, event, recipient, now);
      if (!verdict.notify) {
        logs.push(this.logEntry(event, recipient.uid, null, verdict.reason, now));
        continue;
      }
      if (channels.has('push')) {
        if (await this.presence.isOnline(event.appId, recipient.uid)) {
          logs.push(this.logEntry(event, recipient.uid, 'push', SuppressReason.USER_ONLINE, now));
        } else {
          const entry = render(recipient);
          pushes.push({
            entry:
              verdict.heldUntil === undefined
                ? entry
                : { ...entry, notBefore: verdict.heldUntil, hold: this.holdFor(event, recipient.uid) },
            log: this.logEntry(event, recipient.uid, 'push', null, now),
          });
        }
      }
      // A batch waits out the span when it falls due (DigestSender), whenever its messages came.
      for (const channel of DIGEST_CHANNELS) {
        if (!channels.has(channel) || !DIGEST_TOPICS.has(event.topic)) continue;
        digestItems.push({
          appId: event.appId,
          uid: recipient.uid,
          channel,
          conversationId: event.message.conversationId,
          messageId: Number(event.message.id),
          dueAt: now + settings.preferences[channel].intervalInSeconds * 1000,
        });
      }
    }
    const written = this.data.db.transaction().execute(async (trx) => {
      if (!(await settle(trx))) throw new DecidedElsewhere();
      const ids = await this.data.outbox.enqueue(
        pushes.map((push) => push.entry),
        now,
        trx,
      );
      // A push whose key is already in the outbox was decided before (the same event twice): no new entry.
      const sent = pushes.flatMap(({ entry, log }) => {
        const outboxId = ids.get(entry.idempotencyKey);
        return outboxId === undefined ? [] : [{ ...log, outboxId }];
      });
      await this.data.logs.record([...logs, ...sent], trx);
      await this.data.digests.add(digestItems, trx);
      return sent.length;
    });
    try {
      return { queued: await written, decided: recipients.length };
    } catch (error) {
      if (error instanceof DecidedElsewhere) return none;
      throw error;
    }
  }

  /** What a push held through a do-not-disturb span is checked against when it ends. */
  private holdFor(event: NotificationEvent, uid: string): DeliveryHold {
    return {
      uid,
      conversationId: event.message.conversationId,
      conversation: muteTargetOf(event, uid),
      mentioned: event.mentions.has(uid),
      ...(DIGEST_TOPICS.has(event.topic) ? { messageId: Number(event.message.id) } : {}),
    };
  }

  /** The enabled channels that carry this kind of event. */
  private async channelsFor(event: NotificationEvent): Promise<Set<Channel>> {
    const enabled = await this.data.providers.enabledChannels(event.appId);
    if (!DIGEST_TOPICS.has(event.topic)) {
      enabled.delete('email');
      enabled.delete('sms');
    }
    return enabled;
  }

  private async mentionNames(event: NotificationEvent): Promise<NameBook> {
    if (event.mentions.size === 0) return new Map();
    const users = await this.core.users.findMany(event.appId, event.mentions);
    return new Map([...users].map(([uid, user]) => [uid, user.name]));
  }

  /**
   * Builds each recipient's push call. Recipients differ only in which template applies (privacy,
   * mentioned, owner of the reacted message), so each variant is rendered once.
   */
  private pushRenderer(
    settings: NotificationSettings,
    event: NotificationEvent,
    shown: Message,
  ): (recipient: Recipient) => OutboxEntry {
    const variants = new Map<string, string>();
    return (recipient) => {
      const privacy = usesPrivacyTemplates(settings, recipient.preferences);
      const variant = `${privacy}|${event.mentions.has(recipient.uid)}|${event.message.sender === recipient.uid}`;
      let details = variants.get(variant);
      if (details === undefined) {
        const text = renderNotificationText(settings, privacy, event, shown, recipient.uid);
        details = JSON.stringify(pushDetails(settings, event, shown, text));
        variants.set(variant, details);
      }
      const idempotencyKey = `push:${event.trigger}:${event.occurrence}:${recipient.uid}`;
      // The details are spliced in as JSON text: one serialisation per variant, not per recipient.
      const body = `{"id":${JSON.stringify(idempotencyKey)},"appId":${JSON.stringify(event.appId)},"channel":"push","trigger":"push-notification-payload-generated","event":${JSON.stringify(event.trigger)},"data":{"to":{"uid":${JSON.stringify(recipient.uid)}},"notificationDetails":${details}}}`;
      return { appId: event.appId, channel: 'push', idempotencyKey, body };
    };
  }

  private logEntry(
    event: NotificationEvent,
    uid: string,
    channel: Channel | null,
    reason: string | null,
    now: number,
  ): LogEntry {
    const { message } = event;
    return {
      appId: event.appId,
      uid,
      trigger: event.trigger,
      channel,
      messageId: message.id,
      conversationId: message.conversationId,
      sender: event.actor,
      receiver: message.receiver,
      receiverType: message.receiverType,
      reason,
      outboxId: null,
      createdAt: now,
    };
  }
}
