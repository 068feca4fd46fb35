import { afterEach, describe, expect, it } from 'vitest';
import {
  SmtpProviderConfig,
  emailText,
  sendDigestMail,
  type EmailDigest,
} from '../../../server/notifications/providers/smtp.js';
import { SmtpSink } from './mail-and-push.js';

const digest: EmailDigest = {
  to: { uid: 'bob', name: 'Bob Baker' },
  conversationId: 'alice_user_bob',
  subject: 'New messages from Alice',
  messages: [
    { sender: { name: 'Alice' }, message: 'Lunch at noon?' },
    { sender: { name: 'Alice' }, message: '<b>not markup</b>' },
  ],
};

const sinks: SmtpSink[] = [];
afterEach(async () => {
  await Promise.all(sinks.splice(0).map((sink) => sink.close()));
});

async function sink(credentials?: { username: string; password: string }): Promise<SmtpSink> {
  const started = await SmtpSink.start(credentials);
  sinks.push(started);
  return started;
}

const config = (port: number, extra: Partial<SmtpProviderConfig> = {}): SmtpProviderConfig =>
  SmtpProviderConfig.parse({
    isEnabled: true,
    host: '127.0.0.1',
    port,
    fromAddress: 'notifications@chat.example',
    fromName: 'Parley',
    ...extra,
  });

describe('e-mail over SMTP', () => {
  it('delivers the digest to the address with the rendered subject and one line per message', async () => {
    const server = await sink();
    const outcome = await sendDigestMail(config(server.port), digest, 'bob@example.org', 'email:k1', 5_000);
    expect(outcome).toEqual({ ok: true });
    const [mail] = await server.waitForMails(1);
    expect(mail?.envelopeTo).toEqual(['bob@example.org']);
    expect(mail?.parsed.subject).toBe('New messages from Alice');
    expect(mail?.parsed.from?.value).toEqual([{ name: 'Parley', address: 'notifications@chat.example' }]);
    expect(mail?.parsed.to).toMatchObject({ value: [{ name: 'Bob Baker', address: 'bob@example.org' }] });
    expect(mail?.parsed.text).toBe('Alice: Lunch at noon?\nAlice: <b>not markup</b>\n');
    expect(mail?.parsed.html).toBe(false);
  });

  it('logs in with the configured username and password', async () => {
    const server = await sink({ username: 'mailer', password: 's3cret-pass' });
    const outcome = await sendDigestMail(
      config(server.port, { username: 'mailer', password: 's3cret-pass' }),
      digest,
      'bob@example.org',
      'email:k2',
      5_000,
    );
    expect(outcome).toEqual({ ok: true });
    expect(server.logins).toEqual(['mailer:s3cret-pass']);
  });

  it('reports a refused login as a final SMTP status, without the password', async () => {
    const server = await sink({ username: 'mailer', password: 's3cret-pass' });
    const outcome = await sendDigestMail(
      config(server.port, { username: 'mailer', password: 'wrong-pass' }),
      digest,
      'bob@example.org',
      'email:k3',
      5_000,
    );
    expect(outcome).toEqual({ ok: false, retry: false, error: 'SMTP 535' });
    expect(server.mails).toEqual([]);
  });

  it('gives every attempt of one digest the same Message-ID', async () => {
    const server = await sink();
    await sendDigestMail(config(server.port), digest, 'bob@example.org', 'email:same', 5_000);
    await sendDigestMail(config(server.port), digest, 'bob@example.org', 'email:same', 5_000);
    await sendDigestMail(config(server.port), digest, 'bob@example.org', 'email:other', 5_000);
    const mails = await server.waitForMails(3);
    const ids = mails.map((mail) => mail.parsed.messageId);
    expect(ids[0]).toMatch(/@chat\.example>$/);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it('names a connection failure by its code', async () => {
    const server = await sink();
    const port = server.port;
    await server.close();
    sinks.splice(sinks.indexOf(server), 1);
    const outcome = await sendDigestMail(config(port), digest, 'bob@example.org', 'email:k4', 5_000);
    expect(outcome).toMatchObject({
      ok: false,
      retry: true,
      error: expect.stringMatching(/^SMTP failed: E[A-Z]+$/),
    });
  });

  it('renders senders without a name as an empty name, never as an object', () => {
    expect(emailText({ ...digest, messages: [{ sender: { name: 42 }, message: 'hi' }] })).toBe(': hi\n');
  });
});

describe('SMTP provider configuration', () => {
  it('names the field at fault', () => {
    const result = SmtpProviderConfig.safeParse({
      isEnabled: true,
      host: 'mail.example',
      fromAddress: 'nope',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['fromAddress']);
  });

  it('keeps absent members absent, so an update changes only what it names', () => {
    expect(SmtpProviderConfig.partial().parse({ isEnabled: false })).toEqual({ isEnabled: false });
  });
});
