import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { readForm } from '../../shared/server-kit/index.js';
import { ChatError, badRequest } from '../errors.js';
import { FORM_OVERHEAD_BYTES } from './policy.js';

/** The 413 of an upload over its app's cap, naming `field` (`files` of a message, one presigned `file`). */
export const uploadTooLarge = (field: 'files' | 'file', maxBytes: number): ChatError =>
  new ChatError(
    413,
    'ERR_FILE_TOO_LARGE',
    field === 'files'
      ? `files: a message's files are at most ${maxBytes} bytes together`
      : `file: a file is at most ${maxBytes} bytes`,
    { field, maxBytes },
  );

/**
 * The multipart form of an upload, read no further than its app's cap (and room for the form's
 * other fields): a declared length over it is refused before anything is read, a streamed body (no
 * Content-Length) as soon as it passes the cap, so no request holds more than that in memory.
 */
export async function uploadForm(c: Context, maxBytes: number, field: 'files' | 'file'): Promise<FormData> {
  let form: FormData | undefined;
  const limit = bodyLimit({
    maxSize: maxBytes + FORM_OVERHEAD_BYTES,
    onError: () => {
      throw uploadTooLarge(field, maxBytes);
    },
  });
  await limit(c, async () => {
    form = await readForm(c);
  });
  if (form === undefined) throw badRequest('body', 'not valid multipart form data');
  return form;
}
