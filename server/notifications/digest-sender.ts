import type { Message } from '../../shared/message.js';
import type { NotificationSettings } from '../../shared/notification-settings.js';
import type { ChatCore } from '../services/registry.js';
import type { NotificationData } from './data.js';
import type { DigestBatch } from './digests.js';
import type { LogEntry } from './logs.js';
import { presentTo } from '../services/private-metadata.js';
import { messageObjectFor } from './payload.js';
import { mutesHonoured, scheduleOf } from './decide.js';
import { SuppressReason } from './reasons.js';
import { messageForTemplates, renderDigestText, renderMessageLine, usesPrivacyTemplates } from './render.js';
import { scheduledDndEnd } from './schedule.js';
import type { ReadStateSource } from './sources.js';
import { mentionsIn } from './triggers.js';

/**
 * Sends due email and SMS batches: the batch's messages that still exist (and, with
 * `notifyForUnreadOnly`, that the user has not read), unless the user already had `maxPerDay`
 * notifications on the channel in the last 24 hours, or `maxPerDayPerConversation` from this
 * conversation, or has muted the conversation since. A batch falling due inside the user's
 * do-not-disturb schedule waits, whole, until the span ends, and is then judged as above.
 */

const DAY_MS = 86_400_000;
const BATCHES_PER_QUERY = 50;

export class DigestSender {
  constructor(
    private readonly core: ChatCore,
    private readonly data: NotificationData,
    private readonly readState: ReadStateSource,
  ) {}

  /** Sends every batch due at `now`; returns how many went into the outbox. */
  async sendDue(now: number): Promise<number> {
    let sent = 0;
    for (;;) {
      const batches = await this.data.digests.due(now, BATCHES_PER_QUERY);
      for (const batch of batches) sent += (await this.send(batch, now)) ? 1 : 0;
      if (batches.length < BATCHES_PER_QUERY) return sent;
    }
  }

  private async send(batch: DigestBatch, now: number): Promise<boolean> {
    const { appId, uid, channel, conversationId } = batch;
    const [settings, preferences, timeZone] = await Promise.all([
      this.core.notifications.settings(appId),
      this.data.audience.preferences(appId, [uid]).then((found) => found.get(uid)),
      this.data.userState.timeZone(appId, uid),
    ]);
    const spanEnd = scheduledDndEnd(scheduleOf(settings, preferences), now, timeZone);
    if (spanEnd !== undefined && spanEnd > now) {
      await this.data.digests.postpone(batch, spanEnd);
      return false;
    }
    const ids = await this.data.digests.take(batch);
    if (ids.length === 0) return false;
    const [enabled, app, user] = await Promise.all([
      this.data.providers.enabledChannels(appId),
      this.core.apps.find(appId),
      this.core.users.find(appId, uid),
    ]);
    if (!enabled.has(channel) || app === undefined || user === undefined) return false;
    const digest = settings.preferences[channel];
    const rows = [...(await this.core.messages.findMany(appId, ids)).values()]
      .filter((row) => row.deletedAt === undefined)
      .sort((a, b) => Number(a.id) - Number(b.id));
    let messages = await this.core.services.messages.present(app, rows);
    const latest = messages[messages.length - 1];
    if (latest === undefined) return false;
    const log = (reason: string | null, outboxId: number | null): LogEntry => ({
      appId,
      uid,
      trigger: 'after_message',
      channel,
      messageId: latest.id,
      conversationId,
      sender: latest.sender,
      receiver: latest.receiver,
      receiverType: latest.receiverType,
      reason,
      outboxId,
      createdAt: now,
    });
    if (await this.mutedSince(batch, settings, messages, now)) {
      await this.data.logs.record([log(SuppressReason.MUTE_PREFERENCE, null)]);
      return false;
    }
    if (digest.notifyForUnreadOnly) {
      const lastRead = await this.readState.lastReadMessageId(appId, uid, conversationId);
      messages = messages.filter((message) => Number(message.id) > lastRead);
      if (messages.length === 0) {
        await this.data.logs.record([log(SuppressReason.MESSAGES_READ, null)]);
        return false;
      }
    }
    const since = now - DAY_MS;
    const [sentToday, sentFromHere] = await Promise.all([
      this.data.logs.countSent(appId, uid, channel, since),
      this.data.logs.countSent(appId, uid, channel, since, conversationId),
    ]);
    if (sentToday >= digest.maxPerDay || sentFromHere >= digest.maxPerDayPerConversation) {
      await this.data.logs.record([log(SuppressReason.QUOTA_PREFERENCE, null)]);
      return false;
    }
    const privacy = usesPrivacyTemplates(settings, preferences);
    const mentioned = new Set(messages.flatMap((message) => [...mentionsIn(message)]));
    const names = new Map(
      [...(await this.core.users.findMany(appId, mentioned))].map(([id, row]) => [id, row.name]),
    );
    const shown = messages.map((message) => messageForTemplates(message, names));
    const text = renderDigestText(settings, privacy, channel, shown);
    const first = messages[0] as Message;
    const idempotencyKey = `${channel}:${conversationId}:${uid}:${first.id}-${latest.id}`;
    const receiver = latest.data.entities.receiver;
    const body = JSON.stringify({
      id: idempotencyKey,
      appId,
      channel,
      trigger: `${channel}-notification-payload-generated`,
      // Mailed to `uid`: other users' metadata["@private"] stays out of the sender details.
      data: presentTo(
        {
          to: { uid, name: user.name },
          conversationId,
          ...(channel === 'email' ? { subject: text } : { smsContent: text }),
          senderDetails: shown[shown.length - 1]?.data.entities.sender?.entity,
          ...(receiver?.entityType === 'group' ? { groupDetails: receiver.entity } : {}),
          messages: messages.map((message, index) => {
            const line = {
              id: message.id,
              sender: message.data.entities.sender?.entity,
              message: renderMessageLine(settings, privacy, shown[index] ?? message),
              sentAt: message.sentAt,
            };
            const object = messageObjectFor(message, digest);
            return object === undefined ? line : { ...line, messageObject: object };
          }),
        },
        uid,
      ),
    });
    await this.data.db.transaction().execute(async (trx) => {
      const queued = await this.data.outbox.enqueue([{ appId, channel, idempotencyKey, body }], now, trx);
      const outboxId = queued.get(idempotencyKey);
      if (outboxId !== undefined) await this.data.logs.record([log(null, outboxId)], trx);
    });
    return true;
  }

  /**
   * Whether the user has muted the conversation (where the app lets them) since the messages were
   * decided; a batch mentioning them by name goes out anyway with `bypassPreferencesForMentions`.
   */
  private async mutedSince(
    batch: DigestBatch,
    settings: NotificationSettings,
    messages: readonly Message[],
    now: number,
  ): Promise<boolean> {
    const latest = messages[messages.length - 1];
    if (latest === undefined) return false;
    const { uid } = batch;
    const group = latest.receiverType === 'group';
    if (!mutesHonoured(settings, group ? 'group' : 'oneOnOne')) return false;
    if (settings.preferences.bypassPreferencesForMentions && messages.some((m) => mentionsIn(m).has(uid)))
      return false;
    const target = group
      ? latest.receiver.toLowerCase()
      : latest.sender === uid
        ? latest.receiver
        : latest.sender;
    const muted = await this.data.userState.mutedBy(
      batch.appId,
      group ? 'group' : 'oneOnOne',
      target.toLowerCase(),
      [batch.uid],
      now,
    );
    return muted.has(batch.uid);
  }
}
