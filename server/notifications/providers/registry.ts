import { AppCache, type ChangeNotices } from '../../repositories/app-cache.js';
import { SecretBox } from '../../secret-box.js';
import type { Channel, NotificationDb, NotificationProviderTable } from '../tables.js';
import { CHANNELS } from '../tables.js';
import type { ProviderKind } from './provider.js';

/**
 * The providers an app configured, per channel and kind. Every chat event asks which channels
 * deliver, so they are cached per app (`AppCache`): a change made here drops this process's copy
 * and tells the other processes sharing the store to drop theirs, so it applies everywhere at once.
 * Secret fields are stored sealed (`SecretBox`, AES-256-GCM
 * bound to the app, kind, configuration and field) and opened only in memory.
 */

export const DEFAULT_PROVIDER_ID = 'default';

export interface StoredProvider {
  channel: Channel;
  kind: string;
  providerId: string;
  /** The whole configuration, secrets included: for sending, never for answering. */
  config: Record<string, unknown>;
  isDefault: boolean;
  /** Epoch ms. */
  updatedAt: number;
}

/** A provider as the API and dashboard show it: its secret fields left out. */
export type ProviderView = Record<string, unknown> & {
  providerId: string;
  isDefault: boolean;
  updatedAt: number;
};

export function providerView(kind: ProviderKind, stored: StoredProvider): ProviderView {
  const shown = Object.fromEntries(
    Object.entries(stored.config).filter(([field]) => !(kind.secrets as readonly string[]).includes(field)),
  );
  return {
    ...shown,
    providerId: stored.providerId,
    isDefault: stored.isDefault,
    updatedAt: Math.floor(stored.updatedAt / 1000),
  };
}

export class ProviderRegistry {
  private readonly cache: AppCache<StoredProvider[]>;

  constructor(
    private readonly db: NotificationDb,
    private readonly kinds: readonly ProviderKind[],
    private readonly secrets: SecretBox,
    notices: ChangeNotices,
  ) {
    this.cache = new AppCache('notification-providers', notices);
  }

  private secretFields(channel: Channel, kindName: string): readonly string[] {
    return this.kind(channel, kindName)?.secrets ?? [];
  }

  private contextOf(
    row: Pick<NotificationProviderTable, 'app_id' | 'channel' | 'kind' | 'provider_id'>,
    field: string,
  ) {
    return `notification_providers/${row.app_id}/${row.channel}/${row.kind}/${row.provider_id}/${field}`;
  }

  /** The configuration as stored: each secret field sealed (a JSON value, sealed as its text). */
  private sealed(
    row: Pick<NotificationProviderTable, 'app_id' | 'channel' | 'kind' | 'provider_id'>,
    config: Record<string, unknown>,
  ): Record<string, unknown> {
    const stored = { ...config };
    for (const field of this.secretFields(row.channel, row.kind)) {
      const value = stored[field];
      if (value !== undefined && !SecretBox.isSealed(value))
        stored[field] = this.secrets.seal(JSON.stringify(value), this.contextOf(row, field));
    }
    return stored;
  }

  /** The configuration for use; a secret stored before sealing existed is taken as it is. */
  private opened(row: NotificationProviderTable): Record<string, unknown> {
    const config = JSON.parse(row.config) as Record<string, unknown>;
    for (const field of this.secretFields(row.channel, row.kind)) {
      const value = config[field];
      if (SecretBox.isSealed(value))
        config[field] = JSON.parse(this.secrets.open(value, this.contextOf(row, field)));
    }
    return config;
  }

  /**
   * Seals every secret still stored in the clear (rows written before secrets were sealed) and
   * checks that the key opens the sealed ones: run at start, so a wrong key stops the service at
   * once (`SecretKeyMismatch`) instead of failing each delivery. Returns how many rows it sealed.
   */
  async sealStoredSecrets(): Promise<number> {
    const rows = await this.db.selectFrom('notification_providers').selectAll().execute();
    let sealed = 0;
    for (const row of rows) {
      const config = this.opened(row);
      const stored = JSON.parse(row.config) as Record<string, unknown>;
      if (
        this.secretFields(row.channel, row.kind).every(
          (field) => stored[field] === undefined || SecretBox.isSealed(stored[field]),
        )
      )
        continue;
      await this.db
        .updateTable('notification_providers')
        .set({ config: JSON.stringify(this.sealed(row, config)) })
        .where('app_id', '=', row.app_id)
        .where('channel', '=', row.channel)
        .where('kind', '=', row.kind)
        .where('provider_id', '=', row.provider_id)
        .where('config', '=', row.config)
        .execute();
      sealed += 1;
    }
    // What is cached stays right: sealing changes how a secret is stored, not its value.
    return sealed;
  }

  kind(channel: Channel, name: string): ProviderKind | undefined {
    return this.kinds.find((kind) => kind.channel === channel && kind.name === name);
  }

  /** Every configuration of the app, enabled or not. */
  async all(appId: string): Promise<StoredProvider[]> {
    return this.cache.get(appId, async () => {
      const rows = await this.db
        .selectFrom('notification_providers')
        .selectAll()
        .where('app_id', '=', appId)
        .orderBy('kind')
        .orderBy('provider_id')
        .execute();
      return rows.map((row) => ({
        channel: row.channel,
        kind: row.kind,
        providerId: row.provider_id,
        config: this.opened(row),
        isDefault: row.is_default === 1,
        updatedAt: Number(row.updated_at),
      }));
    });
  }

