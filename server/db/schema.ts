import type { Generated } from 'kysely';
import type { ApiKeyScope } from '../../shared/api-keys.js';
import type { ReviewStatus } from '../../shared/moderation.js';
import type { GroupType, MemberScope } from '../../shared/groups.js';

/**
 * Tables of the chat store. Times are integer epoch seconds; JSON members (metadata, tags, message
 * data, settings) are stored as text so both engines share one set of queries.
 */
export interface AppTable {
  app_id: string;
  name: string;
  region: string;
  created_at: number;
}

export type { ApiKeyScope };

/** An API key, stored as its SHA-256 (`key_hash`); `key_id` names it in `/apikeys/{apiKey}`. */
export interface AppKeyTable {
  app_id: string;
  key_hash: string;
  key_id: string;
  name: string;
  scope: ApiKeyScope;
  created_at: number;
  /** The key itself, sealed, for the keys the server seeds at start only. */
  start_key: string | null;
}

/** A role users can have; `metadata` and `settings` are JSON text. */
export interface RoleTable {
  app_id: string;
  role: string;
  name: string;
  description: string | null;
  metadata: string | null;
  settings: string | null;
  created_at: number;
  updated_at: number | null;
}

/** A flag reason of the app's own; the defaults are not stored. */
export interface FlagReasonTable {
  app_id: string;
  id: string;
  name: string;
  description: string;
  created_at: number;
  updated_at: number;
}

/** A moderator's review of a flagged message. */
export interface MessageReviewTable {
  app_id: string;
  message_id: number;
  status: ReviewStatus;
  reviewed_at: number;
}

/** A moderation keyword list; `search_terms` is a JSON array. */
export interface ModerationKeywordListTable {
  app_id: string;
  id: string;
  name: string;
  description: string;
  search_terms: string;
  revision: number;
  created_at: number;
  updated_at: number;
}

/** A moderation rule: `rule` is its current revision as the API answers it (JSON). */
export interface ModerationRuleTable {
  app_id: string;
  id: string;
  revision: number;
  rule: string;
  created_at: number;
}

export interface ModerationRuleRevisionTable {
  app_id: string;
  rule_id: string;
  revision: number;
  rule: string;
}

/** A message a rule held back: `draft` is the message as sent (JSON), `condition` what matched. */
export interface ModerationBlockedMessageTable {
  id: Generated<number>;
  app_id: string;
  sender: string;
  draft: string;
  rule_id: string;
  rule_name: string;
  revision_id: string;
  condition: string;
  actions: string;
  status: string;
  delivered_message_id: number | null;
  created_at: number;
  updated_at: number;
}

export interface UserTable {
  app_id: string;
  uid: string;
  name: string;
  avatar: string | null;
  link: string | null;
  role: string;
  status_message: string | null;
  metadata: string | null;
  tags: string;
  status: string;
  created_at: number;
  updated_at: number | null;
  deactivated_at: number | null;
}

export interface AuthTokenTable {
  app_id: string;
  auth_token: string;
  uid: string;
  created_at: number;
  /** What the client said of itself with `PUT /users/{uid}/auth_tokens/{authToken}`. */
  platform: string | null;
  user_agent: string | null;
  /** JSON object. */
  app_info: string | null;
  updated_at: number | null;
}

export interface GroupTable {
  app_id: string;
  guid: string;
  name: string;
  type: GroupType;
  password_hash: string | null;
  icon: string | null;
  description: string | null;
  metadata: string | null;
  owner: string | null;
  tags: string;
  created_at: number;
  updated_at: number | null;
  updated_by: string | null;
}

export interface GroupMemberTable {
  app_id: string;
  guid: string;
  uid: string;
  scope: MemberScope;
  joined_at: number;
}

export interface GroupBanTable {
  app_id: string;
  guid: string;
  uid: string;
  banned_at: number;
}

export interface MessageTable {
  id: Generated<number>;
  app_id: string;
  conversation_id: string;
  sender: string;
  receiver_type: 'user' | 'group';
  receiver: string;
  category: string;
  type: string;
  data: string;
  muid: string | null;
  tags: string | null;
  sent_at: number;
  updated_at: number;
  edited_at: number | null;
  edited_by: string | null;
  deleted_at: number | null;
  deleted_by: string | null;
  /** The message this one replies to in a thread; null outside threads. */
  parent_id: number | null;
  /** How many replies the message's thread holds. */
  reply_count: Generated<number>;
}

/** One user's reaction (an emoji or any short text) to a message; a user reacts with each at most once. */
export interface MessageReactionTable {
  id: Generated<number>;
  app_id: string;
  message_id: number;
  uid: string;
  reaction: string;
  reacted_at: number;
}

/** One row per conversation, kept current as messages arrive, so listing conversations is one query. */
export interface ConversationTable {
  app_id: string;
  conversation_id: string;
  conversation_type: 'user' | 'group';
  /** For one-to-one conversations the two UIDs; null for groups. */
  first_uid: string | null;
  second_uid: string | null;
  guid: string | null;
  last_message_id: number;
  created_at: number;
  updated_at: number;
}

export interface NotificationSettingsTable {
  app_id: string;
  settings: string;
  updated_at: number;
}

export interface NotificationPreferencesTable {
  app_id: string;
  uid: string;
  preferences: string;
  updated_at: number;
}

/** Client-protocol settings of an app (JSON): first-login user creation, apiAction origins. */
/** The secret that signs attachment URLs (`server/media/urls.ts`). */
export interface MediaUrlKeyTable {
  name: string;
  secret: string;
  created_at: number;
}

