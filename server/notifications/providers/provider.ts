import type { z } from 'zod';
import type { Channel } from '../tables.js';

/**
 * The provider abstraction: how a notification leaves the service on a channel. Each provider kind
 * (CometChat's `custom` webhooks, FCM, APNs, SendGrid, Twilio, and Parley's own `smtp` and
 * `webpush`) declares its configuration schema, which of its fields are secrets (write-only: never
 * answered, logged or shown) or URLs (checked against the destination policy), and how it sends one
 * outbox delivery. `registry.ts` stores the configurations per app; `routes.ts` mounts
 * `GET|POST|PUT|DELETE /notifications/{channel}/v1/providers/{name}` for every kind in
 * `PROVIDER_KINDS` (kinds.ts), so a new kind is added there and nowhere else.
 */

/** A push token registered by a user's device (`POST /notifications/push/v1/tokens`). */
export interface PushToken {
  token: string;
  /** e.g. `fcm_web`, `apns_ios_device`, `web_push`: names the kind that delivers to it. */
  platform: string;
  /** Which configuration of that kind delivers to it (`default`: the kind's default one). */
  providerId: string;
}

/** Who a delivery is for, with what the service knows of how to reach them. */
export interface DeliveryRecipient {
  uid: string;
  name: string | undefined;
  /** From `/notifications/v1/contact-details`. */
  email: string | undefined;
  phone: string | undefined;
  /** The recipient's tokens this provider configuration delivers to (push token kinds only). */
  pushTokens: PushToken[];
}

/** One outbox row handed to one provider configuration. */
export interface ProviderDelivery {
  appId: string;
  channel: Channel;
  /** The same on every attempt: receivers drop repeats by it. */
  idempotencyKey: string;
  /** 1 for the first attempt. */
  attempt: number;
  /**
   * CometChat's webhook payload as stored in the outbox (JSON text): `push-notification-payload-generated`
   * with `data.notificationDetails` for push, `email-|sms-notification-payload-generated` with the
   * rendered `subject`/`smsContent` and `messages` for e-mail and SMS. See `payload.ts` and
   * `digest-sender.ts`; `NotificationPayload` below types what providers read of it.
   */
  body: string;
  payload: NotificationPayload;
  recipient: DeliveryRecipient;
}

/** What providers read of the stored payload. */
export interface NotificationPayload {
  id: string;
  appId: string;
  channel: Channel;
  trigger: string;
  data: {
    to: { uid: string; name?: string };
    /** Push: the rendered title/body and the conversation. */
    notificationDetails?: {
      title: string;
      body: string;
      tag: string;
      conversationId: string;
      type: 'chat' | 'call';
      sound: string;
      [key: string]: unknown;
    };
    /** E-mail: the rendered subject (the digest template). */
    subject?: string;
    /** SMS: the rendered text. */
    smsContent?: string;
    conversationId?: string;
    messages?: Array<{ id: string; message: string; sentAt: number; sender?: unknown }>;
    [key: string]: unknown;
  };
}

/**
 * How one attempt went. `deadTokens` are push tokens the provider's service called invalid or
 * unregistered: they are deleted at once, whatever the outcome. `retry: false` dead-letters the
 * delivery at once (a refusal that repeating cannot fix: bad credentials, no address).
 */
export type SendOutcome =
  { ok: true; deadTokens?: string[] } | { ok: false; error: string; retry: boolean; deadTokens?: string[] };

/** What the engine gives a provider besides its configuration. */
export interface SendContext {
  /**
   * Base URLs of hosted services by name (`fcm`, `googleOAuth`, `apns`, `sendgrid`, `twilio`):
   * their public endpoints unless the operator (or a test's local stand-in) set others.
   */
  baseUrls: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** Epoch ms. */
  now: number;
}

type ConfigOf<Schema extends z.ZodObject> = z.infer<Schema>;

export interface ProviderKind<Schema extends z.ZodObject = z.ZodObject> {
  /** The path segment: `/notifications/{channel}/v1/providers/{name}`. */
  name: string;
  channel: Channel;
  /** What the dashboard calls it. */
  title: string;
  /**
   * Several configurations told apart by `providerId`, one of them the default (FCM, APNs), or
   * exactly one per app (`providerId` is always `default`).
   */
  multiple: boolean;
  /** The configuration as `POST` takes it; `PUT` takes any part of it. */
  schema: Schema;
  /** Write-only fields: stored, used, never answered. */
  secrets: ReadonlyArray<keyof ConfigOf<Schema> & string>;
  /** Fields holding URLs the service will call: refused when private unless the app allows them. */
  urls?: ReadonlyArray<keyof ConfigOf<Schema> & string>;
  /**
   * For push kinds that deliver to registered tokens: each platform it serves, with the field of
   * `POST /notifications/push/v1/tokens` that carries the token. Absent: the kind takes every
   * notification of its channel (custom webhooks, e-mail, SMS).
   */
  platforms?: Readonly<Record<string, string>>;
  /** Why a token offered for one of `platforms` can never be delivered to, or undefined when it may be. */
  checkToken?(token: string): string | undefined;
  /** Whether the configuration delivers now (its `isEnabled`, where it has one). */
  enabled(config: ConfigOf<Schema>): boolean;
  /** A cross-field check after the schema: the field at fault and why, or undefined. */
  refine?(config: ConfigOf<Schema>): { field: string; message: string } | undefined;
  /** A check that needs the network (where a host name leads), after `refine` and the `urls`. */
  checkConfig?(config: ConfigOf<Schema>): Promise<{ field: string; message: string } | undefined>;
  send(config: ConfigOf<Schema>, delivery: ProviderDelivery, context: SendContext): Promise<SendOutcome>;
}

/** Declares a kind with its config type inferred from the schema. */
export const providerKind = <Schema extends z.ZodObject>(kind: ProviderKind<Schema>): ProviderKind =>
  kind as unknown as ProviderKind;

/** Why a fetch failed, without the URL or body (which may hold secrets). */
export function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `timed out after ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return `connection failed: ${cause.code}`;
  return 'request failed';
}

/** 5xx and 429 are worth repeating; other refusals are not. */
export const retryable = (status: number): boolean => status >= 500 || status === 429 || status === 408;
