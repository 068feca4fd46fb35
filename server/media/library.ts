import { randomBytes } from 'node:crypto';
import type { Metadata } from 'sharp';
import type { Message } from '../../shared/message.js';
import { ChatError, badRequest } from '../errors.js';
import type { App } from '../repositories/apps.js';
import type { FileStore } from '../storage/index.js';
import { nowSeconds } from '../time.js';
import { uploadTooLarge } from './form.js';
import { MAX_FILES_PER_MESSAGE, kindOf, sanitisedName, type FileKind } from './policy.js';
import type { ClaimedUpload, PresignedUploads } from './uploads.js';
import { addressOf, filePath, storageKey, uploadFolder, type FileAddress, type MediaUrls } from './urls.js';

/** A file of a multipart upload, as the request gave it. */
export interface IncomingFile {
  name: string;
  bytes: Uint8Array;
}

/** A file checked and ready to store: its safe name, kind, and for an image its size and thumbnail. */
export interface CheckedFile {
  name: string;
  kind: FileKind;
  bytes: Uint8Array;
  image?: { width: number; height: number; thumbnail: Uint8Array };
}

/** CometChat's attachment object, as the SDK's `Attachment` and the UI Kit read it. */
export interface StoredAttachment {
  url: string;
  name: string;
  extension: string;
  mimeType: string;
  size: number;
  /** Images: their dimensions, as the UI Kit reads them for media. */
  metadata?: { width: number; height: number };
}

/** What an upload adds to a message's `data`, and the folders to remove if the message is not sent. */
export interface StoredUpload {
  attachments: StoredAttachment[];
  /** `metadata["@injected"].extensions["thumbnail-generation"]`, CometChat's thumbnail extension. */
  thumbnails?: Record<string, unknown>;
  folders: string[];
}

/** Thumbnails fit in this square; pictures are decoded with at most this many pixels. */
const THUMBNAIL_SIZE = 480;
const MAX_IMAGE_PIXELS = 50_000_000;

/** Strings of a message that may be stored file URLs: its attachments, `url` and injected thumbnails. */
function* urlHolders(data: Record<string, unknown>): Generator<[Record<string, unknown>, string]> {
  if (typeof data.url === 'string') yield [data, 'url'];
  for (const attachment of Array.isArray(data.attachments) ? data.attachments : []) {
    if (
      typeof attachment === 'object' &&
      attachment !== null &&
      typeof (attachment as { url?: unknown }).url === 'string'
    )
      yield [attachment as Record<string, unknown>, 'url'];
  }
  const metadata = data.metadata as Record<string, unknown> | undefined;
  const injected = metadata?.['@injected'];
  const walk = function* (node: unknown): Generator<[Record<string, unknown>, string]> {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string') yield [node as Record<string, unknown>, key];
      else yield* walk(value);
    }
  };
  yield* walk(injected);
}

const parseUrl = (value: string): URL | undefined => {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
};

/**
 * Attachments: checks and stores uploaded files (allow-list, size cap, sanitised names, images
 * decoded for their dimensions and a thumbnail), signs their URLs for the readers of a message, and
 * removes them with their message.
 */
export class MediaLibrary {
  constructor(
    readonly files: FileStore,
    readonly urls: MediaUrls,
    readonly uploads: PresignedUploads,
  ) {}

  /**
   * Every file checked before any is written: at least one and at most ten, their bytes together
   * within the app's cap, each with a name left after sanitising and an allowed extension, each
   * image decodable as its type. The first file at fault is named (`files.N`, or `fieldOf(N)`).
   */
  async check(
    incoming: ReadonlyArray<IncomingFile>,
    maxBytes: number,
    fieldOf: (index: number) => string = (index) => `files.${index}`,
  ): Promise<CheckedFile[]> {
    if (incoming.length === 0) throw badRequest('files', 'a media message needs at least one file');
    if (incoming.length > MAX_FILES_PER_MESSAGE)
      throw badRequest('files', `at most ${MAX_FILES_PER_MESSAGE} files a message`);
    const total = incoming.reduce((sum, file) => sum + file.bytes.byteLength, 0);
    if (total > maxBytes) throw uploadTooLarge('files', maxBytes);
    const checked: CheckedFile[] = [];
    for (const [index, file] of incoming.entries()) {
      const field = fieldOf(index);
      if (file.bytes.byteLength === 0) throw badRequest(field, 'the file is empty');
      const name = sanitisedName(file.name);
      if (name === undefined) throw badRequest(field, 'the file needs a name');
      const kind = kindOf(name);
      if (kind === undefined) {
        throw new ChatError(
          415,
          'ERR_FILE_TYPE_NOT_ALLOWED',
          `${field}: files of this type are not accepted (${name})`,
          { field },
        );
      }
      checked.push({
        name,
        kind,
        bytes: file.bytes,
        ...(kind.image ? { image: await imageOf(file.bytes, kind, field, name) } : {}),
      });
    }
    return checked;
  }

