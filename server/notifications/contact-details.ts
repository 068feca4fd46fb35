import { chunks } from './chunks.js';
import type { NotificationDb } from './tables.js';

/**
 * Where a user is reached by e-mail and SMS: set by the user (client API) or the app's server
 * (`onBehalfOf`), read only by that user, the app's server and the providers.
 */

export interface ContactDetails {
  email?: string;
  /** With country code, as CometChat names it. */
  phno?: string;
}

export class ContactDirectory {
  constructor(private readonly db: NotificationDb) {}

  async get(appId: string, uid: string): Promise<ContactDetails> {
    return (await this.getMany(appId, [uid])).get(uid) ?? {};
  }

  /** The details of each user that has any, by uid. */
  async getMany(appId: string, uids: readonly string[]): Promise<Map<string, ContactDetails>> {
    const found = new Map<string, ContactDetails>();
    for (const part of chunks(uids)) {
      const rows = await this.db
        .selectFrom('notification_contacts')
        .select(['uid', 'email', 'phone'])
        .where('app_id', '=', appId)
        .where('uid', 'in', part)
        .execute();
      for (const row of rows)
        found.set(row.uid, {
          ...(row.email === null ? {} : { email: row.email }),
          ...(row.phone === null ? {} : { phno: row.phone }),
        });
    }
    return found;
  }

  /** Changes the fields given (null clears one); answers the details as stored. */
  async update(
    appId: string,
    uid: string,
    change: { email?: string | null | undefined; phno?: string | null | undefined },
    now: number,
  ): Promise<ContactDetails> {
    const current = await this.get(appId, uid);
    const email = change.email === undefined ? (current.email ?? null) : change.email;
    const phone = change.phno === undefined ? (current.phno ?? null) : change.phno;
    await this.db
      .insertInto('notification_contacts')
      .values({ app_id: appId, uid, email, phone, updated_at: now })
      .onConflict((oc) => oc.columns(['app_id', 'uid']).doUpdateSet({ email, phone, updated_at: now }))
      .execute();
    return this.get(appId, uid);
  }

  async remove(appId: string, uid: string): Promise<void> {
    await this.db
      .deleteFrom('notification_contacts')
      .where('app_id', '=', appId)
      .where('uid', '=', uid)
      .execute();
  }
}
