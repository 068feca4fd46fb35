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
import { ConversationService } from './conversations.js';
import { NotifiedChanges } from './decisions.js';
import { GroupService } from './groups.js';
import { MessageService } from './messages.js';
import { ModerationService } from './moderation.js';
import { ModerationRuleRepository } from '../repositories/moderation-rules.js';
import { PROCESS_ALONE, type ChangeNotices } from '../repositories/app-cache.js';
import { ContentRules } from './content-rules.js';
import { ModerationRuleService } from './moderation-rules.js';
import type { MediaLibrary } from '../media/library.js';
import { PinService } from './pins.js';
import { ReactionService } from './reactions.js';
import { ThreadService } from './threads.js';

/** Every repository and service of the chat service, wired to one store and one event bus. */
export interface ChatServices {
  store: ChatStore;
  events: ChatEvents;
  apps: AppRepository;
  users: UserRepository;
  /** The roles users may have (`/roles`). */
  roles: RoleRepository;
  authTokens: AuthTokenRepository;
  blockedUsers: BlockedUserRepository;
  groups: GroupRepository;
  groupService: GroupService;
  messages: MessageRepository;
  messageService: MessageService;
  reactions: ReactionService;
  /** How changes queue their notifications' decisions: set by the notifications engine while it runs. */
  notifiedChanges: NotifiedChanges;
  /** Pinned and saved messages, pinned conversations. */
  pins: PinService;
  /** Following threads and listing them. */
  threads: ThreadService;
  /** Usage counts (`/stats`). */
  stats: StatsRepository;
  conversations: ConversationRepository;
  conversationService: ConversationService;
  conversationTags: ConversationTagRepository;
  /** How far each member has read and received each conversation (receipts, unread counts, digests). */
  readState: ReadStateRepository;
  notifications: NotificationSettingsRepository;
  friends: FriendRepository;
  moderation: ModerationService;
  /** Moderation rules, keyword lists and the messages the rules held back. */
  moderationRules: ModerationRuleService;
  /** Attachments' files and signed URLs; none where no file store is configured. */
  media: MediaLibrary | undefined;
  /** Seals secrets kept in the store (notification providers' keys). */
  secrets: SecretBox;
}

/**
 * `generations`: where other processes share the store, the counters of their changes, so the
 * repositories can cache what every send reads (see `rowCacheOptions`); `notices`: how they tell
 * each other that per-app settings they keep in memory changed (the moderation rules).
 */
export function createChatServices(
  store: ChatStore,
  secrets: SecretBox,
  media?: MediaLibrary,
  generations?: CacheGenerations,
  notices: ChangeNotices = PROCESS_ALONE,
): ChatServices {
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
  );
  return {
    store,
    events,
    apps: new AppRepository(db, store.engine, generations, secrets),
    users,
    roles: new RoleRepository(db, store.engine),
    authTokens: new AuthTokenRepository(db, events),
    blockedUsers,
    groups,
    groupService: new GroupService(db, users, groups, messages, events, notifiedChanges),
    messages,
    messageService,
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
    notifiedChanges,
    threads: new ThreadService(messages, new ThreadSubscriptionRepository(db), messageService),
    stats: new StatsRepository(db),
    pins: new PinService(db, pins, messages, messageService, groups, conversationService, events),
    conversations,
    conversationService,
    conversationTags,
    readState: new ReadStateRepository(db),
    notifications: new NotificationSettingsRepository(db),
    friends: new FriendRepository(db),
    moderation: new ModerationService(
      new FlagRepository(db),
      new FlagReasonRepository(db),
      messages,
      messageService,
      users,
    ),
    moderationRules: new ModerationRuleService(moderationRules, contentRules, messageService, events),
    media,
    secrets,
  };
}
