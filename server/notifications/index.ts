/**
 * The notifications engine: decides who is notified of each chat event (settings, preferences,
 * mutes, schedules), renders titles and bodies from the app's templates, and delivers through the
 * app's providers (webhooks, FCM, APNs, SendGrid, Twilio, …) via a durable outbox.
 */
export { NotificationEngine, type NotificationOptions } from './engine.js';
export { notificationDataOf, type NotificationData } from './data.js';
export { notificationDeliveryRoutes } from './routes.js';
export { notificationTablesMigration } from './migration.js';
export { systemClock, type Clock } from './clock.js';
export { nobodyOnline, storedReadState, type PresenceSource, type ReadStateSource } from './sources.js';
export {
  SIGNATURE_HEADER,
  IDEMPOTENCY_HEADER,
  signWebhookBody,
  verifyWebhookSignature,
} from './signature.js';
export { ATTEMPT_HEADER } from './providers/custom.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
export { SuppressReason } from './reasons.js';
export { PROVIDER_KINDS } from './providers/kinds.js';
export type {
  DeliveryRecipient,
  NotificationPayload,
  ProviderDelivery,
  ProviderKind,
  PushToken,
  SendContext,
  SendOutcome,
} from './providers/provider.js';
export type { ProviderView } from './providers/registry.js';
export type { OutboxRecord } from './outbox.js';
export type { NotificationLog } from './logs.js';
export type { Reaction } from './triggers.js';
export { CHANNELS, type Channel } from './tables.js';
export { withNotificationTables } from './tables.js';
