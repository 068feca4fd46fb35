import { z } from 'zod';
import { HttpUrl } from '../../../shared/interactive.js';
import { IDEMPOTENCY_HEADER, SIGNATURE_HEADER, signWebhookBody } from '../signature.js';
import type { Channel } from '../tables.js';
import {
  failureOf,
  providerKind,
  type ProviderKind,
  type ProviderDelivery,
  type SendOutcome,
} from './provider.js';

/**
 * CometChat's custom providers: the app's own webhook per channel, called with CometChat's payload,
 * optionally with HTTP basic authentication. Parley adds an optional `signingSecret`: the body is
 * then signed (`X-Parley-Signature`, see signature.ts) so receivers can tell the call is ours.
 * Only a 2xx answer counts as delivered; redirects are not followed.
 */

export const ATTEMPT_HEADER = 'x-parley-delivery-attempt';
/** CometChat's limit on webhook URLs. */
export const MAX_WEBHOOK_URL_LENGTH = 255;
/** Short secrets make the signature guessable. */
export const MIN_SIGNING_SECRET_LENGTH = 16;

const CustomProvider = z.strictObject({
  isEnabled: z.boolean({ error: 'must be true or false' }),
  webhookURL: HttpUrl.max(
    MAX_WEBHOOK_URL_LENGTH,
    `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`,
  ).refine(
    // Credentials in the URL would be answered with it: they belong in the write-only fields.
    (url) => !/^[a-z]+:\/\/[^/?#]*@/i.test(url),
    'must not carry credentials: use useBasicAuth with basicAuthUsername and basicAuthPassword',
  ),
  useBasicAuth: z.boolean({ error: 'must be true or false' }),
  basicAuthUsername: z
    .string({ error: 'must be a string' })
    .max(256, 'must be at most 256 characters')
    .optional(),
  basicAuthPassword: z
    .string({ error: 'must be a string' })
    .max(256, 'must be at most 256 characters')
    .optional(),
  signingSecret: z
    .string({ error: 'must be a string' })
    .min(MIN_SIGNING_SECRET_LENGTH, `must be at least ${MIN_SIGNING_SECRET_LENGTH} characters`)
    .max(256, 'must be at most 256 characters')
    .optional(),
});

type CustomConfig = z.infer<typeof CustomProvider> & { useStoredEmailID?: boolean; useStoredPhNo?: boolean };

function basicAuthRefusal(config: CustomConfig): { field: string; message: string } | undefined {
  if (!config.useBasicAuth) return undefined;
  if (
    config.basicAuthUsername === undefined ||
    config.basicAuthUsername === '' ||
    config.basicAuthUsername.includes(':')
  )
    return { field: 'basicAuthUsername', message: 'required with useBasicAuth, without ":"' };
  if (config.basicAuthPassword === undefined || config.basicAuthPassword === '')
    return { field: 'basicAuthPassword', message: 'required with useBasicAuth' };
  return undefined;
}

/** The body sent: the stored payload, with the recipient's stored address where the provider asked for it. */
function bodyFor(config: CustomConfig, delivery: ProviderDelivery): string {
  const { recipient } = delivery;
  if (config.useStoredEmailID === true || config.useStoredPhNo === true) {
    const to = { ...delivery.payload.data.to } as Record<string, unknown>;
    if (config.useStoredEmailID === true) to.email = recipient.email;
    if (config.useStoredPhNo === true) to.phno = recipient.phone;
    return JSON.stringify({ ...delivery.payload, data: { ...delivery.payload.data, to } });
  }
  return delivery.body;
}

async function callWebhook(
  config: CustomConfig,
  delivery: ProviderDelivery,
  timeoutMs: number,
  now: number,
): Promise<SendOutcome> {
  if (config.useStoredEmailID === true && delivery.recipient.email === undefined)
    return { ok: false, retry: false, error: 'the recipient has no stored e-mail address' };
  if (config.useStoredPhNo === true && delivery.recipient.phone === undefined)
    return { ok: false, retry: false, error: 'the recipient has no stored phone number' };
  const body = bodyFor(config, delivery);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'parley-notifications',
    [IDEMPOTENCY_HEADER]: delivery.idempotencyKey,
    [ATTEMPT_HEADER]: String(delivery.attempt),
  };
  if (config.signingSecret !== undefined)
    headers[SIGNATURE_HEADER] = signWebhookBody(config.signingSecret, body, Math.floor(now / 1000));
  if (config.useBasicAuth)
    headers.authorization = `Basic ${Buffer.from(`${config.basicAuthUsername ?? ''}:${config.basicAuthPassword ?? ''}`).toString('base64')}`;
  try {
    const response = await fetch(config.webhookURL, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers,
      body,
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { ok: true };
    return { ok: false, retry: true, error: `HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, retry: true, error: failureOf(error, timeoutMs) };
  }
}

const TITLES: Record<Channel, string> = {
  push: 'Custom push webhook',
  email: 'Custom e-mail webhook',
  sms: 'Custom SMS webhook',
};

function customKind<Schema extends z.ZodObject>(channel: Channel, schema: Schema): ProviderKind {
  return providerKind({
    name: 'custom',
    channel,
    title: TITLES[channel],
    multiple: false,
    schema,
    secrets: ['basicAuthPassword', 'signingSecret'],
    urls: ['webhookURL'],
    enabled: (config) => (config as CustomConfig).isEnabled,
    refine: (config) => basicAuthRefusal(config as CustomConfig),
    send: (config, delivery, context) =>
      callWebhook(config as CustomConfig, delivery, context.timeoutMs, context.now),
  });
}

export const customPush = customKind('push', CustomProvider);
export const customEmail = customKind(
  'email',
  CustomProvider.extend({ useStoredEmailID: z.boolean({ error: 'must be true or false' }) }),
);
export const customSms = customKind(
  'sms',
  CustomProvider.extend({ useStoredPhNo: z.boolean({ error: 'must be true or false' }) }),
);
