import { parseSecretKey } from '../server/secret-box.js';

/*
 * Table-driven settings: each is declared once — its flag, environment variable, parser, default
 * and help text — and read the same way everywhere: a flag beats its variable, which beats the
 * default. A value the parser refuses stops the command naming where it came from.
 */

export type Env = Readonly<Record<string, string | undefined>>;

/** A value no setting can take, with the flag or variable it came from named first. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Turns the text of a flag or variable into the setting's value; undefined refuses it. */
export interface Parser<T> {
  /** What a good value is, for the refusal: `"x" is not <expected>`. */
  expected: string;
  /** A switch: its flag takes no value (commander gives true, or false for `--no-…`). */
  switch?: boolean;
  parse(text: string): T | undefined;
}

export interface Setting<T> {
  /** `--name <value>`, or `--name` for a switch; none for values that must not be on a command line. */
  flag?: string;
  env?: string;
  parser: Parser<T>;
  /** The value when neither flag nor variable gives one; none: the setting is optional. */
  fallback?: T;
  /** The help text (`--help`). */
  doc: string;
}

export const text: Parser<string> = { expected: 'a value', parse: (value) => value };

/** An http(s) URL, without a trailing slash (paths are appended to it). */
export const httpUrl: Parser<string> = {
  expected: 'an http(s) URL',
  parse: (value) =>
    /^https?:\/\/\S+$/.test(value) && URL.canParse(value) ? value.replace(/\/+$/, '') : undefined,
};

export const yesNo: Parser<boolean> = {
  expected: 'one of 1, true, yes, 0, false, no',
  switch: true,
  parse: (value) => {
    const lower = value.toLowerCase();
    if (['1', 'true', 'yes'].includes(lower)) return true;
    if (['0', 'false', 'no'].includes(lower)) return false;
    return undefined;
  },
};

export function wholeNumber(min: number, max: number, expected: string): Parser<number> {
  return {
    expected,
    parse: (value) => {
      const number = Number(value);
      return Number.isInteger(number) && number >= min && number <= max ? number : undefined;
    },
  };
}

/** The long flag's name (`--s3-path-style <x>` → `s3-path-style`). */
export const flagName = (flag: string): string => flag.split(/\s+/)[0]!.replace(/^--/, '');

/** The key commander stores a flag's value under: its name in camel case. */
export const flagKey = (flag: string): string =>
  flagName(flag).replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

type ValueOf<S> = S extends Setting<infer T> ? (S extends { fallback: T } ? T : T | undefined) : never;
export type SettingValues<Table> = { [Key in keyof Table]: ValueOf<Table[Key]> };

/** One setting from the parsed flags (by commander's keys) and the environment. */
export function readSetting<T>(
  setting: Setting<T>,
  flags: Readonly<Record<string, unknown>>,
  env: Env,
): T | undefined {
  const { flag, parser } = setting;
  const given = flag === undefined ? undefined : flags[flagKey(flag)];
  if (typeof given === 'boolean' && parser.switch) return given as T;
  let raw: { value: string; from: string } | undefined;
  if (typeof given === 'string') raw = { value: given, from: `--${flagName(flag!)}` };
  else if (setting.env !== undefined) {
    const fromEnv = env[setting.env]?.trim();
    if (fromEnv) raw = { value: fromEnv, from: setting.env };
  }
  if (raw === undefined) return setting.fallback;
  const value = parser.parse(raw.value);
  if (value === undefined) throw new ConfigError(`${raw.from}: "${raw.value}" is not ${parser.expected}`);
  return value;
}

/** Every setting of the table, by its key. */
export function readSettings<Table extends Record<string, Setting<unknown>>>(
  table: Table,
  flags: Readonly<Record<string, unknown>>,
  env: Env,
): SettingValues<Table> {
  return Object.fromEntries(
    Object.entries(table).map(([key, setting]) => [
      key,
      readSetting(setting as Setting<unknown>, flags, env),
    ]),
  ) as SettingValues<Table>;
}

/** Where a setting comes from, for help texts and the README check. */
export function describedSetting(setting: Setting<unknown>): string {
  const notes = [
    ...(setting.env === undefined ? [] : [`env ${setting.env}`]),
    ...(setting.fallback === undefined || setting.fallback === false
      ? []
      : [`default ${String(setting.fallback)}`]),
  ];
  return notes.length === 0 ? setting.doc : `${setting.doc} (${notes.join(', ')})`;
}

