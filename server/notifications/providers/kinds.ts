import { apns } from './apns.js';
import { customEmail, customPush, customSms } from './custom.js';
import { fcm } from './fcm.js';
import type { ProviderKind } from './provider.js';
import { sendgrid } from './sendgrid.js';
import { smtpEmail } from './smtp.js';
import { twilio } from './twilio.js';
import { webPush } from './web-push.js';

/**
 * Every provider kind the service knows, in order of precedence: on a channel, the first enabled
 * kind without token platforms takes all of its notifications (the operator's own webhook first);
 * push kinds with platforms deliver to the tokens registered for them.
 */
export const PROVIDER_KINDS: readonly ProviderKind[] = [
  customPush,
  customEmail,
  customSms,
  fcm,
  apns,
  sendgrid,
  twilio,
  smtpEmail,
  webPush,
];

/**
 * The hosted services' public API endpoints (APNs: by each configuration's `productionMode`,
 * unless `apns` is set here).
 */
export const DEFAULT_PROVIDER_BASE_URLS: Readonly<Record<string, string>> = {
  fcm: 'https://fcm.googleapis.com',
  googleOAuth: 'https://oauth2.googleapis.com',
  sendgrid: 'https://api.sendgrid.com',
  twilio: 'https://api.twilio.com',
};
