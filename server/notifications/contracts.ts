import { z } from 'zod';
import { EntityId } from '../validation.js';
import { isTimeZone } from './schedule.js';
import { CHANNELS } from './tables.js';

/** Request shapes of the notification delivery routes (logs, mutes, time zone, tokens, contact details). */

export const MAX_LOGS_PAGE = 100;
export const MAX_MUTES_PER_REQUEST = 100;

export const ChannelName = z.enum(CHANNELS, { error: 'channel must be push, email or sms' });

const numericId = (what: string) => z.string().regex(/^\d{1,15}$/, `${what} is a numeric id`);

/** Query of `GET /notifications/v1/logs`. */
export const LogsQuery = z.looseObject({
  uid: EntityId.optional(),
  messageId: numericId('messageId').optional(),
  channel: ChannelName.optional(),
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
/** The server names the user; a client is its session's user. */
export const OptionalUidQuery = z.looseObject({ uid: EntityId.optional() });

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

const TokenText = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(4096, 'must be at most 4096 characters');

/**
 * Body of `POST /notifications/push/v1/tokens`: the platform, and the token in the field the
 * platform's provider kind names (`fcmToken`, `deviceToken`, `voipToken`, …), checked by the route.
 */
export const RegisterTokenRequest = z.looseObject({
  platform: z.string({ error: 'platform names the push platform, e.g. fcm_web' }).min(1).max(64),
  providerId: z
    .string({ error: 'must be a string' })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and -, at most 64')
    .default('default'),
  timezone: z.string({ error: 'must be a string' }).max(64).optional(),
  /** The server API's: the session (its device) the token is registered for. */
  authToken: z.string({ error: 'must be a string' }).max(512).optional(),
});
export const TokenValue = TokenText;

/** Query of the token routes: `all=true` reaches every token of the user, not only the session's. */
export const TokensQuery = z.looseObject({
  uid: EntityId.optional(),
  all: z.enum(['true', 'false'], { error: 'all is true or false' }).optional(),
  authToken: z.string().max(512).optional(),
});
/** Body of the server's token deletions: the session whose tokens go. */
export const TokensBody = z.looseObject({
  authToken: z.string({ error: 'must be a string' }).max(512).optional(),
});

/** Body of `PATCH /notifications/v1/contact-details`; `null` removes a detail. */
export const ContactDetailsRequest = z.strictObject({
  email: z
    .email({ error: 'must be an e-mail address' })
    .max(254, 'must be at most 254 characters')
    .nullable()
    .optional(),
  phno: z
    .string({ error: 'must be a string' })
    .regex(/^\+[1-9][0-9]{6,14}$/, 'must be a phone number with country code, such as +14155550100')
    .nullable()
    .optional(),
});

/** Body of `POST /notifications/v1/test`: a test notification to one user on one channel. */
export const TestNotificationRequest = z.strictObject({ channel: ChannelName, uid: EntityId });
