import { z } from 'zod';
import { HttpUrl } from '../../shared/interactive.js';
import { EntityId } from '../validation.js';
import { isTimeZone } from './schedule.js';
import { CHANNELS } from './tables.js';

/** Request shapes of the notification delivery routes (webhooks, logs, mutes, time zone). */

/** CometChat's limit on webhook URLs. */
export const MAX_WEBHOOK_URL_LENGTH = 255;
/** Short secrets make the signature guessable. */
export const MIN_WEBHOOK_SECRET_LENGTH = 16;
export const MAX_LOGS_PAGE = 100;
export const MAX_MUTES_PER_REQUEST = 100;

export const WebhookChannel = z.enum(CHANNELS, { error: 'channel must be push, email or sms' });

/** Body of `PUT /notifications/v1/webhooks/{channel}`. */
export const WebhookRequest = z.strictObject({
  url: HttpUrl.max(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`),
  /** Optional when the channel already has a webhook: its secret is kept. */
  secret: z
    .string({ error: 'must be a string' })
    .min(MIN_WEBHOOK_SECRET_LENGTH, `must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters`)
    .max(256, 'must be at most 256 characters')
    .optional(),
  enabled: z.boolean({ error: 'must be true or false' }).default(true),
});

const numericId = (what: string) => z.string().regex(/^\d{1,15}$/, `${what} is a numeric id`);

/** Query of `GET /notifications/v1/logs`. */
export const LogsQuery = z.looseObject({
  uid: EntityId.optional(),
  messageId: numericId('messageId').optional(),
  channel: WebhookChannel.optional(),
  /** Entries older than this one: the `meta.next.logId` of the previous page. */
  logId: numericId('logId').optional(),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_LOGS_PAGE, `must be at most ${MAX_LOGS_PAGE}`)
    .default(20),
});

export const UidQuery = z.looseObject({ uid: EntityId });

const MuteTarget = z.strictObject({
  /** The group's GUID, or the other user's UID for a one-on-one. */
  id: EntityId,
  type: z.enum(['oneOnOne', 'group'], { error: 'type must be oneOnOne or group' }),
  /** Epoch milliseconds; muted for good without it. */
  until: z.int({ error: 'until is epoch milliseconds' }).positive('until is epoch milliseconds').optional(),
});

const conversationList = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .min(1, 'name at least one conversation')
    .max(MAX_MUTES_PER_REQUEST, `at most ${MAX_MUTES_PER_REQUEST} conversations at once`);

/** Body of `PUT /notifications/v1/preferences/mute`. */
export const MuteRequest = z.strictObject({ conversations: conversationList(MuteTarget) });
/** Body of `DELETE /notifications/v1/preferences/mute`. */
export const UnmuteRequest = z.strictObject({
  conversations: conversationList(MuteTarget.omit({ until: true })),
});

/** Body of `PATCH /notifications/v1/preferences/timezone`. */
export const TimeZoneRequest = z.strictObject({
  timezone: z
    .string({ error: 'timezone is an IANA time zone name such as Asia/Tokyo' })
    .refine(isTimeZone, 'timezone is an IANA time zone name such as Asia/Tokyo'),
});
