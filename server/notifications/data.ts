import { PROCESS_ALONE, type ChangeNotices } from '../repositories/app-cache.js';
import type { ChatCore } from '../services/registry.js';
import { Audience } from './audience.js';
import { DecisionQueue } from './decision-queue.js';
import { Digests } from './digests.js';
import { NotificationLogs } from './logs.js';
import { Outbox } from './outbox.js';
import { withNotificationTables, type NotificationDb } from './tables.js';
import { NotificationUserState } from './user-state.js';
import { ContactDirectory } from './contact-details.js';
import { PROVIDER_KINDS } from './providers/kinds.js';
import { ProviderRegistry } from './providers/registry.js';
import { PushTokens } from './push-tokens.js';

/** The engine's stores, one set per chat store, shared by the engine and the HTTP routes (one provider cache). */
export interface NotificationData {
  db: NotificationDb;
  providers: ProviderRegistry;
  pushTokens: PushTokens;
  contacts: ContactDirectory;
  outbox: Outbox;
  decisions: DecisionQueue;
  logs: NotificationLogs;
  digests: Digests;
  userState: NotificationUserState;
  audience: Audience;
}

const byStore = new WeakMap<ChatCore['store'], NotificationData>();

/**
 * The store's notification data, made at the first call: the server makes it at start with the
 * change notices of the processes sharing the store (`notices`); later calls get the same one.
 */
export function notificationDataOf(core: ChatCore, notices: ChangeNotices = PROCESS_ALONE): NotificationData {
  let data = byStore.get(core.store);
  if (data === undefined) {
    const db = withNotificationTables(core.store.db);
    const userState = new NotificationUserState(db);
    data = {
      db,
      providers: new ProviderRegistry(db, PROVIDER_KINDS, core.secrets, notices),
      pushTokens: new PushTokens(db),
      contacts: new ContactDirectory(db),
      outbox: new Outbox(db, core.store.engine),
      decisions: new DecisionQueue(db, core.store.engine),
      logs: new NotificationLogs(db),
      digests: new Digests(db),
      userState,
      audience: new Audience(core.groups, userState, core.notifications),
    };
    byStore.set(core.store, data);
  }
  return data;
}
