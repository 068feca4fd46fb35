import { CHANNELS, type Channel, type NotificationDb } from './tables.js';

/**
 * The webhooks an app delivers notifications through, one per channel. Every chat event asks which
 * are enabled, so they are cached per app; changes made here drop the cache at once, changes made
 * by another process show after `CACHE_MS`.
 */

export interface Webhook {
  channel: Channel;
  url: string;
  secret: string;
  enabled: boolean;
  /** Epoch ms. */
  updatedAt: number;
}

/** A webhook as the API and dashboard show it: never its secret. */
export interface WebhookView {
  channel: Channel;
  url: string;
  enabled: boolean;
  updatedAt: number;
}

export interface WebhookChange {
  url: string;
  /** Keeps the stored secret when absent. */
  secret?: string | undefined;
  enabled: boolean;
}

const CACHE_MS = 5_000;

export const webhookView = ({ channel, url, enabled, updatedAt }: Webhook): WebhookView => ({
  channel,
  url,
  enabled,
  updatedAt,
});

export class WebhookRegistry {
  private readonly cache = new Map<string, { webhooks: Map<Channel, Webhook>; loadedAt: number }>();

  constructor(private readonly db: NotificationDb) {}

  /** Every webhook of the app, enabled or not. */
  async all(appId: string): Promise<Map<Channel, Webhook>> {
    const cached = this.cache.get(appId);
    if (cached !== undefined && performance.now() - cached.loadedAt < CACHE_MS) return cached.webhooks;
    const rows = await this.db
      .selectFrom('notification_webhooks')
      .selectAll()
      .where('app_id', '=', appId)
      .execute();
    const webhooks = new Map(
      rows.map((row) => [
        row.channel,
        {
          channel: row.channel,
          url: row.url,
          secret: row.secret,
          enabled: row.enabled === 1,
          updatedAt: row.updated_at,
        },
      ]),
    );
    this.cache.set(appId, { webhooks, loadedAt: performance.now() });
    return webhooks;
  }

  /** The channels the app delivers through now. */
  async enabled(appId: string): Promise<Set<Channel>> {
    const webhooks = await this.all(appId);
    return new Set(CHANNELS.filter((channel) => webhooks.get(channel)?.enabled === true));
  }

  async list(appId: string): Promise<WebhookView[]> {
    const webhooks = await this.all(appId);
    return CHANNELS.flatMap((channel) => {
      const webhook = webhooks.get(channel);
      return webhook === undefined ? [] : [webhookView(webhook)];
    });
  }

  /**
   * Creates or replaces the channel's webhook. Returns undefined, changing nothing, when no secret
   * is given and none is stored yet.
   */
  async put(
    appId: string,
    channel: Channel,
    change: WebhookChange,
    now: number,
  ): Promise<WebhookView | undefined> {
    this.cache.delete(appId);
    const stored = (await this.all(appId)).get(channel);
    const secret = change.secret ?? stored?.secret;
    if (secret === undefined) return undefined;
    const values = { url: change.url, secret, enabled: change.enabled ? 1 : 0, updated_at: now };
    await this.db
      .insertInto('notification_webhooks')
      .values({ app_id: appId, channel, ...values })
      .onConflict((oc) => oc.columns(['app_id', 'channel']).doUpdateSet(values))
      .execute();
    this.cache.delete(appId);
    return { channel, url: change.url, enabled: change.enabled, updatedAt: now };
  }
}
