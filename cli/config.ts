import type { AgentServerConfig } from '../knowledge/server/config.js';
import { agentConfigFromEnv, DEFAULT_AGENT_HOST, DEFAULT_AGENT_PORT } from '../knowledge/server/config.js';
import {
  ConfigError,
  NOTIFICATION_DELIVERY_SETTINGS,
  NOTIFICATION_PROVIDER_SETTINGS,
  readSetting,
  readSettings,
  SECRET_KEY_SETTING,
  S3_SETTINGS,
  type Env,
} from './settings.js';

export { ConfigError, type Env };

/*
 * Every command's configuration, read by pure functions from its flags and the environment:
 * a flag beats its environment variable, which beats the default. Commander only parses the
 * flags; the README's Configuration table lists the same settings.
 */

/** Where a setting comes from: its flag, its environment variable, or both. */
export type SettingSource = { flag: string; env?: string } | { flag?: undefined; env: string };

/** The settings by name: `cli/commands/*` register these flags, the README documents them. */
export const SETTINGS = {
  dataDir: { flag: '--data-dir', env: 'PARLEY_DATA_DIR' },
  namespace: { flag: '--namespace', env: 'PARLEY_NAMESPACE' },
  chatPort: { flag: '--port', env: 'PARLEY_CHAT_PORT' },
  chatHost: { flag: '--host', env: 'PARLEY_CHAT_HOST' },
  agentPort: { flag: '--port', env: 'PARLEY_AGENT_PORT' },
  startAgentPort: { flag: '--agent-port', env: 'PARLEY_AGENT_PORT' },
  agentHost: { flag: '--host', env: 'PARLEY_AGENT_HOST' },
  allowedHost: { flag: '--allowed-host', env: 'AGENT_ALLOWED_HOSTS' },
  allowPrivateNetwork: { env: 'AGENT_ALLOW_PRIVATE_NETWORK' },
  appId: { flag: '--app-id', env: 'PARLEY_APP_ID' },
  apiKey: { flag: '--api-key', env: 'PARLEY_API_KEY' },
  authKey: { flag: '--auth-key', env: 'PARLEY_AUTH_KEY' },
  chatRateLimit: { flag: '--rate-limit', env: 'PARLEY_CHAT_RATE_LIMIT' },
  tls: { flag: '--tls', env: 'PARLEY_TLS' },
  tlsCert: { flag: '--tls-cert' },
  tlsKey: { flag: '--tls-key' },
  publicHost: { flag: '--public-host', env: 'PARLEY_PUBLIC_HOST' },
  // No flag: the URL carries the database password, and a command line is visible to every user.
  databaseUrl: { env: 'DATABASE_URL' },
  redisUrl: { flag: '--redis-url', env: 'REDIS_URL' },
  redisPrefix: { flag: '--redis-prefix', env: 'PARLEY_REDIS_PREFIX' },
  presenceTtl: { flag: '--presence-ttl', env: 'PARLEY_PRESENCE_TTL' },
  mediaUrlTtl: { flag: '--media-url-ttl', env: 'PARLEY_MEDIA_URL_TTL' },
} as const satisfies Record<string, SettingSource>;

export const DEFAULT_DATA_DIR = './.parley';
export const DEFAULT_NAMESPACE = 'default';
export const DEFAULT_CHAT_PORT = 4000;
export const DEFAULT_CHAT_HOST = '127.0.0.1';
export const DEFAULT_CHAT_RATE_LIMIT = 20_000;
export const DEFAULT_REDIS_PREFIX = 'parley:';
export const DEFAULT_PRESENCE_TTL_SECONDS = 30;
export const DEFAULT_MEDIA_URL_TTL_SECONDS = 3_600;

/** A raw value and where it came from: the flag if given, else a non-empty environment variable. */
interface Raw {
  value: string;
  from: string;
}

function raw(source: SettingSource, flag: string | undefined, env: Env): Raw | undefined {
  if (flag !== undefined && source.flag !== undefined) return { value: flag, from: source.flag };
  if (source.env === undefined) return undefined;
  const fromEnv = env[source.env]?.trim();
  return fromEnv ? { value: fromEnv, from: source.env } : undefined;
}

const refuse = (given: Raw, expected: string): never => {
  throw new ConfigError(`${given.from}: "${given.value}" is not ${expected}`);
};