  /**
   * Writes checked files of one conversation under a fresh random folder each and answers the
   * attachments with their (unsigned) URLs on `origin`. If a write fails, what was written is
   * removed before the error goes on: a failed upload leaves nothing behind.
   */
  async store(
    app: App,
    conversationId: string,
    checked: ReadonlyArray<CheckedFile>,
    origin: string,
  ): Promise<StoredUpload> {
    const folders: string[] = [];
    const attachments: StoredAttachment[] = [];
    const thumbnails: ThumbnailOf[] = [];
    const urlOf = (address: FileAddress) => new URL(`/media/${storageKey(address)}`, origin).toString();
    try {
      for (const file of checked) {
        const fileId = randomBytes(16).toString('hex');
        const address = { appId: app.appId, conversationId, fileId, name: file.name };
        const folder = uploadFolder(address);
        // Recorded before the write, as a presigned target is: if the process dies before the
        // message is sent (or before `settle`), the sweep finds the files.
        await this.uploads.issued(folder, app.appId, nowSeconds());
        folders.push(folder);
        await this.put(address, file);
        attachments.push({
          url: urlOf(address),
          name: file.name,
          extension: file.kind.extension,
          mimeType: file.kind.mimeType,
          size: file.bytes.byteLength,
          ...(file.image === undefined
            ? {}
            : { metadata: { width: file.image.width, height: file.image.height } }),
        });
        if (file.image !== undefined)
          thumbnails.push({ name: file.name, url: urlOf(thumbnailOf(address, file.kind)) });
      }
    } catch (error) {
      await this.discard(folders);
      throw error;
    }
    return { attachments, ...thumbnailExtension(thumbnails), folders };
  }

  /**
   * Writes one checked file at its address, an image's thumbnail first: the file itself is the
   * last write, so where it exists, all of it does.
   */
  async put(address: FileAddress, file: CheckedFile): Promise<void> {
    if (file.image !== undefined)
      await this.files.put(storageKey(thumbnailOf(address, file.kind)), file.image.thumbnail, 'image/webp');
    await this.files.put(storageKey(address), file.bytes, file.kind.mimeType);
  }

  /**
   * Stores the checked file of a presigned upload at its address and records that it landed. When
   * the upload's target is gone meanwhile (the sweep took it), what was written is removed again
   * and the upload is refused.
   */
  async land(address: FileAddress, file: CheckedFile): Promise<void> {
    const folder = uploadFolder(address);
    try {
      await this.put(address, file);
    } catch (error) {
      await this.files.deleteFolder(folder);
      throw error;
    }
    const image =
      file.image === undefined ? undefined : { width: file.image.width, height: file.image.height };
    if (!(await this.uploads.landed(folder, image))) {
      await this.files.deleteFolder(folder);
      throw new ChatError(403, 'ERR_MEDIA_URL_INVALID', 'The upload link is not valid or has expired.');
    }
  }

  /**
   * Removes the files of presigned uploads never linked to a message whose targets expired more
   * than `graceSeconds` before `now` (epoch seconds): at most `limit` of them, answering how many.
   */
  async sweepUnlinked(now: number, graceSeconds: number, limit = 100): Promise<number> {
    let swept = 0;
    const before = now - graceSeconds;
    for (const folder of await this.uploads.expiredBefore(before, limit)) {
      if (!(await this.uploads.sweep(folder, before))) continue;
      // A message committed just before its process died, its record not yet gone, keeps its files.
      if (await this.uploads.linkedByMessage(folder)) continue;
      await this.files.deleteFolder(folder);
      swept += 1;
    }
    return swept;
  }

  /** Removes upload folders (a message that was not sent, or was deleted) and any record of them. */
  async discard(folders: ReadonlyArray<string>): Promise<void> {
    await Promise.all(folders.map((folder) => this.files.deleteFolder(folder)));
    await this.settle(folders);
  }

