import { createECDH } from 'node:crypto';
import type { RequestDetails } from 'web-push';
import { z } from 'zod';
import { WEB_PUSH_PLATFORM, type WebPushMessage } from '../../../shared/web-push.js';
import type { PushDetails } from '../payload.js';
import { refusedDestination } from './destination.js';
import { failureOf, providerKind, type SendOutcome } from './provider.js';

/**
 * Parley's Web Push provider (RFC 8030/8291/8292): browsers' push services, reached with the app's
 * VAPID key. Each push token of platform `web_push` is one browser's subscription
 * (`PushSubscription.toJSON()` as JSON text). The web-push library encrypts the message for the
 * browser's keys (aes128gcm) and signs the VAPID token; the request goes out with fetch like every
 * other delivery (timeout, no redirects). Subscriptions a push service no longer knows (404, 410),
 * and ones that are not subscriptions or point at this machine's network, are pruned.
 */

const P256_PRIVATE_KEY_BYTES = 32;
/** How long the push service keeps a message for a browser that is offline. */
const TTL_SECONDS = 86_400;

/** The public key of a VAPID private key (both base64url), or undefined when it is not a P-256 key. */
export function vapidPublicKeyOf(privateKey: string): string | undefined {
  const bytes = Buffer.from(privateKey, 'base64url');
  if (bytes.length !== P256_PRIVATE_KEY_BYTES) return undefined;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(bytes);
    return ecdh.getPublicKey().toString('base64url');
  } catch {
    return undefined;
  }
}

const WebPushProvider = z.strictObject({
  isEnabled: z.boolean({ error: 'must be true or false' }),
  /** How push services reach whoever runs the app: a `mailto:` address or an https URL. */
  vapidSubject: z
    .string({ error: 'must be a string' })
    .max(256, 'must be at most 256 characters')
    .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'must be a mailto: address or an https URL'),
  /** The app's VAPID private key (base64url P-256, e.g. from `npx web-push generate-vapid-keys`). */
  vapidPrivateKey: z.string({ error: 'must be a string' }).max(64, 'must be at most 64 characters'),
  /**
   * Push service origins allowed although they are on a loopback or private network (a push
   * service of your own); browsers' public push services need no entry.
   */
  allowedEndpointOrigins: z
    .array(z.url({ error: 'must be an origin such as https://push.example' }))
    .max(20, 'at most 20 origins')
    .optional(),
});
type WebPushConfig = z.infer<typeof WebPushProvider>;

const base64url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url text');

/** `PushSubscription.toJSON()` as a browser gives it: where to push, and the keys to encrypt for. */
export const WebPushSubscription = z.object({
  endpoint: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url.max(200), auth: base64url.max(100) }),
});
export type WebPushSubscription = z.infer<typeof WebPushSubscription>;

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export type WebPushOutcome =
  | { status: 'delivered' }
  /** The subscription can never be delivered to again. */
  | { status: 'gone'; error: string }
  | { status: 'failed'; error: string };

/** The notification the service worker shows, from a push payload's details. */
export function webPushMessageOf(details: PushDetails): WebPushMessage {
  return {
    title: details.title,
    body: details.body,
    tag: details.tag,
    ...(details.senderAvatar !== undefined ? { icon: details.senderAvatar } : {}),
    conversationId: details.conversationId,
    sender: details.sender,
    receiver: details.receiver,
    receiverType: details.receiverType,
    type: details.type,
    sentAt: details.sentAt,
  };
}

export async function sendWebPush(
  subscription: WebPushSubscription,
  message: WebPushMessage,
  vapid: VapidKeys,
  timeoutMs: number,
): Promise<WebPushOutcome> {
  // Loaded at the first push: most processes never send one.
  const { default: webpush } = await import('web-push');
  let request: RequestDetails;
  try {
    request = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: subscription.keys },
      JSON.stringify(message),
      { vapidDetails: vapid, TTL: TTL_SECONDS, contentEncoding: 'aes128gcm' },
    );
  } catch {
    // Keys that are not a P-256 point: no push can ever be encrypted for this subscription.
    return { status: 'gone', error: 'the subscription keys are not valid' };
  }
  try {
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body === null ? undefined : new Uint8Array(request.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { status: 'delivered' };
    const error = `HTTP ${response.status}`;
    return response.status === 404 || response.status === 410
      ? { status: 'gone', error }
      : { status: 'failed', error };
  } catch (error) {
    return { status: 'failed', error: failureOf(error, timeoutMs) };
  }
}

