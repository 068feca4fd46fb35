import type { Kysely } from 'kysely';
import type { FlagReason } from '../../shared/moderation.js';
import type { ChatDatabase, FlagReasonTable } from '../db/schema.js';

const reasonOf = (row: FlagReasonTable): FlagReason => ({
  id: row.id,
  name: row.name,
  description: row.description,
  default: false,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

/** The app's own flag reasons (the defaults live in `shared/moderation.ts`, not here). */
export class FlagReasonRepository {
  constructor(private readonly db: Kysely<ChatDatabase>) {}

  async list(appId: string): Promise<FlagReason[]> {
    const rows = await this.db
      .selectFrom('flag_reasons')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(reasonOf);
  }

  /** False when the app has a reason with this id already. */
  async create(appId: string, reason: Omit<FlagReason, 'default'>): Promise<boolean> {
    const inserted = await this.db
      .insertInto('flag_reasons')
      .values({
        app_id: appId,
        id: reason.id,
        name: reason.name,
        description: reason.description,
        created_at: reason.createdAt,
        updated_at: reason.updatedAt,
      })
      .onConflict((oc) => oc.columns(['app_id', 'id']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async update(appId: string, reason: FlagReason): Promise<void> {
    await this.db
      .updateTable('flag_reasons')
      .set({ name: reason.name, description: reason.description, updated_at: reason.updatedAt })
      .where('app_id', '=', appId)
      .where('id', '=', reason.id)
      .execute();
  }

  /** False when there was no such reason. */
  async delete(appId: string, id: string): Promise<boolean> {
    const deleted = await this.db
      .deleteFrom('flag_reasons')
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  }
}
