/**
 * Web Push as the widget, its service worker and the chat service share it, without zod (the
 * widget's bundle carries none): the server validates subscriptions (server/notifications/providers/web-push.ts).
 */

/** The platform a browser's Web Push subscription is registered under as a push token. */
export const WEB_PUSH_PLATFORM = 'web_push';

/** Where a logged-in client reads the app's VAPID public key (client API, under `/v3`). */
export const WEB_PUSH_KEY_PATH = '/notifications/push/v1/web-push/public-key';

/** What the service worker receives in a push and shows as a notification. */
export interface WebPushMessage {
  title: string;
  body: string;
  /** Replaces an earlier notification with the same tag (edits of one message). */
  tag: string;
  icon?: string;
  conversationId: string;
  sender: string;
  receiver: string;
  receiverType: 'user' | 'group';
  type: 'chat' | 'call';
  sentAt: number;
}
