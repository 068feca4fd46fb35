import type { Kysely, Migration } from 'kysely';
import type { StorageEngine } from '../db/database.js';
import type { Channel, NotificationDb } from './tables.js';

/** Adds the auto-increment `id`, the one column that differs per engine. */
const serialIdOn = (engine: StorageEngine) => (table: ReturnType<Kysely<unknown>['schema']['createTable']>) =>
  table.addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
    engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
  );

/** The notification tables (see tables.ts); like the chat core, only auto-increment ids differ per engine. */
export function notificationTablesMigration(engine: StorageEngine): Migration {
  const serialId = serialIdOn(engine);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('notification_webhooks')
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_webhooks_pk', ['app_id', 'channel'])
        .execute();
      await serialId(db.schema.createTable('notification_outbox'))
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('completed_at', 'bigint')
        .addUniqueConstraint('notification_outbox_key', ['app_id', 'idempotency_key'])
        .execute();
      await db.schema
        .createIndex('notification_outbox_due')
        .on('notification_outbox')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await serialId(db.schema.createTable('notification_logs'))
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('uid', 'text', (c) => c.notNull())
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('channel', 'text')
        .addColumn('message_id', 'text')
        .addColumn('conversation_id', 'text', (c) => c.notNull())
        .addColumn('sender', 'text', (c) => c.notNull())
        .addColumn('receiver', 'text', (c) => c.notNull())
        .addColumn('receiver_type', 'text', (c) => c.notNull())
        .addColumn('triggered', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('outbox_id', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notification_logs_by_user')
        .on('notification_logs')
        .columns(['app_id', 'uid', 'id'])
        .execute();
      // Daily caps count what a user was sent on a channel in the last day.
      await db.schema
        .createIndex('notification_logs_by_channel_time')
        .on('notification_logs')
        .columns(['app_id', 'uid', 'channel', 'created_at'])
        .execute();
      await db.schema
        .createIndex('notification_logs_by_time')
        .on('notification_logs')
        .column('created_at')
        .execute();
      await serialId(db.schema.createTable('notification_digest_items'))
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('uid', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text', (c) => c.notNull())
        .addColumn('message_id', 'bigint', (c) => c.notNull())
        .addColumn('due_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notification_digest_items_due')
        .on('notification_digest_items')
        .column('due_at')
        .execute();
      await db.schema
        .createIndex('notification_digest_items_by_batch')
        .on('notification_digest_items')
        .columns(['app_id', 'uid', 'channel', 'conversation_id'])
        .execute();
      await db.schema
        .createTable('notification_mutes')
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('uid', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('until', 'bigint')
        .addPrimaryKeyConstraint('notification_mutes_pk', ['app_id', 'uid', 'target_type', 'target_id'])
        .execute();
      await db.schema
        .createIndex('notification_mutes_by_target')
        .on('notification_mutes')
        .columns(['app_id', 'target_type', 'target_id'])
        .execute();
      await db.schema
        .createTable('notification_timezones')
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('uid', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_timezones_pk', ['app_id', 'uid'])
        .execute();
    },
  };
}

/**
 * Providers replace the per-channel webhooks (issue #20): each stored webhook becomes its channel's
 * `custom` provider, keeping its URL, signing secret and state; then the webhook table goes.
 */
export const notificationProvidersMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('notification_providers')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('provider_id', 'text', (c) => c.notNull())
      .addColumn('config', 'text', (c) => c.notNull())
      .addColumn('is_default', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_providers_pk', ['app_id', 'channel', 'kind', 'provider_id'])
      .execute();
    await db.schema
      .createTable('notification_push_tokens')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('platform', 'text', (c) => c.notNull())
      .addColumn('provider_id', 'text', (c) => c.notNull())
      .addColumn('auth_token_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_push_tokens_pk', ['app_id', 'token'])
      .execute();
    await db.schema
      .createIndex('notification_push_tokens_by_user')
      .on('notification_push_tokens')
      .columns(['app_id', 'uid'])
      .execute();
    await db.schema
      .createTable('notification_contacts')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('phone', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_contacts_pk', ['app_id', 'uid'])
      .execute();
    const typed = db as unknown as NotificationDb;
    const webhooks = await (db as Kysely<{ notification_webhooks: LegacyWebhook }>)
      .selectFrom('notification_webhooks')
      .selectAll()
      .execute();
    for (const webhook of webhooks) {
      const stored: Record<string, unknown> = {
        isEnabled: Number(webhook.enabled) === 1,
        ...webhookAuthOf(webhook.url),
        signingSecret: webhook.secret,
      };
      if (webhook.channel === 'email') stored.useStoredEmailID = false;
      if (webhook.channel === 'sms') stored.useStoredPhNo = false;
      await typed
        .insertInto('notification_providers')
        .values({
          app_id: webhook.app_id,
          channel: webhook.channel,
          kind: 'custom',
          provider_id: 'default',
          config: JSON.stringify(stored),
          is_default: 1,
          updated_at: Number(webhook.updated_at),
        })
        .execute();
    }
    await db.schema.dropTable('notification_webhooks').execute();
  },
};

/** Outbox rows held through a do-not-disturb span say what to check again when it ends. */
export const notificationHoldsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('notification_outbox').addColumn('hold', 'text').execute();
  },
};

/** Chat events waiting to be decided, so one a process heard but did not decide before dying is not lost. */
export function notificationDecisionsMigration(engine: StorageEngine): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await serialIdOn(engine)(db.schema.createTable('notification_decisions'))
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('claimed_until', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notification_decisions_due')
        .on('notification_decisions')
        .column('claimed_until')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('notification_decisions').execute();
    },
  };
}

/**
 * A sent message's decision-queue row is written in the message's own statement, before the
 * message has an id to put in its event: the row names the message here instead (null for the
 * events written after their change, which carry their message whole).
 */
export const notificationDecisionMessagesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('notification_decisions').addColumn('message_id', 'bigint').execute();
  },
};

/**
 * The old routes took any http(s) URL, credentials included, and answered it whole. fetch refuses
 * such a URL, so those webhooks never delivered; the credentials become the provider's basic auth
 * (the password write-only, sealed at start) and the URL answered no longer carries them.
 */
function webhookAuthOf(url: string): Record<string, unknown> {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { webhookURL: url, useBasicAuth: false };
  const decoded = (part: string): string => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const auth = {
    useBasicAuth: true,
    basicAuthUsername: decoded(parsed.username),
    ...(parsed.password === '' ? {} : { basicAuthPassword: decoded(parsed.password) }),
  };
  parsed.username = '';
  parsed.password = '';
  return { webhookURL: parsed.toString(), ...auth };
}

interface LegacyWebhook {
  app_id: string;
  channel: Channel;
  url: string;
  secret: string;
  enabled: number;
  updated_at: number;
}
