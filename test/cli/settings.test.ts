import { describe, expect, it } from 'vitest';
import { chatServerConfig, ConfigError } from '../../cli/config.js';
import {
  httpUrl,
  NOTIFICATION_PROVIDER_SETTINGS,
  readSetting,
  readSettings,
  yesNo,
  type Setting,
} from '../../cli/settings.js';
import { DEFAULT_PROVIDER_BASE_URLS } from '../../server/notifications/providers/kinds.js';

/** The table-driven settings: one declaration each, read flag first, then environment, then default. */

const endpoint: Setting<string> = {
  flag: '--relay-url <url>',
  env: 'PARLEY_RELAY_URL',
  parser: httpUrl,
  fallback: 'https://relay.example',
  doc: 'a relay',
};

describe('table-driven settings', () => {
  it('takes the flag (by its camel-case key) over the variable, and the variable over the default', () => {
    const env = { PARLEY_RELAY_URL: 'https://from-env.example' };
    expect(readSetting(endpoint, { relayUrl: 'https://from-flag.example' }, env)).toBe(
      'https://from-flag.example',
    );
    expect(readSetting(endpoint, {}, env)).toBe('https://from-env.example');
    expect(readSetting(endpoint, {}, {})).toBe('https://relay.example');
  });

  it('names the flag a refused value came from, with what it should be', () => {
    expect(() => readSetting(endpoint, { relayUrl: 'ftp://x' }, {})).toThrow(
      new ConfigError('--relay-url: "ftp://x" is not an http(s) URL'),
    );
  });

  it('names the variable a refused value came from', () => {
    expect(() => readSetting(endpoint, {}, { PARLEY_RELAY_URL: 'relay' })).toThrow(
      new ConfigError('PARLEY_RELAY_URL: "relay" is not an http(s) URL'),
    );
  });

  it('reads a switch from its flag as given, and from its variable as yes or no', () => {
    const sw: Setting<boolean> = { flag: '--on', env: 'PARLEY_ON', parser: yesNo, doc: 'a switch' };
    expect(readSetting(sw, { on: false }, { PARLEY_ON: 'yes' })).toBe(false);
    expect(readSetting(sw, {}, { PARLEY_ON: 'no' })).toBe(false);
    expect(readSetting(sw, {}, {})).toBeUndefined();
    expect(() => readSetting(sw, {}, { PARLEY_ON: 'maybe' })).toThrow('PARLEY_ON: "maybe" is not one of');
  });

  it('defaults every hosted notification service to its public API, as the engine does', () => {
    const urls = readSettings(NOTIFICATION_PROVIDER_SETTINGS, {}, {});
    expect(chatServerConfig({}, {}).providerBaseUrls).toEqual(DEFAULT_PROVIDER_BASE_URLS);
    expect(urls.apnsUrl).toBeUndefined();
  });

  it('points each hosted notification service elsewhere by flag or variable, without a trailing slash', () => {
    const config = chatServerConfig(
      { fcmUrl: 'http://127.0.0.1:9001/', apnsUrl: 'https://apns.relay.example' },
      {
        PARLEY_FCM_OAUTH_URL: 'http://127.0.0.1:9002',
        PARLEY_SENDGRID_URL: 'http://127.0.0.1:9003',
        PARLEY_TWILIO_URL: 'http://127.0.0.1:9004',
      },
    );
    expect(config.providerBaseUrls).toEqual({
      fcm: 'http://127.0.0.1:9001',
      googleOAuth: 'http://127.0.0.1:9002',
      apns: 'https://apns.relay.example',
      sendgrid: 'http://127.0.0.1:9003',
      twilio: 'http://127.0.0.1:9004',
    });
  });

  it('refuses a base URL that is not http(s), naming its variable', () => {
    expect(() => chatServerConfig({}, { PARLEY_TWILIO_URL: 'api.twilio.com' })).toThrow(
      'PARLEY_TWILIO_URL: "api.twilio.com" is not an http(s) URL',
    );
  });

  it('reads S3 from the table: path style on with an endpoint unless PARLEY_S3_PATH_STYLE says no', () => {
    expect(chatServerConfig({ s3Bucket: 'media' }, {}).s3).toEqual({
      bucket: 'media',
      forcePathStyle: false,
    });
    const local = { PARLEY_S3_BUCKET: 'media', PARLEY_S3_ENDPOINT: 'http://127.0.0.1:4569' };
    expect(chatServerConfig({}, local).s3).toEqual({
      bucket: 'media',
      endpoint: 'http://127.0.0.1:4569',
      forcePathStyle: true,
    });
    expect(chatServerConfig({}, { ...local, PARLEY_S3_PATH_STYLE: '0' }).s3?.forcePathStyle).toBe(false);
  });

  it('refuses S3 settings without a bucket, and an endpoint that is not a URL, naming the setting', () => {
    expect(() => chatServerConfig({ s3Region: 'eu-west-1' }, {})).toThrow('need --s3-bucket');
    expect(() => chatServerConfig({ s3Bucket: 'media', s3Endpoint: 'minio:9000' }, {})).toThrow(
      '--s3-endpoint: "minio:9000" is not an http(s) URL',
    );
  });
});
