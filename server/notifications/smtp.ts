import { createHash } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { SmtpProviderConfig } from '../../shared/notification-delivery.js';
import type { AttemptOutcome } from './deliver.js';
import { renderTemplate } from './template.js';

/**
 * E-mail over SMTP: one digest (the email payload the digest sender wrote to the outbox) becomes
 * one plain-text mail. The subject is the app's rendered subject template; the body lists the
 * batch's messages, each line rendered from the message templates (Default or Privacy) already.
 * Plain text only: nothing a sender wrote can become markup in someone's mail client.
 */

/** The parts of an email payload a mail is made of. */
export interface EmailDigest {
  to: { uid: string; name: string };
  conversationId: string;
  subject: string;
  messages: ReadonlyArray<{ sender?: { name?: unknown }; message: string }>;
}

const BODY_TEMPLATE = `{{#lines}}
{{sender}}: {{message}}
{{/lines}}`;

/** The mail's text: one line per message, its sender's name first. */
export function emailText(digest: EmailDigest): string {
  const lines = digest.messages.map(({ sender, message }) => ({
    sender: typeof sender?.name === 'string' ? sender.name : '',
    message,
  }));
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

function failureOf(error: unknown): string {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  if (typeof responseCode === 'number') return `SMTP ${responseCode}`;
  if (typeof code === 'string') return `SMTP failed: ${code}`;
  return 'SMTP failed';
}

/** Sends one digest to `address`; undefined when the server accepted it, otherwise why not. */
export async function sendDigestMail(
  config: SmtpProviderConfig,
  digest: EmailDigest,
  address: string,
  idempotencyKey: string,
  timeoutMs: number,
): Promise<AttemptOutcome> {
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
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
    return undefined;
  } catch (error) {
    return failureOf(error);
  } finally {
    transport.close();
  }
}
