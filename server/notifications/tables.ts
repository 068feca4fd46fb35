import type { Generated, Kysely } from 'kysely';
import type { ChatDatabase } from '../db/schema.js';

/**
 * Tables of the notifications engine. Times are epoch milliseconds (delivery timing needs more
 * than seconds); flags are integers 0/1 so both engines share one set of queries.
 */

/** The ways a notification leaves the service, each through the providers the app configures. */
export const CHANNELS = ['push', 'email', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];
/** Email and SMS send messages in batches; push sends each event. */
export type DigestChannel = Exclude<Channel, 'push'>;

/** One provider configuration (providers/registry.ts); `config` is its JSON, secrets included. */
export type NotificationProviderTable = {
  app_id: string;
  channel: Channel;
  kind: string;
  provider_id: string;
  config: string;
  is_default: number;
  updated_at: number;
};

/** A device's push token; `auth_token_hash` ties it to the session that registered it. */
export type NotificationPushTokenTable = {
  app_id: string;
  token: string;
  uid: string;
  platform: string;
  provider_id: string;
  auth_token_hash: string;
  created_at: number;
};

/** Where a user is reached by e-mail and SMS (`/notifications/v1/contact-details`). */
export type NotificationContactTable = {
  app_id: string;
  uid: string;
  email: string | null;
  phone: string | null;
  updated_at: number;
};

/** `dropped`: held through a do-not-disturb span and no longer wanted when it ended (`hold`). */
export type OutboxStatus = 'pending' | 'delivered' | 'dead' | 'dropped';

/** One webhook call to make; a row is the durable promise that it will be made (at least once). */
export type NotificationOutboxTable = {
  id: Generated<number>;
  app_id: string;
  channel: Channel;
  idempotency_key: string;
  body: string;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  completed_at: number | null;
  /** A `DeliveryHold` as JSON when the call waits out a do-not-disturb span, else null. */
  hold: string | null;
};

/** One decision about one recipient, kept so support can answer "why didn't I get notified?". */
export type NotificationLogTable = {
  id: Generated<number>;
  app_id: string;
  uid: string;
  trigger: string;
  /** Null when the decision fell before any channel was chosen (preferences, mutes). */
  channel: Channel | null;
  message_id: string | null;
  conversation_id: string;
  sender: string;
  receiver: string;
  receiver_type: 'user' | 'group';
  triggered: number;
  reason: string | null;
  outbox_id: number | null;
  created_at: number;
};

/** A message waiting in an email or SMS batch for one recipient and conversation. */
export type NotificationDigestItemTable = {
  id: Generated<number>;
  app_id: string;
  uid: string;
  channel: DigestChannel;
  conversation_id: string;
  message_id: number;
  due_at: number;
};

/**
 * A chat event waiting to be decided (decision-queue.ts): written in its change's transaction,
 * removed in the transaction that records its decision; `claimed_until` is the lease of the
 * process deciding it, after which any process may.
 */
export type NotificationDecisionTable = {
  id: Generated<number>;
  app_id: string;
  event: string;
  /** The message the event is about (services/decisions.ts `QueuedChange` says which). */
  message_id: number | null;
  attempts: number;
  claimed_until: number;
  created_at: number;
};

export type MuteTargetType = 'group' | 'oneOnOne';

/** A conversation a user muted: a group, or a one-on-one chat with another user, until a time or for good. */
export type NotificationMuteTable = {
  app_id: string;
  uid: string;
  target_type: MuteTargetType;
  target_id: string;
  until: number | null;
};

export type NotificationTimezoneTable = {
  app_id: string;
  uid: string;
  timezone: string;
  updated_at: number;
};

export type NotificationTables = {
  notification_providers: NotificationProviderTable;
  notification_push_tokens: NotificationPushTokenTable;
  notification_contacts: NotificationContactTable;
  notification_outbox: NotificationOutboxTable;
  notification_logs: NotificationLogTable;
  notification_digest_items: NotificationDigestItemTable;
  notification_mutes: NotificationMuteTable;
  notification_timezones: NotificationTimezoneTable;
  notification_decisions: NotificationDecisionTable;
};

export type NotificationDb = Kysely<ChatDatabase & NotificationTables>;

/** The chat store's connection, typed with the notification tables as well. */
export const withNotificationTables = (db: Kysely<ChatDatabase>): NotificationDb =>
  db.withTables<NotificationTables>();
