import type { UserNotificationPreferences } from '../../shared/notification-settings.js';
import type { GroupRepository } from '../repositories/groups.js';
import type { NotificationSettingsRepository } from '../repositories/notification-settings.js';
import { chunks } from './chunks.js';
import type { Recipient } from './decide.js';
import type { MuteTargetType } from './tables.js';
import type { NotificationEvent } from './triggers.js';
import { DEFAULT_TIME_ZONE, type NotificationUserState } from './user-state.js';

/**
 * Who an event concerns and what is known about them: for a group its members, for a one-on-one
 * the other participant; never the actor. Loaded in a few batched queries, whatever the size.
 */

function participants(event: NotificationEvent): string[] {
  return [event.message.sender, event.message.receiver].map((uid) => uid.toLowerCase());
}

/** In a one-on-one, the user `uid` is chatting with. */
function counterpartOf(event: NotificationEvent, uid: string): string {
  return participants(event).find((participant) => participant !== uid) ?? uid;
}

/** The event's conversation as `uid` would mute it: the group, or their chat with the other user. */
export function muteTargetOf(event: NotificationEvent, uid: string): { type: MuteTargetType; id: string } {
  return event.message.receiverType === 'group'
    ? { type: 'group', id: event.message.receiver.toLowerCase() }
    : { type: 'oneOnOne', id: counterpartOf(event, uid) };
}

export class Audience {
  constructor(
    private readonly groups: GroupRepository,
    private readonly userState: NotificationUserState,
    private readonly settings: NotificationSettingsRepository,
  ) {}

  async uidsOf(event: NotificationEvent): Promise<string[]> {
    const { message } = event;
    const actor = event.actor.toLowerCase();
    const uids =
      message.receiverType === 'group'
        ? await this.groups.memberUids(event.appId, message.receiver.toLowerCase())
        : participants(event);
    return [...new Set(uids)].filter((uid) => uid !== actor);
  }

  /** Saved preferences of those of `uids` who have any, a statement per chunk of them. */
  async preferences(
    appId: string,
    uids: readonly string[],
  ): Promise<Map<string, UserNotificationPreferences>> {
    const found = new Map<string, UserNotificationPreferences>();
    for (const part of chunks(uids)) {
      for (const [uid, preferences] of await this.settings.savedPreferences(appId, part)) {
        found.set(uid, preferences);
      }
    }
    return found;
  }

  /** Everything `decide` needs about each recipient of the event. */
  async recipients(event: NotificationEvent, uids: readonly string[], now: number): Promise<Recipient[]> {
    if (uids.length === 0) return [];
    const { appId, message } = event;
    const group = message.receiverType === 'group';
    const [preferences, zones, muted] = await Promise.all([
      this.preferences(appId, uids),
      this.userState.timeZones(appId, uids),
      group
        ? this.userState.mutedBy(appId, 'group', message.receiver.toLowerCase(), uids, now)
        : this.oneOnOneMutes(event, uids, now),
    ]);
    return uids.map((uid) => ({
      uid,
      preferences: preferences.get(uid),
      timeZone: zones.get(uid) ?? DEFAULT_TIME_ZONE,
      mutedConversation: muted.has(uid),
    }));
  }

  /** Which of the (at most two) participants muted their chat with the other. */
  private async oneOnOneMutes(
    event: NotificationEvent,
    uids: readonly string[],
    now: number,
  ): Promise<Set<string>> {
    const muted = new Set<string>();
    for (const uid of uids) {
      const target = muteTargetOf(event, uid);
      const found = await this.userState.mutedBy(event.appId, target.type, target.id, [uid], now);
      if (found.has(uid)) muted.add(uid);
    }
    return muted;
  }
}
