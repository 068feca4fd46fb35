import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrationsFor } from '../../../server/db/migrations.js';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '../../../server/notifications/index.js';
import { APP_ONE, APP_TWO, ENGINES, apiFixtures, textMessage, uniqueId, type TestStore } from '../support.js';
import { ManualClock, deliverPastDigestInterval, useNotificationFixture } from './support.js';

/** A row of the table the old `PUT /notifications/v1/webhooks/{channel}` wrote (plain secret, epoch ms). */
interface OldWebhookRow {
  app_id: string;
  channel: 'push' | 'email' | 'sms';
  url: string;
  secret: string;
  enabled: number;
  updated_at: number;
}

interface OldStore {
  notification_webhooks: OldWebhookRow;
}

/** The store location opened bare, without running the migrations `openChatStore` runs. */
function openBare(store: TestStore): Kysely<OldStore> {
  return store.databaseUrl === undefined
    ? new Kysely({ dialect: new SqliteDialect({ database: new SQLite(join(store.dataDir, 'chat.db')) }) })
    : new Kysely({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: store.databaseUrl }) }),
      });
}

/** The last migration the old webhook routes ran on; the next one (0008) replaces their table. */
const BEFORE_PROVIDERS = '0007_threads_reactions';

/**
 * Issue #20: webhooks stored by Parley's old routes become their channel's CometChat custom
 * provider when a store migrates (0008_notification_providers): same URL and state, the secret kept
 * write-only and still signing, the old table gone.
 */
