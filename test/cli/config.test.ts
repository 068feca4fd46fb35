import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  agentCommandConfig,
  chatServerConfig,
  ConfigError,
  dataDirFrom,
  namespaceFrom,
  SETTINGS,
  startConfig,
  type SettingSource,
} from '../../cli/config.js';
import {
  NOTIFICATION_DELIVERY_SETTINGS,
  NOTIFICATION_PROVIDER_SETTINGS,
  S3_SETTINGS,
  SECRET_KEY_SETTING,
} from '../../cli/settings.js';

const DATA_DIR = '/tmp/parley-config-test';

describe('configuration from flags and environment', () => {
  it('takes a flag over its environment variable, and the variable over the default', () => {
    const env = { PARLEY_CHAT_PORT: '5000', PARLEY_CHAT_HOST: '0.0.0.0' };
    expect(chatServerConfig({ port: '6000' }, env)).toMatchObject({ port: 6000, host: '0.0.0.0' });
    expect(chatServerConfig({}, env)).toMatchObject({ port: 5000, host: '0.0.0.0' });
    expect(chatServerConfig({}, {})).toMatchObject({ port: 4000, host: '127.0.0.1' });
  });

  it('reads the data directory from --data-dir, then PARLEY_DATA_DIR, then ./.parley', () => {
    expect(dataDirFrom({ dataDir: '/flag' }, { PARLEY_DATA_DIR: '/env' })).toBe('/flag');
    expect(dataDirFrom({}, { PARLEY_DATA_DIR: '/env' })).toBe('/env');
    expect(dataDirFrom({}, { PARLEY_DATA_DIR: '' })).toBe('./.parley');
  });

  it('binds start to PARLEY_CHAT_HOST, the name the README gives, and no other', () => {
    expect(startConfig({}, { PARLEY_CHAT_HOST: '0.0.0.0' }, DATA_DIR).host).toBe('0.0.0.0');
    expect(startConfig({}, { PARLEY_HOST: '0.0.0.0' }, DATA_DIR).host).toBe('127.0.0.1');
  });

  it('names the flag a bad value came from', () => {
    expect(() => chatServerConfig({ port: 'http' }, { PARLEY_CHAT_PORT: '5000' })).toThrow(
      new ConfigError('--port: "http" is not a port from 0 to 65535'),
    );
  });

  it('names the environment variable a bad value came from', () => {
    expect(() => startConfig({}, { PARLEY_AGENT_PORT: '70000' }, DATA_DIR)).toThrow(
      'PARLEY_AGENT_PORT: "70000" is not a port from 0 to 65535',
    );
    expect(() => chatServerConfig({}, { PARLEY_TLS: 'maybe' })).toThrow(
      'PARLEY_TLS: "maybe" is not one of 1, true, yes, 0, false, no',
    );
  });

  it('reads the chat rate limit as a number per minute with half for core operations, or off', () => {
    expect(chatServerConfig({}, {}).rateLimits).toEqual({ standardPerMinute: 20_000, corePerMinute: 10_000 });
    expect(chatServerConfig({}, { PARLEY_CHAT_RATE_LIMIT: '100' }).rateLimits).toEqual({
      standardPerMinute: 100,
      corePerMinute: 50,
    });
    expect(chatServerConfig({ rateLimit: 'off' }, { PARLEY_CHAT_RATE_LIMIT: '100' }).rateLimits).toBe(false);
    expect(() => chatServerConfig({ rateLimit: '1' }, {})).toThrow(
      '--rate-limit: "1" is not a whole number of at least 2, or off',
    );
  });

  it('serves TLS by default from start only, and --no-tls or PARLEY_TLS=0 turns it off', () => {
    expect(startConfig({}, {}, DATA_DIR).tls).toBe(true);
    expect(startConfig({ tls: false }, {}, DATA_DIR).tls).toBe(false);
    expect(startConfig({}, { PARLEY_TLS: '0' }, DATA_DIR).tls).toBe(false);
    expect(chatServerConfig({}, {}).tls).toBe(false);
    expect(chatServerConfig({}, { PARLEY_TLS: 'true' }).tls).toBe(true);
  });

  it('refuses keys without the app they belong to, and a certificate without its key', () => {
    expect(() => chatServerConfig({}, { PARLEY_API_KEY: 'k'.repeat(40) })).toThrow(
      '--api-key and --auth-key need --app-id (or PARLEY_APP_ID).',
    );
    expect(() => chatServerConfig({ tlsCert: 'cert.pem' }, {})).toThrow(
      '--tls-cert and --tls-key go together.',
    );
  });

  it('takes the chat database only from DATABASE_URL, never from a flag', () => {
    expect(chatServerConfig({}, { DATABASE_URL: 'postgres://127.0.0.1/test' }).databaseUrl).toBe(
      'postgres://127.0.0.1/test',
    );
    expect(chatServerConfig({}, {})).not.toHaveProperty('databaseUrl');
  });

  it('adds --allowed-host to AGENT_ALLOWED_HOSTS and reads the agent settings from the environment', () => {
    const config = agentCommandConfig(
      { allowedHost: ['agent.internal'] },
      { AGENT_ALLOWED_HOSTS: 'chat.internal', PARLEY_AGENT_PORT: '0', AGENT_ALLOW_PRIVATE_NETWORK: '1' },
      DATA_DIR,
    );
    expect(config).toMatchObject({ port: 0, host: '127.0.0.1', allowPrivateNetwork: true });
    expect(config.agent.allowedHosts).toEqual(['chat.internal', 'agent.internal']);
  });

  it("names the agent's variable whose value is wrong", () => {
    expect(() => agentCommandConfig({}, { AGENT_RATE_LIMIT: 'fast' }, DATA_DIR)).toThrow(
      new ConfigError('AGENT_RATE_LIMIT must be a whole number above 0'),
    );
  });

  it('reads the namespace from -n, then PARLEY_NAMESPACE, then default', () => {
    expect(namespaceFrom({ namespace: 'flag' }, { PARLEY_NAMESPACE: 'docs' })).toBe('flag');
    expect(namespaceFrom({}, { PARLEY_NAMESPACE: 'docs' })).toBe('docs');
    expect(namespaceFrom({}, {})).toBe('default');
  });

  it('takes the notification delivery concurrency from its flag or variable, 16 by default, and refuses 0', () => {
    expect(chatServerConfig({}, {}).notificationConcurrency).toBe(16);
    expect(chatServerConfig({}, { PARLEY_NOTIFICATION_CONCURRENCY: '64' }).notificationConcurrency).toBe(64);
    expect(
      chatServerConfig({ notificationConcurrency: '128' }, { PARLEY_NOTIFICATION_CONCURRENCY: '64' })
        .notificationConcurrency,
    ).toBe(128);
    expect(() => chatServerConfig({ notificationConcurrency: '0' }, {})).toThrow(
      /--notification-concurrency/,
    );
  });

  it("documents every setting's flag and environment variable in the README's table", async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Security'));
    const tables = [S3_SETTINGS, NOTIFICATION_PROVIDER_SETTINGS, NOTIFICATION_DELIVERY_SETTINGS].flatMap(
      (settings) => Object.values(settings),
    );
    const sources = [...(Object.values(SETTINGS) as SettingSource[]), ...tables, SECRET_KEY_SETTING];
    for (const source of sources) {
      if (source.flag !== undefined) expect(table).toContain(source.flag.split(' ')[0]);
      if (source.env !== undefined) expect(table).toContain(`\`${source.env}\``);
    }
  });
});
