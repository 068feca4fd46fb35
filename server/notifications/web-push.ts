import webpush from 'web-push';
import type { WebPushSubscription } from '../../shared/notification-delivery.js';
import type { WebPushMessage } from '../../shared/web-push.js';
import { failureOf } from './providers/provider.js';
import type { PushDetails } from './payload.js';

/**
 * Web Push (RFC 8030/8291/8292): the web-push library encrypts the message for the browser's keys
 * (aes128gcm) and signs a VAPID token for the push service; the request itself goes out with
 * fetch like every other delivery, with a timeout and no redirects. A 404 or 410 from the push
 * service means the subscription is gone for good: the caller drops it.
 */

/** The app's VAPID key pair (base64url, as web-push generates them) and contact (`mailto:` or https URL). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export type WebPushOutcome =
  | { status: 'delivered' }
  /** The push service no longer knows the subscription. */
  | { status: 'gone'; error: string }
  | { status: 'failed'; error: string };

/** How long the push service keeps an undelivered message for an offline browser. */
const TTL_SECONDS = 86_400;

export function generateVapidKeys(subject: string): VapidKeys {
  return { ...webpush.generateVAPIDKeys(), subject };
}

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
  let request: webpush.RequestDetails;
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