  /** The message of an upload (multipart or linked) was sent: its folders are the message's now, not the sweep's. */
  async settle(folders: ReadonlyArray<string>): Promise<void> {
    await this.uploads.forget(folders);
  }

  /**
   * The upload folders a message's files live in: its attachments' paths in its own app and
   * conversation. Sends refuse URLs of stored files, so these are the files its upload wrote.
   */
  foldersOf(appId: string, conversationId: string, data: Record<string, unknown>): string[] {
    const attachments = Array.isArray(data.attachments) ? data.attachments : [];
    const folders = attachments.flatMap((attachment: unknown) => {
      const url = parseUrl(String((attachment as { url?: unknown } | null)?.url ?? ''));
      const address = url === undefined ? undefined : addressOf(url.pathname);
      return address?.appId === appId && address.conversationId === conversationId
        ? [uploadFolder(address)]
        : [];
    });
    return [...new Set(folders)];
  }

  /**
   * A sender may link files elsewhere by URL, but a file stored here only when they uploaded it
   * themselves through a presigned URL (`/files/upload-url`) for this very conversation, it arrived
   * and no other message linked it: so deleting a message removes only files its own sender put
   * there. Answers the data with those attachments' URLs unsigned, their sizes as stored, an
   * image's dimensions and thumbnail as a multipart upload gets them, and the uploads it claimed:
   * `settle` their folders once the message is sent, give them back with `uploads.release` if it is
   * not (their records stay until then, so a process dying before the send commits leaves them to
   * the sweep, which keeps any a committed message names). Anything else stored is a
   * 400. `conversationId` is undefined where the message goes to several conversations (none may link).
   */
  async linkUploads<
    T extends {
      url?: unknown;
      attachments?: unknown;
      metadata?: Record<string, unknown>;
    },
  >(
    appId: string,
    uid: string,
    conversationId: string | undefined,
    data: T,
  ): Promise<{ data: T; claimed: ClaimedUpload[] }> {
    const refused = (field: string) =>
      badRequest(field, 'a stored file is attached by uploading it, not by its URL');
    const addressIn = (value: unknown) => {
      const url = typeof value === 'string' ? parseUrl(value) : undefined;
      return url === undefined ? undefined : { url, address: addressOf(url.pathname) };
    };
    if (addressIn(data.url)?.address !== undefined) throw refused('data.url');
    const claimed: ClaimedUpload[] = [];
    // Only an array's attachments are ever read as files (`foldersOf`); other messages' data is free-form.
    if (!Array.isArray(data.attachments)) return { data, claimed };
    const thumbnails: ThumbnailOf[] = [];
    const attachments: unknown[] = [];
    try {
      for (const [index, attachment] of (data.attachments as unknown[]).entries()) {
        const found = addressIn((attachment as { url?: unknown } | null)?.url);
        if (found?.address === undefined) {
          attachments.push(attachment);
          continue;
        }
        const { url, address } = found;
        const size =
          address.appId === appId &&
          address.conversationId === conversationId &&
          (await this.urls.isUploadBy(address, uid))
            ? await this.files.size(storageKey(address))
            : undefined;
        const upload =
          size === undefined ? undefined : await this.uploads.claim(uploadFolder(address), nowSeconds());
        if (upload === undefined) throw refused(`data.attachments.${index}.url`);
        claimed.push(upload);
        const { metadata: _metadata, ...rest } = attachment as Record<string, unknown>;
        attachments.push({
          ...rest,
          url: `${url.origin}${url.pathname}`,
          size,
          ...(upload.image === null ? {} : { metadata: upload.image }),
        });
        const kind = kindOf(address.name);
        if (upload.image !== null && kind !== undefined) {
          const thumbnail = filePath(thumbnailOf(address, kind));
          thumbnails.push({ name: address.name, url: `${url.origin}${thumbnail}` });
        }
      }
    } catch (error) {
      await this.uploads.release(claimed);
      throw error;
    }
    const { thumbnails: extension } = thumbnailExtension(thumbnails);
    return {
      data: {
        ...data,
        attachments,
        ...(extension === undefined ? {} : { metadata: withThumbnails(data.metadata, extension) }),
      },
      claimed,
    };
  }

