import type { ChatServices } from '../services/registry.js';
import { Audience } from './audience.js';
import { Digests } from './digests.js';
import { NotificationLogs } from './logs.js';
import { Outbox } from './outbox.js';
import { withNotificationTables, type NotificationDb } from './tables.js';
import { NotificationUserState } from './user-state.js';
import { WebhookRegistry } from './webhooks.js';

/** The engine's stores, one set per chat store, shared by the engine and the HTTP routes (one webhook cache). */
export interface NotificationData {
  db: NotificationDb;
  webhooks: WebhookRegistry;
  outbox: Outbox;
  logs: NotificationLogs;
  digests: Digests;
  userState: NotificationUserState;
  audience: Audience;
}

const byStore = new WeakMap<ChatServices['store'], NotificationData>();

export function notificationDataOf(services: ChatServices): NotificationData {
  let data = byStore.get(services.store);
  if (data === undefined) {
    const db = withNotificationTables(services.store.db);
    const userState = new NotificationUserState(db);
    data = {
      db,
      webhooks: new WebhookRegistry(db),
      outbox: new Outbox(db, services.store.engine),
      logs: new NotificationLogs(db),
      digests: new Digests(db),
      userState,
      audience: new Audience(db, userState, services.notifications),
    };
    byStore.set(services.store, data);
  }
  return data;
}
