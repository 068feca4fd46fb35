import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { secretKeyCanaryMigration } from './secret-key-canary.js';
import type { StorageEngine } from './database.js';
import { clientProtocolMigration } from './migrations-client.js';
import { surfaceMigration } from './migrations-surface.js';
import { userRelationsMigration } from './migrations-user-relations.js';
import { agentTakeoversMigration } from '../agents/migration.js';
import {
  notificationHoldsMigration,
  notificationDecisionsMigration,
  notificationDecisionMessagesMigration,
  notificationProvidersMigration,
  notificationTablesMigration,
} from '../notifications/migration.js';
import { threadsAndReactionsMigration } from './migrations-threads.js';
import { mediaMigration, mediaUploadClaimsMigration, mediaUploadsMigration } from '../media/migration.js';
import { messageMuidsMigration } from './migrations-muids.js';
import { partialMessageIndexesMigration } from './migrations-message-indexes.js';
import { pinsMigration } from './migrations-pins.js';
import { hashedApiKeysMigration } from './migrations-api-keys.js';
import { rolesMigration } from './migrations-roles.js';
import { flagReasonsMigration } from './migrations-flag-reasons.js';
import { messageReviewsMigration } from './migrations-message-reviews.js';
import { threadSubscriptionsMigration } from './migrations-thread-subscriptions.js';
import { heldMessageIdsMigration, moderationRulesMigration } from './migrations-moderation-rules.js';

/**
 * The one set of migrations, for SQLite and PostgreSQL alike. Only the auto-increment message id
 * differs between the engines; everything else is portable DDL.
 */
function chatCore(engine: StorageEngine): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('apps')
        .addColumn('app_id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.app_id').onDelete('cascade'))
        .addColumn('api_key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('api_keys_pk', ['app_id', 'api_key'])
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('uid', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('avatar', 'text')
        .addColumn('link', 'text')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('status_message', 'text')
        .addColumn('metadata', 'text')
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint')
        .addColumn('deactivated_at', 'bigint')
        .addPrimaryKeyConstraint('users_pk', ['app_id', 'uid'])
        .execute();
      await db.schema
        .createTable('auth_tokens')
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('auth_token', 'text', (c) => c.notNull())
        .addColumn('uid', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('auth_tokens_pk', ['app_id', 'auth_token'])
        .execute();
      await db.schema
        .createIndex('auth_tokens_by_user')
        .on('auth_tokens')
        .columns(['app_id', 'uid'])
        .execute();
      await db.schema
        .createTable('groups')
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('guid', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('icon', 'text')
        .addColumn('description', 'text')
        .addColumn('metadata', 'text')
        .addColumn('owner', 'text')
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint')
        .addColumn('updated_by', 'text')
        .addPrimaryKeyConstraint('groups_pk', ['app_id', 'guid'])
        .execute();
      await db.schema
        .createTable('group_members')
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('guid', 'text', (c) => c.notNull())
        .addColumn('uid', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('joined_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('group_members_pk', ['app_id', 'guid', 'uid'])
        .execute();
      await db.schema
        .createIndex('group_members_by_user')
        .on('group_members')
        .columns(['app_id', 'uid'])
        .execute();
      await db.schema
        .createTable('group_bans')
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('guid', 'text', (c) => c.notNull())
        .addColumn('uid', 'text', (c) => c.notNull())
        .addColumn('banned_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('group_bans_pk', ['app_id', 'guid', 'uid'])
        .execute();
      await db.schema
        .createTable('messages')
        .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
          engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text', (c) => c.notNull())
        .addColumn('sender', 'text', (c) => c.notNull())
        .addColumn('receiver_type', 'text', (c) => c.notNull())
        .addColumn('receiver', 'text', (c) => c.notNull())
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('muid', 'text')
        .addColumn('tags', 'text')
        .addColumn('sent_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('edited_at', 'bigint')
        .addColumn('edited_by', 'text')
        .addColumn('deleted_at', 'bigint')
        .addColumn('deleted_by', 'text')
        .execute();
      await db.schema
        .createIndex('messages_by_conversation')
        .on('messages')
        .columns(['app_id', 'conversation_id', 'id'])
        .execute();
      await db.schema.createIndex('messages_by_app').on('messages').columns(['app_id', 'id']).execute();
      await db.schema
        .createTable('conversations')
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text', (c) => c.notNull())
        .addColumn('conversation_type', 'text', (c) => c.notNull())
        .addColumn('first_uid', 'text')
        .addColumn('second_uid', 'text')
        .addColumn('guid', 'text')
        .addColumn('last_message_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('conversations_pk', ['app_id', 'conversation_id'])
        .execute();
      await db.schema
        .createIndex('conversations_by_first')
        .on('conversations')
        .columns(['app_id', 'first_uid'])
        .execute();
      await db.schema
        .createIndex('conversations_by_second')
        .on('conversations')
        .columns(['app_id', 'second_uid'])
        .execute();
      await db.schema
        .createIndex('conversations_by_group')
        .on('conversations')
        .columns(['app_id', 'guid'])
        .execute();
      await db.schema
        .createTable('notification_settings')
        .addColumn('app_id', 'text', (c) => c.primaryKey())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('notification_preferences')
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('uid', 'text', (c) => c.notNull())
        .addColumn('preferences', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_preferences_pk', ['app_id', 'uid'])
        .execute();
    },
  };
}

/** Stored receipts: each move of a member's read or delivery pointer (`receipt_marks`). */
const receiptMarksMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('receipt_marks')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('message_id', 'bigint', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('receipt_marks_pk', ['app_id', 'conversation_id', 'uid', 'kind', 'message_id'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('receipt_marks').execute();
  },
};

/** Every migration by name, in order: `migrateToLatest` runs them; tests stop at one to seed older rows. */
export function migrationsFor(engine: StorageEngine): MigrationProvider {
  return {
    getMigrations: async () => ({
      '0001_chat_core': chatCore(engine),
      '0002_client_protocol': clientProtocolMigration,
      '0003_notifications': notificationTablesMigration(engine),
      '0004_agent_takeovers': agentTakeoversMigration,
      '0005_receipt_marks': receiptMarksMigration,
      '0006_blocked_users_conversation_tags': userRelationsMigration,
      '0007_threads_reactions': threadsAndReactionsMigration(engine),
      '0008_notification_providers': notificationProvidersMigration,
      '0009_friends_flags_conversation_deletions': surfaceMigration,
      '0010_media': mediaMigration,
      '0011_message_muids': messageMuidsMigration,
      '0012_notification_holds': notificationHoldsMigration,
      '0013_media_uploads': mediaUploadsMigration,
      '0014_pins_saves': pinsMigration,
      '0015_thread_subscriptions': threadSubscriptionsMigration,
      '0016_secret_key_canary': secretKeyCanaryMigration,
      '0017_notification_decisions': notificationDecisionsMigration(engine),
      '0018_partial_message_indexes': partialMessageIndexesMigration,
      '0019_hashed_api_keys': hashedApiKeysMigration,
      '0020_roles': rolesMigration,
      '0021_flag_reasons': flagReasonsMigration,
      '0022_message_reviews': messageReviewsMigration,
      '0023_notification_decision_messages': notificationDecisionMessagesMigration,
      '0025_moderation_rules': moderationRulesMigration(engine),
      '0028_media_upload_claims': mediaUploadClaimsMigration,
      '0029_held_message_ids': heldMessageIdsMigration(engine),
    }),
  };
}

/** Brings the schema up to date; run at every start, a no-op when nothing is new. */
export async function migrateToLatest(db: Kysely<unknown>, engine: StorageEngine): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationsFor(engine) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`chat store migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
