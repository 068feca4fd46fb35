import { contentType } from 'mime-types';

/**
 * What may be uploaded, by extension: pictures browsers show, common audio and video, documents,
 * text and archives. Nothing a browser would run (HTML, SVG, scripts): a file is served as the type
 * its extension names, never as what its bytes look like.
 */
export const ALLOWED_EXTENSIONS: ReadonlySet<string> = new Set([
  // images (decoded on upload: dimensions and a thumbnail)
  'jpg', 'jpeg', 'png', 'gif', 'webp', 'avif',
  // audio
  'mp3', 'm4a', 'aac', 'ogg', 'oga', 'opus', 'wav', 'weba',
  // video
  'mp4', 'm4v', 'webm', 'mov', 'ogv',
  // documents, text, archives
  'pdf', 'txt', 'csv', 'md', 'json', 'rtf',
  'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'key', 'pages', 'numbers',
  'zip', '7z', 'gz', 'tar',
]); // prettier-ignore

/** Images sharp decodes for their size and a thumbnail. */
const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif']);

/** CometChat's default: 25 MB a message's files together, unless the app sets its own. */
export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** What an app may set at most: a message's files are held in memory while they are checked. */
export const MAX_UPLOAD_BYTES_CEILING = 100 * 1024 * 1024;
/** Room for a multipart form's other fields and part headers beside its files. */
export const FORM_OVERHEAD_BYTES = 64 * 1024;
/** Files a message may carry at most. */
export const MAX_FILES_PER_MESSAGE = 10;
/** Longest stored name, in characters, extension included. */
const MAX_NAME_LENGTH = 120;

export interface FileKind {
  extension: string;
  /** The Content-Type the file is stored and served with. */
  mimeType: string;
  image: boolean;
}

/** The extension in lower case, or '' when the name has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The kind of an allowed name, or undefined when its extension is not on the allow-list. */
export function kindOf(name: string): FileKind | undefined {
  const extension = extensionOf(name);
  if (!ALLOWED_EXTENSIONS.has(extension)) return undefined;
  const mimeType = contentType(extension);
  if (mimeType === false) return undefined;
  return { extension, mimeType, image: IMAGE_EXTENSIONS.has(extension) };
}

/**
 * A name safe to store, put in a URL path and send in Content-Disposition: the last path segment
 * only, without control characters or characters file systems and shells treat specially, no
 * leading dots, at most 120 characters with its extension kept. Undefined when nothing is left.
 */
export function sanitisedName(raw: string): string | undefined {
  const lastSegment = raw.split(/[/\\]/).at(-1) ?? '';
  const cleaned = lastSegment
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/[<>:"|?*%#&;$`'{}[\]^~=+]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (cleaned === '') return undefined;
  const chars = [...cleaned];
  if (chars.length <= MAX_NAME_LENGTH) return cleaned;
  const extension = extensionOf(cleaned);
  const tail = extension === '' ? '' : `.${extension}`;
  return (
    chars
      .slice(0, MAX_NAME_LENGTH - [...tail].length)
      .join('')
      .trimEnd() + tail
  );
}
