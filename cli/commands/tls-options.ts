import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { described, SETTINGS, type ChatTlsConfig } from '../config.js';

/** The chat service's TLS options: shared by `start` and `chat-server`, which both run it. */
export const chatTlsOptions = (command: Command): Command =>
  command
    .addOption(
      new Option(
        '--tls',
        described(
          'also serve https/wss on the chat port, with a self-signed localhost certificate',
          SETTINGS.tls,
        ),
      ),
    )
    .addOption(new Option('--tls-cert <file>', 'serve https/wss with this certificate (PEM) instead'))
    .addOption(new Option('--tls-key <file>', 'the key (PEM) of --tls-cert'))
    .addOption(
      new Option(
        '--public-host <host:port>',
        described('where clients reach the chat service, if not where they connect', SETTINGS.publicHost),
      ),
    );

/**
 * The certificate the configuration asks for: the given PEM pair, a self-signed one, or none. Throws a
 * plain Error, not commander's InvalidArgumentError, so the CLI prints the message instead of exiting silently.
 */
export function chatCertificate(
  options: ChatTlsConfig,
): { key: string; cert: string } | 'self-signed' | undefined {
  if (options.tlsCert !== undefined && options.tlsKey !== undefined) {
    return { cert: readPem(options.tlsCert, '--tls-cert'), key: readPem(options.tlsKey, '--tls-key') };
  }
  return options.tls ? 'self-signed' : undefined;
}

function readPem(file: string, option: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new Error(`${option}: cannot read ${file} (${reason}).`);
  }
}

/** The chat service's https address when it serves TLS (on the same port as http). */
export function secureUrlOf(chat: { url: string; tls?: { certPath?: string } }): string | undefined {
  return chat.tls === undefined ? undefined : chat.url.replace(/^http:/, 'https:');
}
