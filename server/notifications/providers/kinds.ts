import { customEmail, customPush, customSms } from './custom.js';
import type { ProviderKind } from './provider.js';
import { smtpEmail } from './smtp.js';
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
  smtpEmail,
  webPush,
];

/** The hosted services' public API endpoints. */
export const DEFAULT_PROVIDER_BASE_URLS: Readonly<Record<string, string>> = {};
