import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ChatDatabase } from '../db/schema.js';
import { nowSeconds } from '../time.js';
import { sanitisedName } from './policy.js';

/** Where a stored file lives: its app, its conversation, its upload's random id and its name. */
export interface FileAddress {
  appId: string;
  conversationId: string;
  fileId: string;
  name: string;
}

/** How long a signed URL lets its holder download (1 hour). */
export const DEFAULT_URL_TTL_SECONDS = 3_600;
/** Expiries are rounded up to this, so a file's URL stays the same for a while and browsers cache it. */
const EXPIRY_STEP_SECONDS = 600;

const FILE_PATH = /^\/media\/([^/]{1,300})\/([a-z0-9_-]{1,220})\/([0-9a-f]{32})\/([^/]{1,1000})$/;

/** An app id as one path segment: escaped, with no `.` left to form `..`. */
const appSegment = (appId: string): string => encodeURIComponent(appId).replace(/\./g, '%2E');

/** The file's path under `/media`, also its key in the file store. */
export function filePath(address: FileAddress): string {
  return `/media/${appSegment(address.appId)}/${address.conversationId}/${address.fileId}/${encodeURIComponent(address.name)}`;
}

/** The file store key of a file: its path without `/media/`, every segment checked or escaped. */
export const storageKey = (address: FileAddress): string => filePath(address).slice('/media/'.length);

/** The folder holding an upload's file and its thumbnail. */
export const uploadFolder = (address: Omit<FileAddress, 'name'>): string =>
  `${appSegment(address.appId)}/${address.conversationId}/${address.fileId}/`;

/** The address a URL's path names, or undefined when it is not a stored file's path. */
export function addressOf(pathname: string): FileAddress | undefined {
  const match = FILE_PATH.exec(pathname);
  if (match === null) return undefined;
  const [, app, conversationId, fileId, name] = match as unknown as [string, string, string, string, string];
  let address: FileAddress;
  try {
    address = { appId: decodeURIComponent(app), conversationId, fileId, name: decodeURIComponent(name) };
  } catch {
    return undefined;
  }
  // One spelling per file: a path that is not exactly what the service writes names nothing.
  if (sanitisedName(address.name) !== address.name || filePath(address) !== pathname) return undefined;
  return address;
}

/**
 * Signed, expiring URLs for attachments. The service hands them only to callers who may read the
 * message (its conversation's members, the app's server API), and the file route serves a file
 * only with a valid, unexpired signature of its exact path, so a URL of another app or
 * conversation, a changed path or a changed expiry is refused. The secret is kept in the store, so
 * every process that shares it signs and checks alike.
 */
export class MediaUrls {
  private secret: Promise<Buffer> | undefined;

  constructor(
    private readonly db: Kysely<ChatDatabase>,
    readonly ttlSeconds = DEFAULT_URL_TTL_SECONDS,
  ) {}

  private key(): Promise<Buffer> {
    this.secret ??= this.loadSecret().catch((error: unknown) => {
      this.secret = undefined;
      throw error;
    });
    return this.secret;
  }

  private async loadSecret(): Promise<Buffer> {
    await this.db
      .insertInto('media_url_keys')
      .values({ name: 'signing', secret: randomBytes(32).toString('base64'), created_at: nowSeconds() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('media_url_keys')
      .select('secret')
      .where('name', '=', 'signing')
      .executeTakeFirstOrThrow();
    return Buffer.from(row.secret, 'base64');
  }

  private static signatureOf(secret: Buffer, pathname: string, expires: number): Buffer {
    return createHmac('sha256', secret).update(`${pathname}\n${expires}`).digest();
  }

  /** A signer for one response: every URL it signs expires at the same, rounded time. */
  async signer(now = nowSeconds()): Promise<(url: URL) => string> {
    const secret = await this.key();
    const expires = Math.ceil((now + this.ttlSeconds) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
    return (url) => {
      const signed = new URL(url.pathname, url.origin);
      signed.searchParams.set('expires', String(expires));
      signed.searchParams.set(
        'signature',
        MediaUrls.signatureOf(secret, url.pathname, expires).toString('base64url'),
      );
      return signed.toString();
    };
  }

  /**
   * A file id for a presigned upload by `uid` into a conversation: eight random bytes, then a mark
   * only this service can make binding them to the uploader, so only that user's message can
   * later link the file (see `MediaLibrary.linkUploads`).
   */
  async uploadFileId(appId: string, conversationId: string, uid: string): Promise<string> {
    const nonce = randomBytes(8).toString('hex');
    return `${nonce}${await this.uploadMark(appId, conversationId, uid, nonce)}`;
  }

  /** Whether the file at `address` was presigned for `uid` (its id carries `uid`'s mark). */
  async isUploadBy(address: FileAddress, uid: string): Promise<boolean> {
    const nonce = address.fileId.slice(0, 16);
    const expected = await this.uploadMark(address.appId, address.conversationId, uid, nonce);
    return timingSafeEqual(Buffer.from(address.fileId.slice(16)), Buffer.from(expected));
  }

  private async uploadMark(appId: string, conversationId: string, uid: string, nonce: string) {
    return createHmac('sha256', await this.key())
      .update(`upload\n${appId}\n${conversationId}\n${uid}\n${nonce}`)
      .digest('hex')
      .slice(0, 16);
  }

  /** Whether `signature` signs `pathname` until `expires`, and that time has not passed. */
  async verify(
    pathname: string,
    expires: string | undefined,
    signature: string | undefined,
  ): Promise<boolean> {
    if (expires === undefined || signature === undefined || !/^\d{1,12}$/.test(expires)) return false;
    const until = Number(expires);
    if (until < nowSeconds()) return false;
    const expected = MediaUrls.signatureOf(await this.key(), pathname, until);
    const given = Buffer.from(signature, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