function text(source: SettingSource, flag: string | undefined, env: Env): string | undefined {
  return raw(source, flag, env)?.value;
}

function integer(
  source: SettingSource,
  flag: string | undefined,
  env: Env,
  fallback: number,
  [min, max]: [number, number],
  expected: string,
): number {
  const given = raw(source, flag, env);
  if (given === undefined) return fallback;
  const value = Number(given.value);
  return Number.isInteger(value) && value >= min && value <= max ? value : refuse(given, expected);
}

const port = (source: SettingSource, flag: string | undefined, env: Env, fallback: number): number =>
  integer(source, flag, env, fallback, [0, 65_535], 'a port from 0 to 65535');

/** A switch: the flag turns it on; the variable takes 1/true/yes or 0/false/no. */
function enabled(source: SettingSource, flag: boolean | undefined, env: Env, fallback: boolean): boolean {
  if (flag !== undefined) return flag;
  const given = raw(source, undefined, env);
  if (given === undefined) return fallback;
  const value = given.value.toLowerCase();
  if (['1', 'true', 'yes'].includes(value)) return true;
  if (['0', 'false', 'no'].includes(value)) return false;
  return refuse(given, 'one of 1, true, yes, 0, false, no');
}

/** The data directory every command works in. */
export function dataDirFrom(flags: { dataDir?: string }, env: Env): string {
  return text(SETTINGS.dataDir, flags.dataDir, env) ?? DEFAULT_DATA_DIR;
}

/** The namespace of `ingest`, `search` and `ask`; its form is checked where it is used. */
export function namespaceFrom(flags: { namespace?: string }, env: Env): string {
  return text(SETTINGS.namespace, flags.namespace, env) ?? DEFAULT_NAMESPACE;
}

/** How the chat service serves TLS: the given PEM files, a self-signed certificate, or none. */
export interface ChatTlsConfig {
  tls: boolean;
  tlsCert?: string;
  tlsKey?: string;
  publicHost?: string;
}

export interface ChatTlsFlags {
  tls?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  publicHost?: string;
}

function chatTlsConfig(flags: ChatTlsFlags, env: Env, tlsByDefault: boolean): ChatTlsConfig {
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined)) {
    throw new ConfigError('--tls-cert and --tls-key go together.');
  }
  const publicHost = text(SETTINGS.publicHost, flags.publicHost, env);
  return {
    tls: enabled(SETTINGS.tls, flags.tls, env, tlsByDefault),
    ...(flags.tlsCert === undefined ? {} : { tlsCert: flags.tlsCert }),
    ...(flags.tlsKey === undefined ? {} : { tlsKey: flags.tlsKey }),
    ...(publicHost === undefined ? {} : { publicHost }),
  };
}

export interface ChatServerFlags extends ChatTlsFlags {
  port?: string;
  host?: string;
  appId?: string;
  apiKey?: string;
  authKey?: string;
  rateLimit?: string;
  redisUrl?: string;
  redisPrefix?: string;
  presenceTtl?: string;
  mediaUrlTtl?: string;
  /** The flags of the table-driven settings (`S3_SETTINGS`, `NOTIFICATION_*_SETTINGS`), by commander's keys. */
  [flag: string]: unknown;
}

/**
 * Where attachments go when not under the data dir: an S3-compatible bucket. Its credentials come
 * only from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, or the AWS SDK's other
 * sources), never from a flag: a command line is visible to every user.
 */
export interface S3Config {
  bucket: string;
  endpoint?: string;
  region?: string;
  prefix?: string;
  forcePathStyle: boolean;
}

function s3ConfigFrom(flags: ChatServerFlags, env: Env): S3Config | undefined {
  const {
    s3Bucket: bucket,
    s3Endpoint: endpoint,
    s3Region: region,
    s3Prefix: prefix,
    s3PathStyle,
  } = readSettings(S3_SETTINGS, flags, env);
  if (bucket === undefined) {
    if (endpoint !== undefined || region !== undefined || prefix !== undefined)
      throw new ConfigError(
        '--s3-endpoint, --s3-region and --s3-prefix need --s3-bucket (or PARLEY_S3_BUCKET).',
      );
    return undefined;
  }
  return {
    bucket,
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(region === undefined ? {} : { region }),
    ...(prefix === undefined ? {} : { prefix }),
    // S3-compatible servers mostly want the bucket in the path; AWS wants it in the host.
    forcePathStyle: s3PathStyle ?? endpoint !== undefined,
  };
}

