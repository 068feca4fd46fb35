import { Option, type Command } from 'commander';
import {
  chatServerConfig,
  DEFAULT_CHAT_HOST,
  DEFAULT_CHAT_PORT,
  DEFAULT_CHAT_RATE_LIMIT,
  DEFAULT_MEDIA_URL_TTL_SECONDS,
  DEFAULT_PRESENCE_TTL_SECONDS,
  DEFAULT_REDIS_PREFIX,
  described,
  SETTINGS,
  type ChatServerFlags,
} from '../config.js';
import { NOTIFICATION_DELIVERY_SETTINGS, NOTIFICATION_PROVIDER_SETTINGS, S3_SETTINGS } from '../settings.js';
import { dataDirOf, settingOptions, untilStopped } from './options.js';
import { shownKey } from './shown-keys.js';
import { chatCertificate, chatTlsOptions, secureUrlOf } from './tls-options.js';

export function registerChatServerCommand(program: Command): void {
  const summary = 'run the chat service (CometChat REST API v3)';
  const command = chatTlsOptions(
    program
      .command('chat-server')
      .summary(summary)
      .description(
        `${summary}.\n` +
          'Chats are kept in <data dir>/chat.db, or in PostgreSQL when DATABASE_URL=postgres://… is set.\n' +
          'Without --app-id a demo app is created once. A key is printed in full only by the start that\n' +
          'created it; keys given or kept in the data dir are shown by fingerprint.',
      ),
  )
    .addOption(
      new Option('--port <port>', described('port to listen on', SETTINGS.chatPort, DEFAULT_CHAT_PORT)),
    )
    .addOption(
      new Option('--host <host>', described('address to bind', SETTINGS.chatHost, DEFAULT_CHAT_HOST)),
    )
    .addOption(new Option('--app-id <id>', described('create or update this app at start', SETTINGS.appId)))
    .addOption(new Option('--api-key <key>', described('its fullAccess REST API key', SETTINGS.apiKey)))
    .addOption(
      new Option('--auth-key <key>', described('its authOnly key for client login', SETTINGS.authKey)),
    )
    .addOption(
      new Option(
        '--rate-limit <perMinute>',
        described(
          'standard requests per minute per app (core operations: half), or off',
          SETTINGS.chatRateLimit,
          DEFAULT_CHAT_RATE_LIMIT,
        ),
      ),
    )
    .addOption(
      new Option(
        '--redis-url <url>',
        described('joins the processes given the same Redis and PostgreSQL', SETTINGS.redisUrl),
      ),
    )
    .addOption(
      new Option(
        '--redis-prefix <prefix>',
        described('starts every Redis key and channel', SETTINGS.redisPrefix, DEFAULT_REDIS_PREFIX),
      ),
    )
    .addOption(
      new Option(
        '--presence-ttl <seconds>',
        described(
          "with Redis: how long a dead process's sockets count as online",
          SETTINGS.presenceTtl,
          DEFAULT_PRESENCE_TTL_SECONDS,
        ),
      ),
    )
    .addOption(
      new Option(
        '--media-url-ttl <seconds>',
        described(
          'how long a signed attachment URL stays valid',
          SETTINGS.mediaUrlTtl,
          DEFAULT_MEDIA_URL_TTL_SECONDS,
        ),
      ),
    );
  settingOptions(command, S3_SETTINGS);
  settingOptions(command, NOTIFICATION_PROVIDER_SETTINGS);
  settingOptions(command, NOTIFICATION_DELIVERY_SETTINGS);
  command.action(async (flags: ChatServerFlags, invoked: Command) => {
    const options = chatServerConfig(flags, process.env);
    const tls = chatCertificate(options);
    // Loaded when the command runs, so `parley --help` starts without the database drivers.
    const { startChatServer, trustHint } = await import('../../server/index.js');
    const server = await startChatServer({
      port: options.port,
      host: options.host,
      dataDir: dataDirOf(invoked),
      databaseUrl: options.databaseUrl,
      redisUrl: options.redisUrl,
      redisPrefix: options.redisPrefix,
      presenceTtlMs: options.presenceTtlMs,
      s3: options.s3,
      mediaUrlTtlSeconds: options.mediaUrlTtlSeconds,
      notifications: {
        providerBaseUrls: options.providerBaseUrls,
        concurrency: options.notificationConcurrency,
      },
      secretKey: options.secretKey,
      tls,
      publicHost: options.publicHost,
      rateLimits: options.rateLimits,
      app: options.app,
    });
    const { app, apiKey, authKey, generated } = server.seeded;
    const secureUrl = secureUrlOf(server);
    process.stdout.write(
      [
        `Chat service listening on ${server.url}${secureUrl === undefined ? '' : ` and ${secureUrl}`} (REST API: ${server.url}/v3)`,
        `App ${app.appId}: apikey (fullAccess) ${shownKey(apiKey, generated.apiKey)}, ` +
          `auth key (authOnly) ${shownKey(authKey, generated.authKey)}`,
        ...(server.tls?.certPath === undefined ? [] : [trustHint(server.tls.certPath)]),
        '',
      ].join('\n'),
    );
    await untilStopped();
    await server.close();
  });
}
