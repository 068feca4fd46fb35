import type { Kysely } from 'kysely';
import type { ChatDatabase } from '../db/schema.js';

/** An image's upright size, as recorded when its file landed. */
export interface ImageSize {
  width: number;
  height: number;
}

/** An unlinked upload, as `claim` takes it and `release` gives it back. */
export interface ClaimedUpload {
  folder: string;
  appId: string;
  expiresAt: number;
  /** The image's size; null for a file that is not an image. */
  image: ImageSize | null;
}

/**
 * The presigned upload targets issued and not yet linked to a message, by upload folder. A row is
 * written when the target is issued, gets the image's size when the file lands, and goes when a
 * message links the file (`claim`) or the sweep removes the file (`forget`): whichever deletes the
 * row owns the folder, so a file is never both linked and swept, even across processes. A
 * multipart send records its folders the same way while it writes them, until its message is sent.
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
   * Takes the upload for a message, or undefined when there is no such unlinked upload (never
   * issued, already linked, or swept).
   */
  async claim(folder: string): Promise<ClaimedUpload | undefined> {
    const row = await this.db
      .selectFrom('media_uploads')
      .select(['app_id', 'expires_at', 'width', 'height'])
      .where('folder', '=', folder)
      .executeTakeFirst();
    if (row === undefined || !(await this.forget(folder))) return undefined;
    return {
      folder,
      appId: row.app_id,
      expiresAt: Number(row.expires_at),
      image: row.width === null || row.height === null ? null : { width: row.width, height: row.height },
    };
  }

  /** Gives claimed uploads back (their message was not sent after all): the sweep may take them. */
  async release(uploads: ReadonlyArray<ClaimedUpload>): Promise<void> {
    for (const { folder, appId, expiresAt, image } of uploads) {
      await this.db
        .insertInto('media_uploads')
        .values({
          folder,
          app_id: appId,
          expires_at: expiresAt,
          width: image?.width ?? null,
          height: image?.height ?? null,
        })
        .onConflict((oc) => oc.column('folder').doNothing())
        .execute();
    }
  }

  /** Folders of uploads whose targets expired before `before` (epoch seconds), oldest first. */
  async expiredBefore(before: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('media_uploads')
      .select('folder')
      .where('expires_at', '<', before)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.folder);
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

  /** Deletes the row; true for the one caller that deleted it. */
  async forget(folder: string): Promise<boolean> {
    const result = await this.db.deleteFrom('media_uploads').where('folder', '=', folder).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
