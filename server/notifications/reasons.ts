/**
 * Why a recipient was not notified. The first group is CometChat's `reason` enum of its
 * notification logs; the rest name outcomes that enum has no word for.
 */
export const SuppressReason = {
  MESSAGES_PREFERENCE: 'MESSAGES_PREFERENCE',
  REPLIES_PREFERENCE: 'REPLIES_PREFERENCE',
  QUOTED_REPLIES_PREFERENCE: 'QUOTED_REPLIES_PREFERENCE',
  MESSAGE_ACTIONS_PREFERENCE: 'MESSAGE_ACTIONS_PREFERENCE',
  REACTIONS_PREFERENCE: 'REACTIONS_PREFERENCE',
  GROUP_ACTIONS_PREFERENCE: 'GROUP_ACTIONS_PREFERENCE',
  CALL_PREFERENCE: 'CALL_PREFERENCE',
  DND_PREFERENCE: 'DND_PREFERENCE',
  SCHEDULE_PREFERENCE: 'SCHEDULE_PREFERENCE',
  MUTE_PREFERENCE: 'MUTE_PREFERENCE',
  QUOTA_PREFERENCE: 'QUOTA_PREFERENCE',
  /** Push is for users without a connected socket. */
  USER_ONLINE: 'USER_ONLINE',
  /** Every message of an email/SMS batch was read before the interval ended. */
  MESSAGES_READ: 'MESSAGES_READ',
} as const;
export type SuppressReason = (typeof SuppressReason)[keyof typeof SuppressReason];

export const SUPPRESS_REASONS = Object.values(SuppressReason);
