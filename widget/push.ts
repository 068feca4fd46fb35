import type { ChatClient } from '../shared/chat-client/index.js';

/**
 * Web Push for the visitor, loaded only when a page turns it on: asks the browser's permission
 * (only when `ask`: a page does so from a click), registers the widget's service worker, subscribes
 * with the app's VAPID key and registers the subscription as this session's push token.
 */

/** What came of it: `granted` once the subscription is registered. */
export type PushPermission = NotificationPermission | 'unsupported';

function supported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const bytes = new Uint8Array(a);
  return bytes.every((byte, index) => byte === b[index]);
}

/** Push subscriptions need an active worker; a fresh registration is still installing. */
async function activated(registration: ServiceWorkerRegistration): Promise<void> {
  const worker = registration.installing ?? registration.waiting;
  if (registration.active || !worker) return;
  await new Promise<void>((resolve) => {
    const check = (): void => {
      if (worker.state !== 'activated') return;
      worker.removeEventListener('statechange', check);
      resolve();
    };
    worker.addEventListener('statechange', check);
    check();
  });
}

export async function enableWebPush(
  client: ChatClient,
  serviceWorkerUrl: string,
  ask: boolean,
): Promise<PushPermission> {
  if (!supported()) return 'unsupported';
  const permission = ask ? await Notification.requestPermission() : Notification.permission;
  if (permission !== 'granted') return permission;
  const [registration, publicKey] = await Promise.all([
    navigator.serviceWorker.register(serviceWorkerUrl),
    client.webPushPublicKey(),
  ]);
  await activated(registration);
  const key = keyBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made for another key (the app's keys were replaced) can no longer be used.
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  await client.registerWebPush(subscription.toJSON(), Intl.DateTimeFormat().resolvedOptions().timeZone);
  return 'granted';
}

/** What a loader of this module hands the embed API. */
export interface PushModule {
  enableWebPush: typeof enableWebPush;
}
