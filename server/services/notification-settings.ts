import type {
  NotificationSettings,
  NotificationSettingsPatch,
  UserNotificationPreferences,
  UserNotificationPreferencesPatch,
} from '../../shared/notification-settings.js';
import type { NotificationSettingsRepository } from '../repositories/notification-settings.js';
import type { UserRepository } from '../repositories/users.js';

/**
 * The app's notification settings and each user's preferences (`/notifications/v1`): a reset goes
 * back to the defaults; a user's preferences exist only for an active user (else `ERR_UID_NOT_FOUND`).
 */
export class NotificationSettingsService {
  constructor(
    private readonly settingsOf: NotificationSettingsRepository,
    private readonly users: UserRepository,
  ) {}

  settings(appId: string): Promise<NotificationSettings> {
    return this.settingsOf.settings(appId);
  }

  async updateSettings(appId: string, patch: NotificationSettingsPatch): Promise<void> {
    await this.settingsOf.updateSettings(appId, patch);
  }

  resetSettings(appId: string): Promise<void> {
    return this.settingsOf.resetSettings(appId);
  }

  async preferences(appId: string, uid: string): Promise<UserNotificationPreferences> {
    const user = await this.users.get(appId, uid);
    return this.settingsOf.preferences(appId, user.uid);
  }

  async updatePreferences(
    appId: string,
    uid: string,
    patch: UserNotificationPreferencesPatch,
  ): Promise<UserNotificationPreferences> {
    const user = await this.users.get(appId, uid);
    return this.settingsOf.updatePreferences(appId, user.uid, patch);
  }

  /** Resets the user's preferences; answers them as they now are (the defaults). */
  async resetPreferences(appId: string, uid: string): Promise<UserNotificationPreferences> {
    const user = await this.users.get(appId, uid);
    await this.settingsOf.resetPreferences(appId, user.uid);
    return this.settingsOf.preferences(appId, user.uid);
  }
}