/** A presigned upload not yet linked to a message (`server/media/uploads.ts`). */
export interface MediaUploadTable {
  folder: string;
  app_id: string;
  expires_at: number;
  width: number | null;
  height: number | null;
  /** When a send linked the upload (epoch seconds); null while unlinked. */
  claimed_at: number | null;
}

export interface AppClientSettingsTable {
  app_id: string;
  settings: string;
  updated_at: number;
}

/** How far one member has read and received a conversation. */
export interface ConversationReadTable {
  app_id: string;
  conversation_id: string;
  uid: string;
  read_message_id: number;
  read_at: number | null;
  delivered_message_id: number;
  delivered_at: number | null;
}

/**
 * Each time a member's read or delivery pointer moves forward: everything up to `message_id` was
 * read (or received) by `uid` at `at`. A message's receipt time for a member is the earliest mark
 * at or past it; a read implies delivery.
 */
export interface ReceiptMarkTable {
  app_id: string;
  conversation_id: string;
  uid: string;
  kind: 'read' | 'delivered';
  message_id: number;
  at: number;
}

/** One row per user and form element acted on: what makes `disableAfterInteracted` hold. */
export interface FormSubmissionTable {
  app_id: string;
  message_id: number;
  uid: string;
  element_id: string;
  submitted_at: number;
}

/** An AI agent registered in the dashboard; `uid` is the chat user it speaks as. */
export interface AgentTable {
  app_id: string;
  uid: string;
  provider: string;
  agent_id: string;
  deployment_url: string;
  name: string;
  namespace: string;
  /** 1 or 0: SQLite has no boolean. */
  enabled: number;
  created_at: number;
  updated_at: number;
}

/** A conversation where an operator took over from an agent: the agent stays silent there. */
export interface AgentTakeoverTable {
  app_id: string;
  agent_uid: string;
  conversation_id: string;
  /** The operator who took over, when a person did (not set for the server API). */
  by_uid: string | null;
  created_at: number;
}

/** A friendship of `uid`; every relation is stored both ways, so friends list each other. */
export interface UserFriendTable {
  app_id: string;
  uid: string;
  friend_uid: string;
  created_at: number;
}

/** A user's flag on a message for moderation review: one per user and message, the latest reason kept. */
export interface MessageFlagTable {
  app_id: string;
  message_id: number;
  uid: string;
  reason_id: string;
  remark: string | null;
  flagged_at: number;
}

/**
 * A conversation `uid` deleted for themselves: it leaves their list until a message newer than
 * `up_to_message_id` arrives; the other side keeps it and its history.
 */
export interface ConversationDeletionTable {
  app_id: string;
  conversation_id: string;
  uid: string;
  up_to_message_id: number;
  deleted_at: number;
}

/** `uid` blocked `blocked_uid`: neither can message the other one-to-one. */
export interface BlockedUserTable {
  app_id: string;
  uid: string;
  blocked_uid: string;
  blocked_at: number;
}

/** One tag `uid` put on a conversation; each user tags their conversations for themselves. */
export interface ConversationTagTable {
  app_id: string;
  uid: string;
  conversation_id: string;
  tag: string;
}

/** A message pinned to its conversation: one pinner, the latest (`app_system` for the app). */
export interface MessagePinTable {
  app_id: string;
  message_id: number;
  conversation_id: string;
  pinned_by: string;
  pinned_at_ms: number;
}

/** A message one user saved for themselves. */
export interface MessageSaveTable {
  app_id: string;
  uid: string;
  message_id: number;
  saved_at_ms: number;
}

/** A conversation one user pinned to the top of their list. */
export interface ConversationPinTable {
  app_id: string;
  uid: string;
  conversation_id: string;
  pinned_at_ms: number;
}

/** A user's follow (1) or unfollow (0) of the thread under message `parent_id`. */
export interface ThreadSubscriptionTable {
  app_id: string;
  uid: string;
  parent_id: number;
  subscribed: number;
  updated_at: number;
}

export interface ChatDatabase {
  apps: AppTable;
  app_keys: AppKeyTable;
  roles: RoleTable;
  flag_reasons: FlagReasonTable;
  message_reviews: MessageReviewTable;
  moderation_keyword_lists: ModerationKeywordListTable;
  moderation_rules: ModerationRuleTable;
  moderation_rule_revisions: ModerationRuleRevisionTable;
  moderation_blocked_messages: ModerationBlockedMessageTable;
  users: UserTable;
  auth_tokens: AuthTokenTable;
  groups: GroupTable;
  group_members: GroupMemberTable;
  group_bans: GroupBanTable;
  messages: MessageTable;
  message_reactions: MessageReactionTable;
  conversations: ConversationTable;
  notification_settings: NotificationSettingsTable;
  notification_preferences: NotificationPreferencesTable;
  app_client_settings: AppClientSettingsTable;
  conversation_reads: ConversationReadTable;
  receipt_marks: ReceiptMarkTable;
  form_submissions: FormSubmissionTable;
  agents: AgentTable;
  agent_takeovers: AgentTakeoverTable;
  blocked_users: BlockedUserTable;
  conversation_tags: ConversationTagTable;
  user_friends: UserFriendTable;
  message_flags: MessageFlagTable;
  conversation_deletions: ConversationDeletionTable;
  media_url_keys: MediaUrlKeyTable;
  media_uploads: MediaUploadTable;
  message_pins: MessagePinTable;
  message_saves: MessageSaveTable;
  conversation_pins: ConversationPinTable;
  thread_subscriptions: ThreadSubscriptionTable;
}