/** 32 bytes as 64 hex digits or base64 (`openssl rand -base64 32`). */
export const secretKey: Parser<Buffer> = {
  expected: 'a 32-byte key in hex (64 digits) or base64',
  // Imported from its own module, light enough for `--help`: the server is loaded only to run.
  parse: parseSecretKey,
};

/**
 * The key sealing secrets in the chat store: only from the environment (a command line is visible
 * to every user); without it, `<data dir>/secret.key`, created on first start.
 */
export const SECRET_KEY_SETTING: Setting<Buffer> = {
  env: 'PARLEY_SECRET_KEY',
  parser: secretKey,
  doc: "the key sealing provider secrets in the chat store (default: the data dir's secret.key)",
};

/** Attachments in an S3-compatible bucket (`chat-server`); credentials only from AWS_* variables. */
export const S3_SETTINGS = {
  s3Bucket: {
    flag: '--s3-bucket <bucket>',
    env: 'PARLEY_S3_BUCKET',
    parser: text,
    doc: 'keep attachments in this S3-compatible bucket (credentials: AWS_* env)',
  },
  s3Endpoint: {
    flag: '--s3-endpoint <url>',
    env: 'PARLEY_S3_ENDPOINT',
    parser: httpUrl,
    doc: 'an S3-compatible server instead of AWS',
  },
  s3Region: {
    flag: '--s3-region <region>',
    env: 'PARLEY_S3_REGION',
    parser: text,
    doc: "the bucket's region (default us-east-1)",
  },
  s3Prefix: {
    flag: '--s3-prefix <prefix>',
    env: 'PARLEY_S3_PREFIX',
    parser: text,
    doc: 'starts every object key',
  },
  s3PathStyle: {
    flag: '--s3-path-style',
    env: 'PARLEY_S3_PATH_STYLE',
    parser: yesNo,
    doc: 'bucket in the path, not the host name (on by default with --s3-endpoint)',
  },
} satisfies Record<string, Setting<unknown>>;

/** How the notifications engine delivers: how many provider calls each process makes at once. */
export const NOTIFICATION_DELIVERY_SETTINGS = {
  notificationConcurrency: {
    flag: '--notification-concurrency <calls>',
    env: 'PARLEY_NOTIFICATION_CONCURRENCY',
    parser: wholeNumber(1, 1000, 'a whole number of calls from 1 to 1000'),
    fallback: 16,
    doc: 'notification deliveries (push, webhook, e-mail and SMS calls) each process makes at once',
  },
} satisfies Record<string, Setting<unknown>>;

/**
 * Where the hosted notification services are reached (`chat-server`): their public APIs unless
 * the operator points one at a relay or a compatible service.
 */
export const NOTIFICATION_PROVIDER_SETTINGS = {
  fcmUrl: {
    flag: '--fcm-url <url>',
    env: 'PARLEY_FCM_URL',
    parser: httpUrl,
    fallback: 'https://fcm.googleapis.com',
    doc: 'base URL of the FCM HTTP v1 API',
  },
  fcmOauthUrl: {
    flag: '--fcm-oauth-url <url>',
    env: 'PARLEY_FCM_OAUTH_URL',
    parser: httpUrl,
    fallback: 'https://oauth2.googleapis.com',
    doc: "base URL of Google's OAuth token endpoint FCM's access tokens come from",
  },
  apnsUrl: {
    flag: '--apns-url <url>',
    env: 'PARLEY_APNS_URL',
    parser: httpUrl,
    doc: "base URL of APNs (default: Apple's production or sandbox server, by each configuration's productionMode)",
  },
  sendgridUrl: {
    flag: '--sendgrid-url <url>',
    env: 'PARLEY_SENDGRID_URL',
    parser: httpUrl,
    fallback: 'https://api.sendgrid.com',
    doc: 'base URL of the SendGrid v3 API',
  },
  twilioUrl: {
    flag: '--twilio-url <url>',
    env: 'PARLEY_TWILIO_URL',
    parser: httpUrl,
    fallback: 'https://api.twilio.com',
    doc: 'base URL of the Twilio API',
  },
} satisfies Record<string, Setting<unknown>>;
