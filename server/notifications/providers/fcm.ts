import { createHash, createPrivateKey } from 'node:crypto';
import { importPKCS8, SignJWT } from 'jose';
import { z } from 'zod';
import { callApi, refusedBy } from './http.js';
import { providerKind, type ProviderDelivery, type SendContext, type SendOutcome } from './provider.js';

/**
 * Firebase Cloud Messaging (HTTP v1) with a service account: an OAuth access token from a signed
 * JWT assertion (cached until shortly before it expires), then one `messages:send` per token. The
 * message carries the notification details as `data` (strings, as FCM requires), plus a
 * `notification` block where `notificationInPayload` asks for one on that platform. A token FCM
 * calls UNREGISTERED (or an invalid registration) is pruned.
 */

const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

const Toggle = z.strictObject({
  chat: z.boolean({ error: 'must be true or false' }).default(false),
  call: z.boolean({ error: 'must be true or false' }).default(false),
});

const FcmProvider = z.strictObject({
  serviceAccountFilename: z.string({ error: 'must be a string' }).max(255).optional(),
  serviceAccountCreds: z.strictObject(
    {
      project_id: z.string({ error: 'required' }).regex(/^[a-z0-9-]{1,64}$/, 'a Firebase project id'),
      client_email: z.email({ error: 'the service account e-mail address' }),
      private_key: z.string({ error: 'required' }).max(8192),
      private_key_id: z.string({ error: 'required' }).max(128),
    },
    { error: 'the service account JSON: project_id, client_email, private_key, private_key_id' },
  ),
  notificationInPayload: z
    .strictObject({ ios: Toggle.optional(), android: Toggle.optional(), web: Toggle.optional() })
    .optional(),
});
type FcmConfig = z.infer<typeof FcmProvider>;

const PLATFORMS = [
  'fcm_android',
  'fcm_ios',
  'fcm_web',
  'fcm_flutter_android',
  'fcm_flutter_ios',
  'fcm_react_native_android',
  'fcm_react_native_ios',
  'fcm_ionic_cordova_android',
  'fcm_ionic_cordova_ios',
] as const;

const accessTokens = new Map<string, { token: string; expiresAt: number }>();

async function accessToken(config: FcmConfig, context: SendContext): Promise<string | SendOutcome> {
  const creds = config.serviceAccountCreds;
  const cacheKey = createHash('sha256')
    .update(`${context.baseUrls.googleOAuth}|${creds.client_email}|${creds.private_key}`)
    .digest('hex');
  const cached = accessTokens.get(cacheKey);
  if (cached !== undefined && cached.expiresAt - 60_000 > context.now) return cached.token;
  const tokenUrl = `${context.baseUrls.googleOAuth}/token`;
  const nowSeconds = Math.floor(context.now / 1000);
  const assertion = await new SignJWT({ scope: FCM_SCOPE })
    .setProtectedHeader({ alg: 'RS256', kid: creds.private_key_id, typ: 'JWT' })
    .setIssuer(creds.client_email)
    .setAudience(tokenUrl)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + 3600)
    .sign(await importPKCS8(creds.private_key, 'RS256'));
  const answer = await callApi(
    tokenUrl,
    {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
      }).toString(),
    },
    context.timeoutMs,
  );
  if ('failure' in answer) return { ok: false, retry: true, error: `Google OAuth: ${answer.failure}` };
  const json = answer.json as { access_token?: unknown; expires_in?: unknown } | undefined;
  if (answer.status !== 200 || typeof json?.access_token !== 'string')
    return refusedBy('Google OAuth', answer.status, 'the service account was refused');
  const expiresIn = typeof json.expires_in === 'number' ? json.expires_in : 3600;
  accessTokens.set(cacheKey, { token: json.access_token, expiresAt: context.now + expiresIn * 1000 });
  return json.access_token;
}

const platformGroup = (platform: string): 'ios' | 'android' | 'web' =>
  platform.endsWith('_web') ? 'web' : platform.endsWith('_ios') ? 'ios' : 'android';

/** FCM's `data` takes strings only: nested values travel as JSON text. */
function stringData(details: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(details).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}

function messageFor(config: FcmConfig, delivery: ProviderDelivery, token: string, platform: string): unknown {
  const details = delivery.payload.data.notificationDetails;
  if (details === undefined) return { token, data: { id: delivery.idempotencyKey } };
  const toggles = config.notificationInPayload?.[platformGroup(platform)];
  const showNotification = details.type === 'call' ? toggles?.call === true : toggles?.chat === true;
  return {
    token,
    data: stringData({ ...details, id: delivery.idempotencyKey }),
    ...(showNotification ? { notification: { title: details.title, body: details.body } } : {}),
  };
}

/** FCM's error codes for a token that will never work again. */
function isDeadToken(status: number, json: unknown): boolean {
  const error = (
    json as { error?: { status?: unknown; details?: Array<{ errorCode?: unknown }> } } | undefined
  )?.error;
  const codes = [error?.status, ...(error?.details ?? []).map((detail) => detail.errorCode)];
  return (
    status === 404 || codes.includes('UNREGISTERED') || (status === 400 && codes.includes('INVALID_ARGUMENT'))
  );
}

async function send(
  config: FcmConfig,
  delivery: ProviderDelivery,
  context: SendContext,
): Promise<SendOutcome> {
  const bearer = await accessToken(config, context);
  if (typeof bearer !== 'string') return bearer;
  const url = `${context.baseUrls.fcm}/v1/projects/${config.serviceAccountCreds.project_id}/messages:send`;
  const dead: string[] = [];
  let failure: SendOutcome | undefined;
  for (const { token, platform } of delivery.recipient.pushTokens) {
    const answer = await callApi(
      url,
      {
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: messageFor(config, delivery, token, platform) }),
      },
      context.timeoutMs,
    );
    if ('failure' in answer) failure ??= { ok: false, retry: true, error: `FCM: ${answer.failure}` };
    else if (answer.status === 200) continue;
    else if (isDeadToken(answer.status, answer.json)) dead.push(token);
    else failure ??= refusedBy('FCM', answer.status);
  }
  return failure === undefined ? { ok: true, deadTokens: dead } : { ...failure, deadTokens: dead };
}

export const fcm = providerKind({
  name: 'fcm',
  channel: 'push',
  title: 'Firebase Cloud Messaging',
  multiple: true,
  schema: FcmProvider,
  secrets: ['serviceAccountCreds'],
  platforms: Object.fromEntries(PLATFORMS.map((platform) => [platform, 'fcmToken'])),
  enabled: () => true,
  refine: (config) => {
    try {
      const key = createPrivateKey(config.serviceAccountCreds.private_key);
      if (key.asymmetricKeyType === 'rsa') return undefined;
    } catch {
      // Reported below.
    }
    return {
      field: 'serviceAccountCreds.private_key',
      message: "the service account's RSA private key (PEM)",
    };
  },
  send,
});
