import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ChatDatabase } from '../db/schema.js';
import { AppCache, type ChangeNotices } from './app-cache.js';
import { nowSeconds } from '../time.js';
import { DEFAULT_MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES_CEILING } from '../media/policy.js';

/** Origins are compared as `scheme://host[:port]`, the way `URL.origin` writes them. */
const Origin = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, '')
      );
    } catch {
      return false;
    }
  }, 'must be an origin such as https://api.example.com (scheme, host and port only)')
  .transform((value) => new URL(value).origin);

/**
 * What an app decides about its clients: whether logging in with an unknown UID creates that user,
 * which origins the server may call when a form button's apiAction runs (none listed: only this
 * server itself), and how many bytes the files of one message may have together.
 */
export const ClientSettings = z.strictObject({
  createUsersOnLogin: z.boolean(),
  apiActionOrigins: z.array(Origin).max(100, 'at most 100 origins'),
  maxUploadBytes: z
    .int('must be a whole number of bytes')
    .min(1, 'must be at least 1 byte')
    .max(MAX_UPLOAD_BYTES_CEILING, `must be at most ${MAX_UPLOAD_BYTES_CEILING} bytes`),
});
export type ClientSettings = z.infer<typeof ClientSettings>;

export const ClientSettingsChanges = ClientSettings.partial();
export type ClientSettingsChanges = z.infer<typeof ClientSettingsChanges>;

export const DEFAULT_CLIENT_SETTINGS: ClientSettings = {
  createUsersOnLogin: false,
  apiActionOrigins: [],
  maxUploadBytes: DEFAULT_MAX_UPLOAD_BYTES,
};

/**
 * Client settings per app, read on every login and form submission: cached per process, and a
 * change through any process is announced to the others (`ChangeNotices`).
 */
export class ClientSettingsRepository {
  private readonly cache: AppCache<ClientSettings>;

  constructor(
    private readonly db: Kysely<ChatDatabase>,
    notices: ChangeNotices,
  ) {
    this.cache = new AppCache('client-settings', notices);
  }

  get(appId: string): Promise<ClientSettings> {
    return this.cache.get(appId, async () => {
      const row = await this.db
        .selectFrom('app_client_settings')
        .select('settings')
        .where('app_id', '=', appId)
        .executeTakeFirst();
      return row === undefined
        ? DEFAULT_CLIENT_SETTINGS
        : { ...DEFAULT_CLIENT_SETTINGS, ...(JSON.parse(row.settings) as Partial<ClientSettings>) };
    });
  }

  async update(appId: string, changes: ClientSettingsChanges): Promise<ClientSettings> {
    const next = { ...(await this.get(appId)), ...changes };
    const now = nowSeconds();
    await this.db
      .insertInto('app_client_settings')
      .values({ app_id: appId, settings: JSON.stringify(next), updated_at: now })
      .onConflict((oc) =>
        oc.column('app_id').doUpdateSet({ settings: JSON.stringify(next), updated_at: now }),
      )
      .execute();
    this.cache.changed(appId);
    return next;
  }
}
