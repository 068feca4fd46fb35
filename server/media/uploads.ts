import type { ExpressionBuilder, Kysely } from 'kysely';
import type { ChatDatabase } from '../db/schema.js';

/** An image's upright size, as recorded when its file landed. */
export interface ImageSize {
  width: number;
  height: number;
}

/** Rows the sweep may take at `before`: their target expired, and no send claimed them since. */
const sweepable = (before: number) => (eb: ExpressionBuilder<ChatDatabase, 'media_uploads'>) =>
  eb.and([
    eb('expires_at', '<', before),
    eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', before)]),
  ]);

/** An upload a send linked, as `claim` takes it and `release` gives it back. */
export interface ClaimedUpload {
  folder: string;
  /** The image's size; null for a file that is not an image. */
  image: ImageSize | null;
}

/**
 * The presigned upload targets issued and not yet linked to a message, by upload folder. A row is
 * written when the target is issued and gets the image's size when the file lands. A send that
 * links the file marks the row (`claim`, one send only) and removes it once the message is
 * committed (`forget`); a send refused gives it back (`release`). The sweep takes a row whose
 * target expired and whose claim, if any, is older than the grace (a send that died: no send takes
 * that long), deleting it in one statement (`sweep`): whichever of a claim and the sweep comes
 * first wins, so a file is never both linked and swept, even across processes. A multipart send
 * records its folders the same way while it writes them, until its message is sent.
 */
export class PresignedUploads {
  constructor(private readonly db: Kysely<ChatDatabase>) {}

  async issued(folder: string, appId: string, expiresAt: number): Promise<void> {
    await this.db
      .insertInto('media_uploads')
      .values({ folder, app_id: appId, expires_at: expiresAt, width: null, height: null })
      .execute();
  }

  /** Records that the file landed (with its size if an image); false when the target is gone. */
  async landed(folder: string, image: ImageSize | undefined): Promise<boolean> {
    const result = await this.db
      .updateTable('media_uploads')
      .set({ width: image?.width ?? null, height: image?.height ?? null })
      .where('folder', '=', folder)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Takes the upload for a message sent at `now` (epoch seconds), or undefined when there is no
   * such unlinked upload (never issued, linked by another send, or swept). The row stays until the
   * message is committed.
   */
  async claim(folder: string, now: number): Promise<ClaimedUpload | undefined> {
    const row = await this.db
      .selectFrom('media_uploads')
      .select(['width', 'height'])
      .where('folder', '=', folder)
      .where('claimed_at', 'is', null)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const result = await this.db
      .updateTable('media_uploads')
      .set({ claimed_at: now })
      .where('folder', '=', folder)
      .where('claimed_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return {
      folder,
      image: row.width === null || row.height === null ? null : { width: row.width, height: row.height },
    };
  }

  /** Gives claimed uploads back (their message was not sent after all): another send may link them. */
  async release(uploads: ReadonlyArray<ClaimedUpload>): Promise<void> {
    if (uploads.length === 0) return;
    await this.db
      .updateTable('media_uploads')
      .set({ claimed_at: null })
      .where(
        'folder',
        'in',
        uploads.map(({ folder }) => folder),
      )
      .execute();
  }

  /**
   * Folders the sweep may take at `before` (epoch seconds): their targets expired before it, and
   * any send that claimed them did so before it too. Oldest first.
   */
  async expiredBefore(before: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('media_uploads')
      .select('folder')
      .where(sweepable(before))
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.folder);
  }

  /** Deletes the row if the sweep may still take it at `before`; true for the one caller that did. */
  async sweep(folder: string, before: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('media_uploads')
      .where('folder', '=', folder)
      .where(sweepable(before))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Whether a message links a file of the upload folder: one of its app and conversation whose data
   * names the folder's random file id (32 hex digits, in no other message).
   */
  async linkedByMessage(folder: string): Promise<boolean> {
    const [appSegment, conversationId, fileId] = folder.split('/');
    if (appSegment === undefined || conversationId === undefined || fileId === undefined) return false;
    const row = await this.db
      .selectFrom('messages')
      .select('id')
      .where('app_id', '=', decodeURIComponent(appSegment))
      .where('conversation_id', '=', conversationId)
      .where('data', 'like', `%/${fileId}/%`)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Deletes the rows: their message was sent (or their files removed with it). */
  async forget(folders: ReadonlyArray<string>): Promise<void> {
    if (folders.length > 0)
      await this.db.deleteFrom('media_uploads').where('folder', 'in', folders).execute();
  }
}