/** The hosted notification services' base URLs, by the names the notifications engine uses. */
function providerBaseUrlsFrom(flags: ChatServerFlags, env: Env): Record<string, string> {
  const urls = readSettings(NOTIFICATION_PROVIDER_SETTINGS, flags, env);
  return {
    fcm: urls.fcmUrl,
    googleOAuth: urls.fcmOauthUrl,
    ...(urls.apnsUrl === undefined ? {} : { apns: urls.apnsUrl }),
    sendgrid: urls.sendgridUrl,
    twilio: urls.twilioUrl,
  };
}

export interface ChatServerConfig extends ChatTlsConfig {
  port: number;
  host: string;
  /** `postgres://…`; none keeps chats in SQLite in the data dir. */
  databaseUrl?: string;
  /** The app to create or update at start, with keys given by flag or environment. */
  app?: { appId: string; apiKey?: string; authKey?: string };
  /** Per app and minute; core operations get half, as in CometChat's limits. */
  rateLimits: { standardPerMinute: number; corePerMinute: number } | false;
  /** Joins several processes on one PostgreSQL database; none: this process alone. */
  redisUrl?: string;
  /** Starts every Redis key and channel, so several deployments can share one Redis. */
  redisPrefix: string;
  /** With Redis: how long a dead process's sockets still count as online. */
  presenceTtlMs: number;
  /** Attachments in S3-compatible storage; none: files under the data dir. */
  s3?: S3Config;
  /** How long a signed attachment URL stays valid. */
  mediaUrlTtlSeconds: number;
  /** `PARLEY_SECRET_KEY`; none: the data dir's key. */
  secretKey?: Buffer;
  /** Base URLs of the hosted notification services (`fcm`, `googleOAuth`, `apns`, `sendgrid`, `twilio`). */
  providerBaseUrls: Record<string, string>;
  /** Provider calls the notifications engine makes at once. */
  notificationConcurrency: number;
}

function rateLimitsFrom(
  flags: { rateLimit?: string },
  env: Env,
): { standardPerMinute: number; corePerMinute: number } | false {
  const given = raw(SETTINGS.chatRateLimit, flags.rateLimit, env);
  if (given?.value === 'off') return false;
  const standard = given === undefined ? DEFAULT_CHAT_RATE_LIMIT : Number(given.value);
  if (!Number.isInteger(standard) || standard < 2) refuse(given!, 'a whole number of at least 2, or off');
  return { standardPerMinute: standard, corePerMinute: Math.floor(standard / 2) };
}

/** `parley chat-server`. */
export function chatServerConfig(flags: ChatServerFlags, env: Env): ChatServerConfig {
  const appId = text(SETTINGS.appId, flags.appId, env);
  const apiKey = text(SETTINGS.apiKey, flags.apiKey, env);
  const authKey = text(SETTINGS.authKey, flags.authKey, env);
  if (appId === undefined && (apiKey !== undefined || authKey !== undefined)) {
    throw new ConfigError('--api-key and --auth-key need --app-id (or PARLEY_APP_ID).');
  }
  const databaseUrl = text(SETTINGS.databaseUrl, undefined, env);
  const redisUrl = text(SETTINGS.redisUrl, flags.redisUrl, env);
  const s3 = s3ConfigFrom(flags, env);
  const secretKey = readSetting(SECRET_KEY_SETTING, flags, env);
  return {
    ...(secretKey === undefined ? {} : { secretKey }),
    ...chatTlsConfig(flags, env, false),
    port: port(SETTINGS.chatPort, flags.port, env, DEFAULT_CHAT_PORT),
    host: text(SETTINGS.chatHost, flags.host, env) ?? DEFAULT_CHAT_HOST,
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
    ...(appId === undefined
      ? {}
      : {
          app: {
            appId,
            ...(apiKey === undefined ? {} : { apiKey }),
            ...(authKey === undefined ? {} : { authKey }),
          },
        }),
    rateLimits: rateLimitsFrom(flags, env),
    ...(redisUrl === undefined ? {} : { redisUrl }),
    redisPrefix: text(SETTINGS.redisPrefix, flags.redisPrefix, env) ?? DEFAULT_REDIS_PREFIX,
    presenceTtlMs:
      integer(
        SETTINGS.presenceTtl,
        flags.presenceTtl,
        env,
        DEFAULT_PRESENCE_TTL_SECONDS,
        [1, 86_400],
        'whole seconds from 1 to 86400',
      ) * 1000,
    ...(s3 === undefined ? {} : { s3 }),
    mediaUrlTtlSeconds: integer(
      SETTINGS.mediaUrlTtl,
      flags.mediaUrlTtl,
      env,
      DEFAULT_MEDIA_URL_TTL_SECONDS,
      [60, 604_800],
      'whole seconds from 60 to 604800',
    ),
    providerBaseUrls: providerBaseUrlsFrom(flags, env),
    ...readSettings(NOTIFICATION_DELIVERY_SETTINGS, flags, env),
  };
}

