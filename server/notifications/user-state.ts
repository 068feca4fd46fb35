import { chunks } from './chunks.js';
import type { MuteTargetType, NotificationDb } from './tables.js';

/**
 * Per-user notification state beyond the preferences document: muted conversations
 * (`/notifications/v1/preferences/mute`) and the time zone the weekly schedule is read in
 * (`/notifications/v1/preferences/timezone`).
 */

export const DEFAULT_TIME_ZONE = 'UTC';

export interface MutedConversation {
  /** The group's GUID, or for a one-on-one the other user's UID. */
  id: string;
  type: MuteTargetType;
  /** Epoch ms; muted for good when absent. */
  until?: number;
}

export class NotificationUserState {
  constructor(private readonly db: NotificationDb) {}

  async mutedConversations(appId: string, uid: string, now: number): Promise<MutedConversation[]> {
    const rows = await this.db
      .selectFrom('notification_mutes')
      .select(['target_type', 'target_id', 'until'])
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', now)]))
      .orderBy('target_type')
      .orderBy('target_id')
      .execute();
    return rows.map((row) => ({
      id: row.target_id,
      type: row.target_type,
      ...(row.until === null ? {} : { until: row.until }),
    }));
  }

  async mute(appId: string, uid: string, conversations: readonly MutedConversation[]): Promise<void> {
    if (conversations.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const conversation of conversations) {
        const until = conversation.until ?? null;
        await trx
          .insertInto('notification_mutes')
          .values({ app_id: appId, uid, target_type: conversation.type, target_id: conversation.id, until })
          .onConflict((oc) =>
            oc.columns(['app_id', 'uid', 'target_type', 'target_id']).doUpdateSet({ until }),
          )
          .execute();
      }
    });
  }

  async unmute(
    appId: string,
    uid: string,
    conversations: ReadonlyArray<Pick<MutedConversation, 'id' | 'type'>>,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const conversation of conversations) {
        await trx
          .deleteFrom('notification_mutes')
          .where('app_id', '=', appId)
          .where('uid', '=', uid)
          .where('target_type', '=', conversation.type)
          .where('target_id', '=', conversation.id)
          .execute();
      }
    });
  }

  /** Which of `uids` have muted the target at `now`. */
  async mutedBy(
    appId: string,
    type: MuteTargetType,
    targetId: string,
    uids: readonly string[],
    now: number,
  ): Promise<Set<string>> {
    const muted = new Set<string>();
    for (const part of chunks(uids)) {
      const rows = await this.db
        .selectFrom('notification_mutes')
        .select('uid')
        .where('app_id', '=', appId)
        .where('target_type', '=', type)
        .where('target_id', '=', targetId)
        .where('uid', 'in', part)
        .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', now)]))
        .execute();
      for (const row of rows) muted.add(row.uid);
    }
    return muted;
  }

  async timeZone(appId: string, uid: string): Promise<string> {
    return (await this.timeZones(appId, [uid])).get(uid) ?? DEFAULT_TIME_ZONE;
  }

  /** The time zones of those of `uids` who set one. */
  async timeZones(appId: string, uids: readonly string[]): Promise<Map<string, string>> {
    const zones = new Map<string, string>();
    for (const part of chunks(uids)) {
      const rows = await this.db
        .selectFrom('notification_timezones')
        .select(['uid', 'timezone'])
        .where('app_id', '=', appId)
        .where('uid', 'in', part)
        .execute();
      for (const row of rows) zones.set(row.uid, row.timezone);
    }
    return zones;
  }

  async setTimeZone(appId: string, uid: string, timeZone: string, now: number): Promise<void> {
    await this.db
      .insertInto('notification_timezones')
      .values({ app_id: appId, uid, timezone: timeZone, updated_at: now })
      .onConflict((oc) => oc.columns(['app_id', 'uid']).doUpdateSet({ timezone: timeZone, updated_at: now }))
      .execute();
  }
}
