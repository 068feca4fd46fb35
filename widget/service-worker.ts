/**
 * The widget's service worker (`parley-sw.js`): shows each Web Push the chat service sends as a
 * notification, and on a click brings the page back (or opens the worker's scope). It must be
 * served from the page's own origin; the widget registers it from beside its own script.
 */
import type { WebPushMessage } from '../shared/web-push.js';

// The worker's global scope, as far as this file uses it (the DOM library has no worker scope types).
interface PushEventLike extends ExtendableEventLike {
  data: { json(): unknown } | null;
}
interface ExtendableEventLike extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface NotificationClickLike extends ExtendableEventLike {
  notification: Notification;
}
interface WindowClientLike {
  focus(): Promise<unknown>;
}
interface WorkerScope {
  registration: ServiceWorkerRegistration;
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationClickLike) => void): void;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
}

const scope = self as unknown as WorkerScope;

function messageOf(event: PushEventLike): WebPushMessage | undefined {
  try {
    const message = event.data?.json() as Partial<WebPushMessage> | undefined;
    return typeof message?.title === 'string' && typeof message.body === 'string'
      ? (message as WebPushMessage)
      : undefined;
  } catch {
    return undefined;
  }
}

scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
scope.addEventListener('activate', (event) => event.waitUntil(scope.clients.claim()));

scope.addEventListener('push', (event) => {
  const message = messageOf(event);
  // userVisibleOnly: every push shows something, even one that cannot be read.
  const shown = message ?? { title: 'New message', body: '', tag: 'parley' };
  event.waitUntil(
    scope.registration.showNotification(shown.title, {
      body: shown.body,
      tag: shown.tag,
      ...(message?.icon ? { icon: message.icon } : {}),
      data: message,
    }),
  );
});

scope.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(
    scope.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows[0];
      return open ? open.focus() : scope.clients.openWindow(scope.registration.scope);
    }),
  );
});
