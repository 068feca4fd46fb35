import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretKeyMismatch, silentLogger, startChatServer } from '../../../server/index.js';
import { notificationDataOf, withNotificationTables } from '../../../server/notifications/index.js';
import { ENGINES, createTestStore, startTestServer, type TestServer, type TestStore } from '../support.js';
import { SECRET, useWebhook } from './support.js';

/** Provider secrets at rest: sealed with AES-256-GCM under the data dir's key (or PARLEY_SECRET_KEY). */
describe.each(ENGINES)('provider secrets at rest on %s', (engine) => {
  let store: TestStore;
  let api: TestServer;
  const PASSWORD = 'basic-auth-password-4217';

  beforeAll(async () => {
    store = await createTestStore(engine);
    api = await startTestServer(store);
  });
  afterAll(async () => {
    await api?.close();
    await store?.dispose();
  });

  const storedConfigs = async (): Promise<string[]> =>
    (
      await withNotificationTables(api.server.core.store.db)
        .selectFrom('notification_providers')
        .select('config')
        .execute()
    ).map((row) => row.config);

  it('stores a provider without its secrets in the clear, and opens them for sending', async () => {
    const saved = await useWebhook(api.call, 'push', 'http://127.0.0.1:9/push');
    expect(saved.status).toBe(200);
    const [config] = await storedConfigs();
    expect(config).toContain('http://127.0.0.1:9/push');
    expect(config).not.toContain(SECRET);
    const [provider] = await notificationDataOf(api.server.core).providers.all('app-one');
    expect(provider?.config.signingSecret).toBe(SECRET);
  });

  it('seals a secret stored in the clear at the next start, and refuses to start with another key', async () => {
    const db = withNotificationTables(api.server.core.store.db);
    await db
      .insertInto('notification_providers')
      .values({
        app_id: 'app-two',
        channel: 'sms',
        kind: 'custom',
        provider_id: 'default',
        config: JSON.stringify({
          isEnabled: true,
          webhookURL: 'https://hooks.example/sms',
          useBasicAuth: true,
          basicAuthUsername: 'ops',
          basicAuthPassword: PASSWORD,
          useStoredPhNo: false,
        }),
        is_default: 1,
        updated_at: 0,
      })
      .execute();
    await api.close();
    api = await startTestServer(store);
    expect((await storedConfigs()).join('\n')).not.toContain(PASSWORD);
    const providers = await notificationDataOf(api.server.core).providers.all('app-two');
    expect(providers[0]?.config.basicAuthPassword).toBe(PASSWORD);

    await api.close();
    const started = startChatServer({
      port: 0,
      dataDir: store.dataDir,
      databaseUrl: store.databaseUrl,
      secretKey: randomBytes(32),
      logger: silentLogger,
    });
    await expect(started).rejects.toThrow(SecretKeyMismatch);
    await expect(started).rejects.toThrow(/another key than the one from PARLEY_SECRET_KEY/);
    api = await startTestServer(store);
  });
});
