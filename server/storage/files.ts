import type { Readable } from 'node:stream';

/** A byte range of a stored file, both ends included (as HTTP's `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where attachments live. Keys are `/`-separated paths the media module builds from checked parts
 * (app, conversation, random file id, sanitised name); a store never sees a name a client chose
 * unchecked. Writing a key is all or nothing: a reader sees the whole file or none.
 */
export interface FileStore {
  /** What `describe` says in logs: the kind and place, never a credential. */
  readonly describe: string;
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** The size in bytes, or undefined when there is no such file. */
  size(key: string): Promise<number | undefined>;
  /** The file's bytes, or only `range` of them. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes every file whose key starts with `prefix` (a folder, ending in `/`); none is fine. */
  deleteFolder(prefix: string): Promise<void>;
  /** Lets go of connections; nothing to do for files on disk. */
  close(): void;
}
