import type { Kysely } from 'kysely';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  DEFAULT_USER_NOTIFICATION_PREFERENCES,
  mergeNotificationSettings,
  mergeUserNotificationPreferences,
  NotificationSettings,
  UserNotificationPreferences,
  type NotificationSettingsPatch,
  type UserNotificationPreferencesPatch,
} from '../../shared/notification-settings.js';
import type { ChatDatabase } from '../db/schema.js';
import { nowSeconds } from '../time.js';

/**
 * App-wide notification settings and per-user preferences. Only changed values are stored: an
 * app or user without a row has the defaults, so a reset is a delete.
 */
export class NotificationSettingsRepository {
  constructor(private readonly db: Kysely<ChatDatabase>) {}

  async settings(appId: string, db: Kysely<ChatDatabase> = this.db): Promise<NotificationSettings> {
    const row = await db
      .selectFrom('notification_settings')
      .select('settings')
      .where('app_id', '=', appId)
      .executeTakeFirst();
    // Parsing fills members a later version added, so stored settings stay complete.
    return NotificationSettings.parse(
      row === undefined ? DEFAULT_NOTIFICATION_SETTINGS : JSON.parse(row.settings),
    );
  }

  async updateSettings(appId: string, patch: NotificationSettingsPatch): Promise<NotificationSettings> {
    return this.db.transaction().execute(async (trx) => {
      const merged = mergeNotificationSettings(await this.settings(appId, trx), patch);
      const settings = JSON.stringify(merged);
      const updatedAt = nowSeconds();
      await trx
        .insertInto('notification_settings')
        .values({ app_id: appId, settings, updated_at: updatedAt })
        .onConflict((oc) => oc.column('app_id').doUpdateSet({ settings, updated_at: updatedAt }))
        .execute();
      return merged;
    });
  }

  async resetSettings(appId: string): Promise<void> {
    await this.db.deleteFrom('notification_settings').where('app_id', '=', appId).execute();
  }

  async preferences(
    appId: string,
    uid: string,
    db: Kysely<ChatDatabase> = this.db,
  ): Promise<UserNotificationPreferences> {
    const row = await db
      .selectFrom('notification_preferences')
      .select('preferences')
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .executeTakeFirst();
    return UserNotificationPreferences.parse(
      row === undefined ? DEFAULT_USER_NOTIFICATION_PREFERENCES : JSON.parse(row.preferences),
    );
  }

  /** The saved preferences of those of `uids` who have any; rows that no longer parse count as none. */
  async savedPreferences(
    appId: string,
    uids: readonly string[],
  ): Promise<Map<string, UserNotificationPreferences>> {
    const rows = await this.db
      .selectFrom('notification_preferences')
      .select(['uid', 'preferences'])
      .where('app_id', '=', appId)
      .where('uid', 'in', uids)
      .execute();
    const found = new Map<string, UserNotificationPreferences>();
    for (const row of rows) {
      const parsed = UserNotificationPreferences.safeParse(JSON.parse(row.preferences));
      if (parsed.success) found.set(row.uid, parsed.data);
    }
    return found;
  }

  async updatePreferences(
    appId: string,
    uid: string,
    patch: UserNotificationPreferencesPatch,
  ): Promise<UserNotificationPreferences> {
    return this.db.transaction().execute(async (trx) => {
      const merged = mergeUserNotificationPreferences(await this.preferences(appId, uid, trx), patch);
      const preferences = JSON.stringify(merged);
      const updatedAt = nowSeconds();
      await trx
        .insertInto('notification_preferences')
        .values({ app_id: appId, uid, preferences, updated_at: updatedAt })
        .onConflict((oc) => oc.columns(['app_id', 'uid']).doUpdateSet({ preferences, updated_at: updatedAt }))
        .execute();
      return merged;
    });
  }

  async resetPreferences(appId: string, uid: string): Promise<void> {
    await this.db
      .deleteFrom('notification_preferences')
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .execute();
  }
}