export interface StartFlags extends ChatTlsFlags {
  port?: string;
  agentPort?: string;
  host?: string;
}

export interface StartConfig extends ChatTlsConfig {
  port: number;
  agentPort: number;
  /** The address both servers bind. */
  host: string;
  databaseUrl?: string;
  /** `PARLEY_SECRET_KEY`; none: the data dir's key. */
  secretKey?: Buffer;
  agent: AgentServerConfig;
}

/**
 * `parley start`: the chat service and the agent on one host. TLS is on unless `--no-tls`
 * (or PARLEY_TLS=0): the knowledge app's Chats, CometChat's SDK, speaks only https/wss.
 */
export function startConfig(flags: StartFlags, env: Env, dataDir: string): StartConfig {
  const databaseUrl = text(SETTINGS.databaseUrl, undefined, env);
  const secretKey = readSetting(SECRET_KEY_SETTING, {}, env);
  return {
    ...chatTlsConfig(flags, env, true),
    ...(secretKey === undefined ? {} : { secretKey }),
    port: port(SETTINGS.chatPort, flags.port, env, DEFAULT_CHAT_PORT),
    agentPort: port(SETTINGS.startAgentPort, flags.agentPort, env, DEFAULT_AGENT_PORT),
    host: text(SETTINGS.chatHost, flags.host, env) ?? DEFAULT_CHAT_HOST,
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
    agent: agentServerConfigFrom(env, dataDir),
  };
}

export interface AgentFlags {
  port?: string;
  host?: string;
  allowedHost?: string[];
}

export interface AgentCommandConfig {
  port: number;
  host: string;
  /** Whether URLs to private networks may be ingested. */
  allowPrivateNetwork: boolean;
  agent: AgentServerConfig;
}

/** The agent server's own settings (AGENT_*, INGEST_*, LLM_*), with a bad value named as a ConfigError. */
function agentServerConfigFrom(env: Env, dataDir: string): AgentServerConfig {
  try {
    return agentConfigFromEnv(env, dataDir);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}

/** `parley agent`: `--allowed-host` adds to AGENT_ALLOWED_HOSTS. */
export function agentCommandConfig(flags: AgentFlags, env: Env, dataDir: string): AgentCommandConfig {
  const agent = agentServerConfigFrom(env, dataDir);
  return {
    port: port(SETTINGS.agentPort, flags.port, env, DEFAULT_AGENT_PORT),
    host: text(SETTINGS.agentHost, flags.host, env) ?? DEFAULT_AGENT_HOST,
    allowPrivateNetwork: enabled(SETTINGS.allowPrivateNetwork, undefined, env, false),
    agent: { ...agent, allowedHosts: [...agent.allowedHosts, ...(flags.allowedHost ?? [])] },
  };
}

/** `parley ask`: the answer settings of the agent server, and the namespace. */
export function askConfig(
  flags: { namespace?: string },
  env: Env,
  dataDir: string,
): { namespace: string; agent: AgentServerConfig } {
  return { namespace: namespaceFrom(flags, env), agent: agentServerConfigFrom(env, dataDir) };
}

/** A flag's help text with where else it comes from: `… (env PARLEY_CHAT_PORT, default 4000)`. */
export function described(description: string, source: SettingSource, fallback?: string | number): string {
  const notes = [
    ...(source.env === undefined ? [] : [`env ${source.env}`]),
    ...(fallback === undefined ? [] : [`default ${fallback}`]),
  ];
  return notes.length === 0 ? description : `${description} (${notes.join(', ')})`;
}
