import { createHash, createPrivateKey } from 'node:crypto';
import { connect, constants } from 'node:http2';
import { importPKCS8, SignJWT } from 'jose';
import { z } from 'zod';
import {
  failureOf,
  providerKind,
  retryable,
  type ProviderDelivery,
  type SendContext,
  type SendOutcome,
} from './provider.js';

/**
 * Apple Push Notification service over HTTP/2 (APNs speaks nothing else) with token-based
 * authentication: an ES256 JWT from the .p8 key, reused for 50 minutes (Apple refuses tokens
 * refreshed more often than every 20 minutes and older than an hour). One request per device
 * token; 410 Unregistered and BadDeviceToken prune the token.
 */

const JWT_REUSE_MS = 50 * 60_000;

const ApnsProvider = z.strictObject({
  keyId: z.string({ error: 'required' }).regex(/^[A-Z0-9]{10}$/, 'the 10-character key id'),
  teamId: z.string({ error: 'required' }).regex(/^[A-Z0-9]{10}$/, 'the 10-character team id'),
  bundleId: z.string({ error: 'required' }).regex(/^[A-Za-z0-9.-]{1,155}$/, "the app's bundle id"),
  p8KeyFilename: z.string({ error: 'must be a string' }).max(255).optional(),
  p8Key: z.string({ error: 'required' }).max(4096),
  includeContentAvailable: z.boolean({ error: 'must be true or false' }).default(false),
  includeMutableContent: z.boolean({ error: 'must be true or false' }).default(false),
  productionMode: z.boolean({ error: 'must be true or false' }).default(false),
});
type ApnsConfig = z.infer<typeof ApnsProvider>;

const DEVICE = [
  'apns_ios_device',
  'apns_flutter_device',
  'apns_react_native_device',
  'apns_ionic_cordova_device',
];
const VOIP = ['apns_ios_voip', 'apns_flutter_voip', 'apns_ionic_cordova_voip', 'apns_react_native_voip'];

const jwts = new Map<string, { jwt: string; madeAt: number }>();

async function providerToken(config: ApnsConfig, now: number): Promise<string> {
  // A replaced key under the same key id must not reuse the old key's token.
  const key = createHash('sha256').update(`${config.teamId}|${config.keyId}|${config.p8Key}`).digest('hex');
  const cached = jwts.get(key);
  if (cached !== undefined && now - cached.madeAt < JWT_REUSE_MS) return cached.jwt;
  const jwt = await new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: config.keyId })
    .setIssuer(config.teamId)
    .setIssuedAt(Math.floor(now / 1000))
    .sign(await importPKCS8(config.p8Key, 'ES256'));
  jwts.set(key, { jwt, madeAt: now });
  return jwt;
}

function bodyFor(config: ApnsConfig, delivery: ProviderDelivery, voip: boolean): string {
  const details = delivery.payload.data.notificationDetails;
  const aps: Record<string, unknown> = {};
  if (!voip && details !== undefined) {
    aps.alert = { title: details.title, body: details.body };
    aps.sound = details.sound;
    aps['thread-id'] = details.conversationId;
  }
  if (config.includeContentAvailable) aps['content-available'] = 1;
  if (config.includeMutableContent) aps['mutable-content'] = 1;
  return JSON.stringify({
    aps,
    id: delivery.idempotencyKey,
    ...(details === undefined ? {} : { notificationDetails: details }),
  });
}

interface Answer {
  status: number;
  reason: string | undefined;
}

function post(
  base: string,
  path: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const session = connect(base);
    const timer = setTimeout(() => {
      session.destroy();
      reject(Object.assign(new Error('timeout'), { name: 'TimeoutError' }));
    }, timeoutMs);
    const fail = (error: unknown) => {
      clearTimeout(timer);
      session.destroy();
      reject(error instanceof Error ? error : new Error('request failed'));
    };
    session.on('error', fail);
    const stream = session.request({
      [constants.HTTP2_HEADER_METHOD]: 'POST',
      [constants.HTTP2_HEADER_PATH]: path,
      'content-type': 'application/json',
      ...headers,
    });
    let status = 0;
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (responseHeaders) => {
      status = Number(responseHeaders[constants.HTTP2_HEADER_STATUS]);
    });
    stream.on('data', (chunk: string) => (text += chunk));
    stream.on('error', fail);
    stream.on('end', () => {
      clearTimeout(timer);
      session.close();
      let reason: string | undefined;
      try {
        const parsed = JSON.parse(text) as { reason?: unknown };
        reason = typeof parsed.reason === 'string' ? parsed.reason : undefined;
      } catch {
        reason = undefined;
      }
      resolve({ status, reason });
    });
    stream.end(body);
  });
}

const DEAD_REASONS = new Set(['BadDeviceToken', 'Unregistered', 'DeviceTokenNotForTopic']);

async function send(
  config: ApnsConfig,
  delivery: ProviderDelivery,
  context: SendContext,
): Promise<SendOutcome> {
  const base =
    context.baseUrls.apns ??
    (config.productionMode ? 'https://api.push.apple.com' : 'https://api.sandbox.push.apple.com');
  const jwt = await providerToken(config, context.now);
  const dead: string[] = [];
  let failure: SendOutcome | undefined;
  for (const { token, platform } of delivery.recipient.pushTokens) {
    const voip = VOIP.includes(platform);
    const details = delivery.payload.data.notificationDetails;
    const headers: Record<string, string> = {
      authorization: `bearer ${jwt}`,
      'apns-topic': voip ? `${config.bundleId}.voip` : config.bundleId,
      'apns-push-type': voip ? 'voip' : 'alert',
      'apns-priority': '10',
    };
    if (details !== undefined) headers['apns-collapse-id'] = details.tag.slice(0, 64);
    try {
      const answer = await post(
        base,
        `/3/device/${encodeURIComponent(token)}`,
        headers,
        bodyFor(config, delivery, voip),
        context.timeoutMs,
      );
      if (answer.status === 200) continue;
      if (answer.status === 410 || DEAD_REASONS.has(answer.reason ?? '')) dead.push(token);
      else
        failure ??= {
          ok: false,
          retry: retryable(answer.status),
          error: `APNs answered HTTP ${answer.status}${answer.reason === undefined ? '' : ` (${answer.reason})`}`,
        };
    } catch (error) {
      failure ??= { ok: false, retry: true, error: `APNs: ${failureOf(error, context.timeoutMs)}` };
    }
  }
  return failure === undefined ? { ok: true, deadTokens: dead } : { ...failure, deadTokens: dead };
}

export const apns = providerKind({
  name: 'apns',
  channel: 'push',
  title: 'Apple Push Notification service',
  multiple: true,
  schema: ApnsProvider,
  secrets: ['p8Key'],
  platforms: Object.fromEntries([
    ...DEVICE.map((platform) => [platform, 'deviceToken']),
    ...VOIP.map((platform) => [platform, 'voipToken']),
  ]),
  enabled: () => true,
  refine: (config) => {
    try {
      const key = createPrivateKey(config.p8Key);
      if (key.asymmetricKeyType === 'ec') return undefined;
    } catch {
      // Reported below.
    }
    return { field: 'p8Key', message: 'the .p8 signing key (an EC private key in PEM)' };
  },
  send,
});