const NOT_A_SUBSCRIPTION = 'must be a browser push subscription as JSON: {endpoint, keys: {p256dh, auth}}';

function parseSubscription(token: string): WebPushSubscription | undefined {
  try {
    const parsed = WebPushSubscription.safeParse(JSON.parse(token));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A token's subscription, why it can never be delivered to, or why not now (its host is not found). */
async function subscriptionOf(
  token: string,
  config: WebPushConfig,
): Promise<WebPushSubscription | { refused: string } | { unreachable: string }> {
  const subscription = parseSubscription(token);
  if (subscription === undefined) return { refused: 'not a Web Push subscription' };
  const endpoint = new URL(subscription.endpoint);
  const allowed = (config.allowedEndpointOrigins ?? []).map((origin) => new URL(origin).origin);
  if (endpoint.protocol !== 'https:' && !allowed.includes(endpoint.origin))
    return { refused: 'the endpoint is not https' };
  const refused = await refusedDestination(endpoint.href, allowed);
  if (refused === undefined) return subscription;
  // A name that does not resolve now may again later (DNS trouble): not a reason to drop the browser.
  if (refused.startsWith('host not found')) return { unreachable: refused };
  return { refused: 'the endpoint is on a private network' };
}

async function sendToBrowsers(
  config: WebPushConfig,
  details: PushDetails | undefined,
  tokens: readonly string[],
  timeoutMs: number,
): Promise<SendOutcome> {
  const publicKey = vapidPublicKeyOf(config.vapidPrivateKey);
  if (publicKey === undefined) return { ok: false, retry: false, error: 'the VAPID key is not valid' };
  if (details === undefined) return { ok: false, retry: false, error: 'no notification details' };
  const vapid = { publicKey, privateKey: config.vapidPrivateKey, subject: config.vapidSubject };
  const message = webPushMessageOf(details);
  const outcomes = await Promise.all(
    tokens.map(async (token) => {
      const subscription = await subscriptionOf(token, config);
      if ('refused' in subscription) return { token, status: 'gone' as const, error: subscription.refused };
      if ('unreachable' in subscription)
        return { token, status: 'failed' as const, error: subscription.unreachable };
      return { token, ...(await sendWebPush(subscription, message, vapid, timeoutMs)) };
    }),
  );
  const deadTokens = outcomes.filter((o) => o.status === 'gone').map((o) => o.token);
  const failed = outcomes.find((o) => o.status === 'failed');
  // A retry pushes to every browser again: the worker shows it once, replacing by tag.
  if (failed !== undefined && 'error' in failed)
    return { ok: false, retry: true, error: failed.error, deadTokens };
  if (deadTokens.length === tokens.length) {
    const error = outcomes.find((o) => 'error' in o)?.error ?? 'no subscription';
    return { ok: false, retry: false, error: `every subscription is gone (${error})`, deadTokens };
  }
  return { ok: true, deadTokens };
}

export const webPush = providerKind({
  name: 'webpush',
  channel: 'push',
  title: 'Web Push (VAPID)',
  multiple: false,
  schema: WebPushProvider,
  secrets: ['vapidPrivateKey'],
  platforms: { [WEB_PUSH_PLATFORM]: 'webPushSubscription' },
  checkToken: (token) => (parseSubscription(token) === undefined ? NOT_A_SUBSCRIPTION : undefined),
  enabled: (config) => config.isEnabled,
  refine: (config) =>
    vapidPublicKeyOf(config.vapidPrivateKey) === undefined
      ? { field: 'vapidPrivateKey', message: 'must be a base64url P-256 private key (32 bytes)' }
      : undefined,
  send: (config, delivery, context) =>
    sendToBrowsers(
      config,
      delivery.payload.data.notificationDetails as PushDetails | undefined,
      delivery.recipient.pushTokens.map((token) => token.token),
      context.timeoutMs,
    ),
});