describe.each(ENGINES)('webhooks of the old routes, migrated on %s', (engine) => {
  const clock = new ManualClock(Date.now());
  const secrets = {
    push: uniqueId('old-push-secret'),
    email: uniqueId('old-email-secret'),
    sms: uniqueId('old-sms-secret'),
    appTwo: uniqueId('old-app-two-secret'),
    /** The SMS webhook's URL carried basic-auth credentials, as the old routes accepted. */
    smsPassword: `${uniqueId('old-sms')} password`,
  };
  const SMS_USER = 'hook-user';
  const savedAt = { push: 1_700_000_000_123, email: 1_700_000_100_456, sms: 1_700_000_200_789 };
  let oldRows: OldWebhookRow[];

  const fixture = useNotificationFixture(engine, {
    options: () => ({ clock }),
    // The store as the old routes left it: migrated up to them, with their rows.
    beforeServer: async (store, { receiver }) => {
      oldRows = [
        ...(['push', 'email', 'sms'] as const).map((channel) => ({
          app_id: APP_ONE.appId,
          channel,
          url:
            channel === 'sms'
              ? `${receiver.url.replace('://', `://${SMS_USER}:${encodeURIComponent(secrets.smsPassword)}@`)}/sms`
              : `${receiver.url}/${channel}`,
          secret: secrets[channel],
          enabled: 1,
          updated_at: savedAt[channel],
        })),
        {
          app_id: APP_TWO.appId,
          channel: 'push' as const,
          url: `${receiver.url}/app-two`,
          secret: secrets.appTwo,
          enabled: 0,
          updated_at: savedAt.push,
        },
      ];
      const bare = openBare(store);
      try {
        const migrator = new Migrator({ db: bare, provider: migrationsFor(engine) });
        const { error } = await migrator.migrateTo(BEFORE_PROVIDERS);
        expect(error).toBeUndefined();
        await bare.insertInto('notification_webhooks').values(oldRows).execute();
      } finally {
        await bare.destroy();
      }
    },
  });
  const { call } = fixture;
  const { createUser } = apiFixtures(call);

  it("answers each channel's custom provider with the old webhook's URL and state, never its secret or URL credentials", async () => {
    const stored = {
      push: { useBasicAuth: false },
      email: { useBasicAuth: false, useStoredEmailID: false },
      sms: { useBasicAuth: true, basicAuthUsername: SMS_USER, useStoredPhNo: false },
    };
    for (const channel of ['push', 'email', 'sms'] as const) {
      const response = await call('GET', `/notifications/${channel}/v1/providers/custom`);
      expect(response.status, channel).toBe(200);
      expect(response.body.data, channel).toEqual({
        isEnabled: true,
        webhookURL: `${fixture.receiver.url}/${channel}`,
        ...stored[channel],
        providerId: 'default',
        isDefault: true,
        updatedAt: Math.floor(savedAt[channel] / 1000),
      });
      for (const secret of Object.values(secrets))
        expect(JSON.stringify(response.body)).not.toContain(secret);
    }
  });

  it("gives another app's webhook to that app only, disabled as it was", async () => {
    const asTwo = { apikey: APP_TWO.apiKey, appId: APP_TWO.appId };
    const two = await call('GET', '/notifications/push/v1/providers/custom', asTwo);
    expect(two.body.data).toMatchObject({ isEnabled: false, webhookURL: `${fixture.receiver.url}/app-two` });
    expect(JSON.stringify(two.body)).not.toContain(secrets.appTwo);
    for (const channel of ['email', 'sms'] as const)
      expect((await call('GET', `/notifications/${channel}/v1/providers/custom`, asTwo)).body.data).toEqual(
        {},
      );
  });

  it('refuses an update of a migrated webhook to a loopback address until the app allows its origin', async () => {
    const update = await call('PUT', '/notifications/push/v1/providers/custom', {
      body: { isEnabled: true },
    });
    expect(update.status).toBe(400);
    expect(update.body.error.details).toMatchObject({ field: 'webhookURL' });
    const listed = await call('GET', '/notifications/push/v1/providers/custom');
    expect(listed.body.data.updatedAt).toBe(Math.floor(savedAt.push / 1000));
  });

  it('drops the old table and keeps no secret in the clear', async () => {
    const bare = openBare(fixture.store);
    try {
      const tables = (await bare.introspection.getTables()).map((table) => table.name);
      expect(tables).toContain('notification_providers');
      expect(tables).not.toContain('notification_webhooks');
      const rows = await (bare as unknown as Kysely<{ notification_providers: { config: string } }>)
        .selectFrom('notification_providers')
        .select('config')
        .execute();
      expect(rows).toHaveLength(oldRows.length);
      for (const { config } of rows)
        for (const secret of Object.values(secrets)) expect(config).not.toContain(secret);
      const configs = rows.map(({ config }) => JSON.parse(config));
      for (const { signingSecret } of configs) expect(signingSecret).toMatch(/^v1\./);
      const passwords = configs.flatMap(({ basicAuthPassword }) => basicAuthPassword ?? []);
      expect(passwords).toEqual([expect.stringMatching(/^v1\./)]);
    } finally {
      await bare.destroy();
    }
  });

  it("delivers a notification to an offline user to each channel's webhook, signed with its old secret and with the old URL's credentials as basic auth", async () => {
    const interval = { intervalInSeconds: 60, notifyForUnreadOnly: false, maxPerDayPerConversation: 10 };
    const settings = await call('PATCH', '/notifications/v1/settings', {
      body: { preferences: { email: interval, sms: interval } },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const alice = await createUser('alice');
    const bob = await createUser('bob');
    const sent = await call('POST', '/messages', {
      body: textMessage(bob, 'sent after the upgrade'),
      onBehalfOf: alice,
    });
    expect(sent.status).toBe(200);
    await deliverPastDigestInterval(fixture.server.engine, clock);
    for (const channel of ['push', 'email', 'sms'] as const) {
      const [delivered] = await fixture.receiver.waitForCalls(`/${channel}`, 1);
      expect(delivered?.body.data.to.uid, channel).toBe(bob);
      const signature = delivered?.headers[SIGNATURE_HEADER] as string;
      const at = Math.floor(clock.now() / 1000);
      expect(verifyWebhookSignature(secrets[channel], delivered?.raw ?? '', signature, at), channel).toBe(
        true,
      );
      const other = channel === 'push' ? secrets.email : secrets.push;
      expect(verifyWebhookSignature(other, delivered?.raw ?? '', signature, at), channel).toBe(false);
    }
    const [sms] = fixture.receiver.callsTo('/sms');
    const basic = Buffer.from(`${SMS_USER}:${secrets.smsPassword}`).toString('base64');
    expect(sms?.headers.authorization).toBe(`Basic ${basic}`);
    expect(fixture.receiver.callsTo('/push')[0]?.headers.authorization).toBeUndefined();
    expect(fixture.receiver.callsTo('/app-two')).toHaveLength(0);
  });
});