  /**
   * The messages with each URL of a file stored for its own app and conversation signed for a
   * while; an action message's message (`entities.on`) too. Nothing else is touched. Messages that
   * hold no URL (nearly every text) are answered at once, with no signer made.
   */
  signed(app: App, messages: ReadonlyArray<Message>): Promise<Message[]> | Message[] {
    return messages.some(mayHoldUrls) ? this.#signAll(app, messages) : [...messages];
  }

  async #signAll(app: App, messages: ReadonlyArray<Message>): Promise<Message[]> {
    const sign = await this.urls.signer();
    const signMessage = (message: Message): Message => {
      const on = message.data.entities.on;
      if (on?.entityType === 'message') {
        return {
          ...message,
          data: {
            ...message.data,
            entities: { ...message.data.entities, on: { ...on, entity: signMessage(on.entity) } },
          },
        };
      }
      if (!mayHoldUrls(message)) return message;
      const data = structuredClone(message.data) as Record<string, unknown>;
      let changed = false;
      for (const [holder, key] of urlHolders(data)) {
        const url = parseUrl(String(holder[key]));
        const address = url === undefined ? undefined : addressOf(url.pathname);
        if (
          url === undefined ||
          address?.appId !== app.appId ||
          address.conversationId !== message.conversationId
        )
          continue;
        holder[key] = sign(url);
        changed = true;
      }
      return changed ? { ...message, data: data as Message['data'] } : message;
    };
    return messages.map(signMessage);
  }
}

/** Whether `signed` may change a message: it names a URL, attachments, injected metadata or a message. */
function mayHoldUrls(message: Message): boolean {
  const { url, attachments, metadata, entities } = message.data;
  return (
    url !== undefined ||
    attachments !== undefined ||
    metadata?.['@injected'] !== undefined ||
    entities.on?.entityType === 'message'
  );
}

/** An image's thumbnail, as CometChat's thumbnail extension lists it. */
interface ThumbnailOf {
  name: string;
  url: string;
}

/** `metadata["@injected"].extensions["thumbnail-generation"]` of a message's images, if it has any. */
function thumbnailExtension(thumbnails: ReadonlyArray<ThumbnailOf>): {
  thumbnails?: Record<string, unknown>;
} {
  const [first] = thumbnails;
  if (first === undefined) return {};
  return {
    thumbnails: {
      url_medium: first.url,
      attachments: thumbnails.map(({ name, url }) => ({
        data: { name, thumbnails: { url_medium: url } },
        error: null,
      })),
    },
  };
}

/** A message's metadata with the thumbnail extension injected: only the service injects, so what a client put under `@injected` is replaced. */
export function withThumbnails(
  metadata: Record<string, unknown> | undefined,
  extension: Record<string, unknown>,
): Record<string, unknown> {
  return { ...metadata, '@injected': { extensions: { 'thumbnail-generation': extension } } };
}

/** Where an image's thumbnail is kept: beside it, as `<name>.thumbnail.webp`. */
const thumbnailOf = (address: FileAddress, kind: FileKind): FileAddress => ({
  ...address,
  name: `${address.name.slice(0, -kind.extension.length - 1)}.thumbnail.webp`,
});

/** What sharp reports as the format of an image of each allowed extension (AVIF is HEIF with AV1). */
const FORMAT_OF_EXTENSION: Readonly<Record<string, string>> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
  avif: 'heif',
};

/**
 * An image's upright size and a thumbnail, or a 400 naming the file when it does not decode as
 * the kind its name declares (a JPEG named `.png` is refused: it is served as what its name says).
 */
async function imageOf(
  bytes: Uint8Array,
  kind: FileKind,
  field: string,
  name: string,
): Promise<{ width: number; height: number; thumbnail: Uint8Array }> {
  const refused = () =>
    badRequest(
      field,
      `${name} cannot be read as a ${kind.extension.toUpperCase()} image (damaged, another type, or over 50 megapixels)`,
    );
  let metadata: Metadata;
  let thumbnail: Uint8Array;
  // Loaded at the first image, so a process that never receives one starts without libvips.
  const { default: sharp } = await import('sharp');
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS });
    metadata = await image.metadata();
    thumbnail = await image
      .clone()
      .rotate()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp()
      .toBuffer();
  } catch {
    throw refused();
  }
  if (metadata.format !== FORMAT_OF_EXTENSION[kind.extension]) throw refused();
  return { width: metadata.autoOrient.width, height: metadata.autoOrient.height, thumbnail };
}
