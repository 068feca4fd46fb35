import type { Message, UserEntity } from '../../../shared/message.js';
import { mentionedUids } from '../../../shared/mentions.js';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  DEFAULT_USER_NOTIFICATION_PREFERENCES,
  mergeNotificationSettings,
  mergeUserNotificationPreferences,
  NotificationSettings,
  NotificationSettingsPatch,
  UserNotificationPreferences,
  UserNotificationPreferencesPatch,
} from '../../../shared/notification-settings.js';
import type { Recipient } from '../../../server/notifications/decide.js';

/** Messages, settings and recipients for the engine's pure parts, shaped like the chat service's. */

export const user = (uid: string, extra: Partial<UserEntity> = {}): UserEntity => ({
  uid,
  name: `Name of ${uid}`,
  role: 'default',
  status: 'offline',
  ...extra,
});

export const GROUP = {
  guid: 'hikers',
  name: 'Hiking Group',
  type: 'public' as const,
  conversationId: 'group_hikers',
  metadata: { region: 'alps' },
};

export interface MessageShape {
  sender?: string;
  /** A UID, or the group when `group` is set. */
  receiver?: string;
  group?: boolean;
  category?: Message['category'];
  type?: string;
  data?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  id?: string;
}

export function message(shape: MessageShape = {}): Message {
  const sender = shape.sender ?? 'alice';
  const group = shape.group ?? false;
  const receiver = group ? GROUP.guid : (shape.receiver ?? 'bob');
  const conversationId = group ? GROUP.conversationId : [sender, receiver].sort().join('_user_');
  const text = shape.data?.text;
  // As the message service stores them: every user the text mentions, as if each exists and belongs.
  const mentioned = typeof text === 'string' ? mentionedUids(text) : [];
  const mentions =
    mentioned.length === 0 ? {} : { mentions: Object.fromEntries(mentioned.map((uid) => [uid, user(uid)])) };
  return {
    id: shape.id ?? '42',
    conversationId,
    sender,
    receiver,
    receiverType: group ? 'group' : 'user',
    category: shape.category ?? 'message',
    type: shape.type ?? 'text',
    sentAt: 1_795_000_000,
    updatedAt: 1_795_000_000,
    data: {
      text: 'Hello there',
      ...mentions,
      ...shape.data,
      entities: {
        sender: { entityType: 'user', entity: user(sender, { metadata: { team: 'blue' } }) },
        receiver: group
          ? { entityType: 'group', entity: GROUP }
          : { entityType: 'user', entity: { ...user(receiver), conversationId } },
      },
    },
    ...shape.extra,
  } as Message;
}

export function settingsWith(patch?: unknown): NotificationSettings {
  const defaults = NotificationSettings.parse(DEFAULT_NOTIFICATION_SETTINGS);
  return patch === undefined
    ? defaults
    : mergeNotificationSettings(defaults, NotificationSettingsPatch.parse(patch));
}

export function preferencesWith(patch: unknown): UserNotificationPreferences {
  return mergeUserNotificationPreferences(
    UserNotificationPreferences.parse(DEFAULT_USER_NOTIFICATION_PREFERENCES),
    UserNotificationPreferencesPatch.parse(patch),
  );
}

export function recipient(uid: string, extra: Partial<Recipient> = {}): Recipient {
  return { uid, preferences: undefined, timeZone: 'UTC', mutedConversation: false, ...extra };
}

/** Monday 2026-01-05 at the given UTC time (HH:MM). */
export const mondayUtc = (time: string): number => Date.parse(`2026-01-05T${time}:00Z`);
