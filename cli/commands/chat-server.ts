import { InvalidArgumentError, Option, type Command } from 'commander';
import { dataDirOf, untilStopped } from './options.js';
import { shownKey } from './shown-keys.js';
import { chatCertificate, chatTlsOptions, secureUrlOf, type ChatTlsOptions } from './tls-options.js';

interface ChatServerCommandOptions extends ChatTlsOptions {
  rateLimit: number | false;
  port: number;
  host: string;
  appId?: string;
  apiKey?: string;
  authKey?: string;
  redisUrl?: string;
  redisPrefix: string;
  presenceTtl: number;
}

function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 1) throw new InvalidArgumentError('give at least 1 second.');
  return seconds;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError('give a port from 0 to 65535.');
  return port;
}

/** Standard requests per minute per app, or `off`; core operations get half, as in CometChat's limits. */
function parseRateLimit(value: string): number | false {
  if (value === 'off') return false;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 2)
    throw new InvalidArgumentError('give a whole number of at least 2, or off.');
  return limit;
}

export function registerChatServerCommand(program: Command): void {
  const summary = 'run the chat service (CometChat REST API v3)';
  chatTlsOptions(
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
      new Option('--port <port>', 'port to listen on')
        .env('PARLEY_CHAT_PORT')
        .argParser(parsePort)
        .default(4000),
    )
    .addOption(new Option('--host <host>', 'address to bind').env('PARLEY_CHAT_HOST').default('127.0.0.1'))
    .addOption(new Option('--app-id <id>', 'create or update this app at start').env('PARLEY_APP_ID'))
    .addOption(new Option('--api-key <key>', 'its fullAccess REST API key').env('PARLEY_API_KEY'))
    .addOption(new Option('--auth-key <key>', 'its authOnly key for client login').env('PARLEY_AUTH_KEY'))
    .addOption(
      new Option(
        '--rate-limit <perMinute>',
        'standard requests per minute per app (core operations: half), or off',
      )
        .env('PARLEY_CHAT_RATE_LIMIT')
        .argParser(parseRateLimit)
        .default(20_000),
    )
    .addOption(
      new Option('--redis-url <url>', 'joins the processes given the same Redis and PostgreSQL').env(
        'REDIS_URL',
      ),
    )
    .addOption(
      new Option('--redis-prefix <prefix>', 'starts every Redis key and channel')
        .env('PARLEY_REDIS_PREFIX')
        .default('parley:'),
    )
    .addOption(
      new Option('--presence-ttl <seconds>', "with Redis: how long a dead process's sockets count as online")
        .env('PARLEY_PRESENCE_TTL')
        .argParser(parseSeconds)
        .default(30),
    )
    .action(async (options: ChatServerCommandOptions, command: Command) => {
      if (options.appId === undefined && (options.apiKey !== undefined || options.authKey !== undefined)) {
        throw new Error('--api-key and --auth-key need --app-id (or PARLEY_APP_ID).');
      }
      const tls = chatCertificate(options);
      // Loaded when the command runs, so `parley --help` starts without the database drivers.
      const { startChatServer, trustHint } = await import('../../server/index.js');
      const server = await startChatServer({
        port: options.port,
        host: options.host,
        dataDir: dataDirOf(command),
        databaseUrl: process.env.DATABASE_URL,
        redisUrl: options.redisUrl,
        redisPrefix: options.redisPrefix,
        presenceTtlMs: options.presenceTtl * 1000,
        tls,
        publicHost: options.publicHost,
        rateLimits:
          options.rateLimit === false
            ? false
            : { standardPerMinute: options.rateLimit, corePerMinute: Math.floor(options.rateLimit / 2) },
        app:
          options.appId === undefined
            ? undefined
            : { appId: options.appId, apiKey: options.apiKey, authKey: options.authKey },
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
