import {
  ChatClient,
  Emitter,
  type LoginCredentials,
  type Message,
  type UserEntity,
} from '../shared/chat-client/index.js';
import { publicUser } from '../shared/chat-client/index.js';
import { ChatStore } from './chat-store.js';
import { defineElements } from './define.js';
import { cssLength, type ParleyChat } from './parley-chat.js';
import type { PushModule } from './push.js';

/** The embed API (CometChat widget style): `init` → `login` → `launch`. */

export interface InitOptions {
  appID: string;
  appRegion: string;
  /** The app's auth key; needed to log in by UID. */
  authKey?: string;
  /** A Parley chat service, e.g. `https://chat.example.com` (http only for localhost). */
  host?: string;
  /** `en` (default) or `de`. */
  language?: string;
  theme?: 'light' | 'dark' | 'auto';
  /**
   * Web Push to this visitor, off unless given: `enablePushNotifications()` then asks permission
   * and subscribes. `serviceWorker` is the URL of `parley-sw.js` on the page's own origin (browsers
   * take workers from there only); the script build defaults to the file beside its own script.
   */
  pushNotifications?: { serviceWorker?: string };
}

export interface LaunchOptions {
  /** The element to render into (embedded layout); without it the widget is docked. */
  targetElementID?: string;
  isDocked?: boolean;
  dockedAlignment?: 'left' | 'right';
  width?: string;
  height?: string;
  chatType?: 'user' | 'group';
  defaultChatID?: string;
}

export interface WidgetEvents {
  unreadCountChanged: { count: number };
  messageReceived: { message: Message };
}

/** How an entry point loads the push code (kept out of the every-page bundle) and where its worker is. */
export interface PushAssets {
  load(): Promise<PushModule>;
  serviceWorker?: string;
}

interface Setup {
  options: InitOptions;
  store: ChatStore;
  stopForwarding: () => void;
}

const events = new Emitter<WidgetEvents>();
const launched = new Set<ParleyChat>();
let setup: Setup | undefined;
let pushAssets: PushAssets | undefined;

export function usePushAssets(assets: PushAssets): void {
  pushAssets = assets;
}

function ready(): Setup {
  if (!setup) throw new Error('ParleyWidget.init({appID, appRegion, authKey}) must be called first');
  return setup;
}

function whenDomReady(): Promise<void> {
  const doc = globalThis.document;
  if (!doc) return Promise.reject(new Error('ParleyWidget.launch needs a browser page'));
  if (doc.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) => doc.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
}

function requireText(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`ParleyWidget: ${name} is required`);
  return value.trim();
}

async function init(options: InitOptions): Promise<boolean> {
  const appId = requireText(options?.appID, 'appID');
  const region = requireText(options?.appRegion, 'appRegion');
  if (setup) await logout();
  const client = new ChatClient({
    appId,
    region,
    ...(options.authKey ? { authKey: options.authKey } : {}),
    ...(options.host ? { host: options.host } : {}),
  });
  const store = new ChatStore(client);
  const forwards = [
    store.events.on('unreadCountChanged', (count) => events.emit('unreadCountChanged', { count })),
    store.events.on('messageReceived', (message) => events.emit('messageReceived', { message })),
  ];
  setup = { options, store, stopForwarding: () => forwards.forEach((stop) => stop()) };
  defineElements();
  return true;
}

/** Logs a visitor in by UID (with the auth key given to `init`) or by an auth token your server issued. */
async function login(credentials: LoginCredentials): Promise<UserEntity> {
  const { store } = ready();
  if (!credentials || (!('uid' in credentials) && !('authToken' in credentials))) {
    throw new Error('ParleyWidget.login needs {uid} or {authToken}');
  }
  await store.signIn(credentials);
  // A visitor who allowed notifications before gets this session's token without being asked again.
  if (setup?.options.pushNotifications && globalThis.Notification?.permission === 'granted') {
    void webPush(false).catch(() => undefined);
  }
  return publicUser(store.state.me!);
}

async function webPush(ask: boolean): Promise<NotificationPermission | 'unsupported'> {
  const { options, store } = ready();
  if (!options.pushNotifications) {
    throw new Error('ParleyWidget: pass pushNotifications to init to use push notifications');
  }
  const serviceWorker = options.pushNotifications.serviceWorker ?? pushAssets?.serviceWorker;
  if (!pushAssets || !serviceWorker) {
    throw new Error('ParleyWidget: pushNotifications.serviceWorker names the URL of parley-sw.js');
  }
  const { enableWebPush } = await pushAssets.load();
  return enableWebPush(store.client, serviceWorker, ask);
}

function checkLength(value: string | undefined, name: 'width' | 'height'): void {
  if (value !== undefined && cssLength(value) === undefined) {
    throw new Error(
      `ParleyWidget.launch: ${name} "${value}" is not a CSS length such as 380px, 100% or 80vh`,
    );
  }
}

async function launch(options: LaunchOptions = {}): Promise<void> {
  const { options: initOptions, store } = ready();
  checkLength(options.width, 'width');
  checkLength(options.height, 'height');
  await whenDomReady();
  const doc = globalThis.document;
  const target = options.targetElementID ? doc.getElementById(options.targetElementID) : null;
  if (options.targetElementID && !target) {
    throw new Error(`ParleyWidget.launch: no element with id "${options.targetElementID}"`);
  }
  const widget = doc.createElement('parley-chat');
  widget.store = store;
  widget.docked = options.isDocked ?? !target;
  widget.alignment = options.dockedAlignment === 'left' ? 'left' : 'right';
  if (options.width) widget.width = options.width;
  if (options.height) widget.height = options.height;
  if (initOptions.language) widget.language = initOptions.language;
  widget.theme = initOptions.theme ?? 'light';
  if (options.chatType && options.defaultChatID) {
    widget.chatType = options.chatType;
    widget.chatId = options.defaultChatID;
    if (store.state.phase === 'ready') void store.open({ type: options.chatType, id: options.defaultChatID });
  }
  (target ?? doc.body).append(widget);
  launched.add(widget);
}

/**
 * Logs out: the session's push tokens are unregistered, the session ends on the service, the stored
 * token is removed and the widget leaves the page.
 */
async function logout(): Promise<void> {
  const current = setup;
  for (const widget of launched) widget.remove();
  launched.clear();
  if (!current) return;
  // This browser stops receiving the visitor's notifications once they log out.
  if (current.options.pushNotifications && current.store.state.me) {
    await current.store.client.unregisterPushTokens().catch(() => undefined);
  }
  await current.store.signOut();
}

async function openConversation(type: 'user' | 'group', id: string): Promise<void> {
  const target = { type, id: requireText(id, type === 'user' ? 'uid' : 'guid') };
  const widget = [...launched][0];
  if (widget) return widget.openConversation(target);
  return ready().store.open(target);
}

export const ParleyWidget = {
  init,
  login,
  launch,
  logout,
  /**
   * Asks the visitor's permission for notifications (call it from a click) and subscribes this
   * browser; resolves to `granted`, `denied`, `default` (dismissed) or `unsupported`.
   */
  enablePushNotifications: () => webPush(true),
  chatWithUser: (uid: string) => openConversation('user', uid),
  chatWithGroup: (guid: string) => openConversation('group', guid),
  /** Listens to `unreadCountChanged` or `messageReceived`; returns the function that stops listening. */
  on: <K extends keyof WidgetEvents>(event: K, listener: (payload: WidgetEvents[K]) => void) =>
    events.on(event, listener),
};