  async ofKind(appId: string, kind: ProviderKind): Promise<StoredProvider[]> {
    return (await this.all(appId)).filter((p) => p.channel === kind.channel && p.kind === kind.name);
  }

  async find(appId: string, kind: ProviderKind, providerId: string): Promise<StoredProvider | undefined> {
    return (await this.ofKind(appId, kind)).find((p) => p.providerId === providerId);
  }

  private isEnabled(provider: StoredProvider): boolean {
    const kind = this.kind(provider.channel, provider.kind);
    return kind !== undefined && kind.enabled(provider.config as never);
  }

  /** The channels the app delivers through now: those with an enabled provider. */
  async enabledChannels(appId: string): Promise<Set<Channel>> {
    const providers = await this.all(appId);
    return new Set(
      CHANNELS.filter((channel) => providers.some((p) => p.channel === channel && this.isEnabled(p))),
    );
  }

  /**
   * The configuration that takes every notification of the channel: the first enabled one of the
   * kinds without token platforms, in `PROVIDER_KINDS` order (the operator's own webhook first).
   */
  async channelWide(
    appId: string,
    channel: Channel,
  ): Promise<{ kind: ProviderKind; provider: StoredProvider } | undefined> {
    const providers = await this.all(appId);
    for (const kind of this.kinds) {
      if (kind.channel !== channel || kind.platforms !== undefined) continue;
      const provider = providers.find(
        (p) => p.channel === channel && p.kind === kind.name && this.isEnabled(p),
      );
      if (provider !== undefined) return { kind, provider };
    }
    return undefined;
  }

  /** The push configuration that delivers to a token: the one it names, else the kind's default. */
  async forToken(
    appId: string,
    platform: string,
    providerId: string,
  ): Promise<{ kind: ProviderKind; provider: StoredProvider } | undefined> {
    const kind = this.kinds.find((k) => k.channel === 'push' && k.platforms?.[platform] !== undefined);
    if (kind === undefined) return undefined;
    const configs = (await this.ofKind(appId, kind)).filter((p) => this.isEnabled(p));
    const provider =
      configs.find((p) => p.providerId === providerId) ?? configs.find((p) => p.isDefault) ?? configs[0];
    return provider === undefined ? undefined : { kind, provider };
  }

  /** Stores a configuration whole (validated by the caller); the kind's first one becomes its default. */
  async save(
    appId: string,
    kind: ProviderKind,
    providerId: string,
    config: Record<string, unknown>,
    now: number,
  ): Promise<StoredProvider> {
    const existing = await this.ofKind(appId, kind);
    const current = existing.find((p) => p.providerId === providerId);
    const isDefault = current?.isDefault ?? !existing.some((p) => p.isDefault);
    const row = { app_id: appId, channel: kind.channel, kind: kind.name, provider_id: providerId };
    const values = {
      config: JSON.stringify(this.sealed(row, config)),
      is_default: isDefault ? 1 : 0,
      updated_at: now,
    };
    await this.db
      .insertInto('notification_providers')
      .values({ ...row, ...values })
      .onConflict((oc) => oc.columns(['app_id', 'channel', 'kind', 'provider_id']).doUpdateSet(values))
      .execute();
    this.cache.changed(appId);
    return { channel: kind.channel, kind: kind.name, providerId, config, isDefault, updatedAt: now };
  }

  /** False when there was no such configuration. A removed default hands its role to the next one. */
  async remove(appId: string, kind: ProviderKind, providerId: string): Promise<boolean> {
    const removed = await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom('notification_providers')
        .where('app_id', '=', appId)
        .where('channel', '=', kind.channel)
        .where('kind', '=', kind.name)
        .where('provider_id', '=', providerId)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      const rest = await trx
        .selectFrom('notification_providers')
        .select(['provider_id', 'is_default'])
        .where('app_id', '=', appId)
        .where('channel', '=', kind.channel)
        .where('kind', '=', kind.name)
        .orderBy('provider_id')
        .execute();
      const first = rest[0];
      if (first !== undefined && !rest.some((row) => row.is_default === 1))
        await trx
          .updateTable('notification_providers')
          .set({ is_default: 1 })
          .where('app_id', '=', appId)
          .where('channel', '=', kind.channel)
          .where('kind', '=', kind.name)
          .where('provider_id', '=', first.provider_id)
          .execute();
      return true;
    });
    if (removed) this.cache.changed(appId);
    return removed;
  }

  /** Makes one configuration the kind's default; false when there is no such configuration. */
  async setDefault(appId: string, kind: ProviderKind, providerId: string): Promise<boolean> {
    const changed = await this.db.transaction().execute(async (trx) => {
      const scope = trx
        .updateTable('notification_providers')
        .where('app_id', '=', appId)
        .where('channel', '=', kind.channel)
        .where('kind', '=', kind.name);
      const target = await scope
        .set({ is_default: 1 })
        .where('provider_id', '=', providerId)
        .executeTakeFirst();
      if (Number(target.numUpdatedRows) === 0) return false;
      await scope.set({ is_default: 0 }).where('provider_id', '!=', providerId).execute();
      return true;
    });
    if (changed) this.cache.changed(appId);
    return changed;
  }
}
