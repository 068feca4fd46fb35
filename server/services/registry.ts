import type { SecretBox } from '../secret-box.js';
import type { ChatStore } from '../db/database.js';
import { ChatEvents } from '../events.js';
import { AppRepository } from '../repositories/apps.js';
import { AuthTokenRepository } from '../repositories/auth-tokens.js';
import { BlockedUserRepository } from '../repositories/blocked-users.js';
import { ConversationTagRepository } from '../repositories/conversation-tags.js';
import { ConversationRepository } from '../repositories/conversations.js';
import { FlagReasonRepository } from '../repositories/flag-reasons.js';
import { FlagRepository } from '../repositories/flags.js';
import { FriendRepository } from '../repositories/friends.js';
import { GroupRepository } from '../repositories/groups.js';
import { MessageRepository } from '../repositories/messages.js';
import { PinRepository } from '../repositories/pins.js';
import { RoleRepository } from '../repositories/roles.js';
import { StatsRepository } from '../repositories/stats.js';
import { ThreadSubscriptionRepository } from '../repositories/thread-subscriptions.js';
import { rowCacheOptions, type CacheGenerations } from '../repositories/row-cache.js';
import { ReactionRepository } from '../repositories/reactions.js';
import { ReadStateRepository } from '../repositories/read-state.js';
import { NotificationSettingsRepository } from '../repositories/notification-settings.js';
import { UserRepository } from '../repositories/users.js';
import { ClientSettingsRepository } from '../repositories/client-settings.js';
import { ApiKeyService } from './api-keys.js';
import { ConversationService } from './conversations.js';
import { NotifiedChanges } from './decisions.js';
import { GroupService } from './groups.js';
import { HistoryService } from './history.js';
import { MessageService } from './messages.js';
import { ModerationService } from './moderation.js';
import { NotificationSettingsService } from './notification-settings.js';
import { ModerationRuleRepository } from '../repositories/moderation-rules.js';
import { PROCESS_ALONE, type ChangeNotices } from '../repositories/app-cache.js';
import { ContentRules } from './content-rules.js';
import { ModerationRuleService } from './moderation-rules.js';
import type { MediaLibrary } from '../media/library.js';
import { PinService } from './pins.js';
import { ReactionService } from './reactions.js';
import { RoleService } from './roles.js';
import { StatsService } from './stats.js';
import { ThreadService } from './threads.js';
import { UserService } from './users.js';

/**
 * What the `/v3` routes call: the chat services, each owning its checks and its transactions
 * (read, check and write in one). The repositories stay behind them.
 */
export interface ChatServices {
  /** Users, their auth tokens (sessions), friends and blocks. */
  users: UserService;
  /** The roles users may have (`/roles`). */
  roles: RoleService;
  apiKeys: ApiKeyService;
  groups: GroupService;
  messages: MessageService;
  /** Message lists, counts and receipts: what the history routes read. */
  history: HistoryService;
  conversations: ConversationService;
  reactions: ReactionService;
  /** Pinned and saved messages, pinned conversations. */
  pins: PinService;
  /** Following threads and listing them. */
  threads: ThreadService;
  moderation: ModerationService;
  /** Moderation rules, keyword lists and the messages the rules held back. */
  moderationRules: ModerationRuleService;
  /** Usage counts (`/stats`). */
  stats: StatsService;
  notificationSettings: NotificationSettingsService;
  /** Attachments' files and signed URLs; none where no file store is configured. */
  media: MediaLibrary | undefined;
}

/**
 * The chat core of one process, wired to one store and one event bus: the repositories, read by
 * the services and by the process's own machinery (the realtime fan-out, the notifications engine,
 * the agent bridge, the request's actor), and `services`, which the routes call.
 */
