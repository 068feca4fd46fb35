import { createHash } from 'node:crypto';
import { z } from 'zod';
import { renderTemplate } from '../template.js';
import { refusedDestination } from './destination.js';
import { providerKind, type SendOutcome } from './provider.js';

/**
 * Parley's SMTP provider: e-mail through the operator's own mail server (what a self-hoster has).
 * One digest (the email payload the digest sender wrote to the outbox) becomes one plain-text mail
 * to the recipient's stored e-mail address: the subject is the app's rendered subject template,
 * the body lists the batch's messages, each line already rendered from the message templates
 * (Default or Privacy). Plain text only: nothing a sender wrote can become markup in a mail client.
 */

/**
 * The SMTP provider as an operator writes it; `password` is write-only (never answered). No member
 * has a schema default: an update names only what changes, and the rest stays as stored.
 */
export const SmtpProviderConfig = z.strictObject({
  isEnabled: z.boolean({ error: 'must be true or false' }),
  host: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'names the SMTP server')
    .max(253)
    .refine(
      (host) => z.hostname().safeParse(host).success || z.ipv6().safeParse(host).success,
      'must be a host name or an IP address (IPv6 without brackets)',
    ),
  /** Default 587 (submission). */
  port: z
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .max(65_535, 'must be a port from 1 to 65535')
    .optional(),
  /** TLS from the first byte (port 465); otherwise (default) STARTTLS whenever the server offers it. */
  secure: z.boolean({ error: 'must be true or false' }).optional(),
  username: z.string({ error: 'must be a string' }).min(1).max(256).optional(),
  password: z.string({ error: 'must be a string' }).min(1).max(256).optional(),
  fromAddress: z.email({ error: 'must be an e-mail address' }),
  fromName: z.string({ error: 'must be a string' }).trim().min(1).max(200).optional(),
  /** A host on a loopback or private network (a relay on this machine) is refused unless this is true. */
  allowPrivateNetwork: z.boolean({ error: 'must be true or false' }).optional(),
});
export type SmtpProviderConfig = z.infer<typeof SmtpProviderConfig>;

/** The parts of an email payload a mail is made of. */
export interface EmailDigest {
  to: { uid: string; name: string };
  conversationId: string;
  subject: string;
  messages: ReadonlyArray<{ sender?: unknown; message: string }>;
}

const SUBMISSION_PORT = 587;

/** An IPv6 literal goes in brackets in a URL. */
const hostInUrl = (host: string): string => (host.includes(':') ? `[${host}]` : host);

const BODY_TEMPLATE = `{{#lines}}
{{sender}}: {{message}}
{{/lines}}`;

function nameOf(sender: unknown): string {
  const name =
    typeof sender === 'object' && sender !== null ? (sender as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '';
}

/** The mail's text: one line per message, its sender's name first. */
export function emailText(digest: EmailDigest): string {
  const lines = digest.messages.map(({ sender, message }) => ({ sender: nameOf(sender), message }));
  return renderTemplate(BODY_TEMPLATE, { lines });
}

/**
 * The same Message-ID on every attempt of one digest, so a mail sent twice (the process died
 * before it recorded the first) is one message to mail clients.
 */
function messageIdOf(idempotencyKey: string, fromAddress: string): string {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1);
  return `<${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}@${domain}>`;
}

/** An SMTP refusal: 5xx (bad login, no such mailbox) is final, 4xx and lost connections are worth repeating. */
function failureOf(error: unknown): SendOutcome {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  if (typeof responseCode === 'number')
    return { ok: false, retry: responseCode < 500, error: `SMTP ${responseCode}` };
  return { ok: false, retry: true, error: typeof code === 'string' ? `SMTP failed: ${code}` : 'SMTP failed' };
}

/** Sends one digest to `address`. */
export async function sendDigestMail(
  config: SmtpProviderConfig,
  digest: EmailDigest,
  address: string,
  idempotencyKey: string,
  timeoutMs: number,
): Promise<SendOutcome> {
  // Loaded at the first mail: most processes never send one.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port ?? SUBMISSION_PORT,
    secure: config.secure ?? false,
    ...(config.username !== undefined
      ? { auth: { user: config.username, pass: config.password ?? '' } }
      : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    await transport.sendMail({
      from: { name: config.fromName ?? '', address: config.fromAddress },
      to: { name: digest.to.name, address },
      subject: digest.subject,
      text: emailText(digest),
      messageId: messageIdOf(idempotencyKey, config.fromAddress),
      headers: { 'X-Parley-Conversation': digest.conversationId },
    });
    return { ok: true };
  } catch (error) {
    return failureOf(error);
  } finally {
    transport.close();
  }
}

export const smtpEmail = providerKind({
  name: 'smtp',
  channel: 'email',
  title: 'E-mail over SMTP',
  multiple: false,
  schema: SmtpProviderConfig,
  secrets: ['password'],
  enabled: (config) => config.isEnabled,
  refine: (config) =>
    config.password !== undefined && config.username === undefined
      ? { field: 'username', message: 'required with password' }
      : undefined,
  checkConfig: async (config) => {
    if (config.allowPrivateNetwork === true) return undefined;
    const refused = await refusedDestination(`http://${hostInUrl(config.host)}`, []);
    return refused === undefined
      ? undefined
      : {
          field: 'host',
          message: `${refused.replace(/: a loopback or private address .*$/, '')}; set allowPrivateNetwork to use a mail server on a private network`,
        };
  },
  send: async (config, delivery, context) => {
    const { recipient, payload } = delivery;
    if (recipient.email === undefined)
      return { ok: false, retry: false, error: 'the recipient has no stored e-mail address' };
    const { data } = payload;
    const digest: EmailDigest = {
      to: { uid: recipient.uid, name: recipient.name ?? data.to.name ?? recipient.uid },
      conversationId: data.conversationId ?? '',
      subject: data.subject ?? '',
      messages: data.messages ?? [],
    };
    return sendDigestMail(config, digest, recipient.email, delivery.idempotencyKey, context.timeoutMs);
  },
});