export interface ChatCore {
  store: ChatStore;
  events: ChatEvents;
  apps: AppRepository;
  users: UserRepository;
  authTokens: AuthTokenRepository;
  blockedUsers: BlockedUserRepository;
  groups: GroupRepository;
  messages: MessageRepository;
  /** How far each member has read and received each conversation (receipts, unread counts, digests). */
  readState: ReadStateRepository;
  notifications: NotificationSettingsRepository;
  /** The app's settings for the SDK (upload caps, apiAction origins, users made on login). */
  clientSettings: ClientSettingsRepository;
  /** How changes queue their notifications' decisions: set by the notifications engine while it runs. */
  notifiedChanges: NotifiedChanges;
  /** Attachments' files and signed URLs; none where no file store is configured. */
  media: MediaLibrary | undefined;
  /** Seals secrets kept in the store (notification providers' keys). */
  secrets: SecretBox;
  services: ChatServices;
}

/**
 * `generations`: where other processes share the store, the counters of their changes, so the
 * repositories can cache what every send reads (see `rowCacheOptions`); `notices`: how they tell
 * each other that per-app settings they keep in memory changed (the moderation rules, the
 * client settings).
 */
export function createChatCore(
  store: ChatStore,
  secrets: SecretBox,
  media?: MediaLibrary,
  generations?: CacheGenerations,
  notices: ChangeNotices = PROCESS_ALONE,
): ChatCore {
  const { db } = store;
  const events = new ChatEvents();
  const caches = rowCacheOptions(store.engine, generations);
  const groups = new GroupRepository(db, caches);
  const users = new UserRepository(db, groups, events, caches);
  const messages = new MessageRepository(store);
  const conversations = new ConversationRepository(db);
  const reactions = new ReactionRepository(db);
  const blockedUsers = new BlockedUserRepository(db, caches);
  const conversationTags = new ConversationTagRepository(db);
  const pins = new PinRepository(db);
  const moderationRules = new ModerationRuleRepository(db);
  const contentRules = new ContentRules(moderationRules, notices);
  const notifiedChanges = new NotifiedChanges();
  const readState = new ReadStateRepository(db);
  const messageService = new MessageService(
    db,
    users,
    groups,
    messages,
    reactions,
    events,
    blockedUsers,
    pins,
    notifiedChanges,
    media,
    contentRules,
  );
  const conversationService = new ConversationService(
    conversations,
    users,
    groups,
    messages,
    messageService,
    conversationTags,
    blockedUsers,
    pins,
    readState,
  );
  const apps = new AppRepository(db, store.engine, generations, secrets);
  const authTokens = new AuthTokenRepository(db, events);
  const notifications = new NotificationSettingsRepository(db);
  const clientSettings = new ClientSettingsRepository(db, notices);
  const roles = new RoleRepository(db, store.engine);
  return {
    store,
    events,
    apps,
    users,
    authTokens,
    blockedUsers,
    groups,
    messages,
    readState,
    notifications,
    clientSettings,
    notifiedChanges,
    media,
    secrets,
    services: {
      users: new UserService(
        db,
        users,
        roles,
        authTokens,
        new FriendRepository(db),
        blockedUsers,
        clientSettings,
      ),
      roles: new RoleService(roles),
      apiKeys: new ApiKeyService(apps),
      groups: new GroupService(db, users, groups, messages, events, notifiedChanges),
      messages: messageService,
      history: new HistoryService(messages, readState, users, groups),
      conversations: conversationService,
      reactions: new ReactionService(
        db,
        messages,
        reactions,
        messageService,
        users,
        blockedUsers,
        events,
        notifiedChanges,
      ),
      pins: new PinService(db, pins, messages, messageService, groups, conversationService, events),
      threads: new ThreadService(messages, new ThreadSubscriptionRepository(db), messageService),
      moderation: new ModerationService(
        new FlagRepository(db),
        new FlagReasonRepository(db),
        messages,
        messageService,
        users,
      ),
      moderationRules: new ModerationRuleService(db, moderationRules, contentRules, messageService, events),
      stats: new StatsService(new StatsRepository(db), users),
      notificationSettings: new NotificationSettingsService(notifications, users),
      media,
    },
  };
}
