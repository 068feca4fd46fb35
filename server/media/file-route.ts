import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { create as contentDisposition } from 'content-disposition';
import rangeParser from 'range-parser';
import { Readable } from 'node:stream';
import { ChatError } from '../errors.js';
import type { ChatEnv } from '../http/context.js';
import { nowSeconds } from '../time.js';
import type { MediaLibrary } from './library.js';
import { kindOf } from './policy.js';
import { addressOf, storageKey } from './urls.js';

const invalidLink = new ChatError(
  403,
  'ERR_MEDIA_URL_INVALID',
  'The link is not valid or has expired: read the message again for a fresh one.',
);
const gone = new ChatError(
  404,
  'ERR_MEDIA_NOT_FOUND',
  'The file does not exist (its message may have been deleted).',
);

/**
 * `GET /media/{appId}/{conversationId}/{fileId}/{name}?expires=…&signature=…`: an attachment, to
 * whoever holds the signed URL the service gave a reader of its message. Served as the type its
 * extension names with `nosniff`, inline for images and as a download for everything else, and in
 * byte ranges (audio and video seek with them). Beside `/v3`: `<img>` and `<video>` send no headers.
 */
export function mediaFileRoute(media: MediaLibrary): (app: OpenAPIHono<ChatEnv>) => void {
  const route = createRoute({
    method: 'get',
    path: '/media/{appId}/{conversationId}/{fileId}/{name}',
    summary: 'Download an attachment through the signed URL of its message (no other authentication)',
    request: {
      params: z.object({
        appId: z.string(),
        conversationId: z.string(),
        fileId: z.string(),
        name: z.string(),
      }),
      query: z.object({ expires: z.string().optional(), signature: z.string().optional() }),
    },
    responses: {
      200: { description: 'The file (inline for images, else as an attachment).' },
      206: { description: 'The requested byte range.' },
      403: { description: 'The link is forged, altered or expired.' },
      404: { description: 'No such file (its message was deleted).' },
      416: { description: 'The range lies outside the file.' },
    },
  });
  return (app) => {
    app.openapi(route, async (c) => {
      const pathname = new URL(c.req.url).pathname;
      const address = addressOf(pathname);
      const expires = c.req.query('expires');
      if (address === undefined || !(await media.urls.verify(pathname, expires, c.req.query('signature')))) {
        return c.json(invalidLink.toEnvelope(), 403);
      }
      const kind = kindOf(address.name);
      const key = storageKey(address);
      const size = kind === undefined ? undefined : await media.files.size(key);
      if (kind === undefined || size === undefined) return c.json(gone.toEnvelope(), 404);
      const headers = new Headers({
        'content-type': kind.mimeType,
        'x-content-type-options': 'nosniff',
        'content-disposition': contentDisposition(address.name, {
          type: kind.image ? 'inline' : 'attachment',
        }),
        'accept-ranges': 'bytes',
        // The URL is the credential: caches keep it no longer than it is valid, and only privately.
        'cache-control': `private, max-age=${Math.max(0, Number(expires) - nowSeconds())}`,
        // Pages fetch attachments to download them under their names; the URL itself is the credential.
        'access-control-allow-origin': '*',
        'access-control-expose-headers': 'content-disposition, content-range, accept-ranges',
      });
      const asked = c.req.header('range');
      const ranges = asked === undefined ? undefined : rangeParser(size, asked, { combine: true });
      if (ranges === -1) {
        headers.set('content-range', `bytes */${size}`);
        return new Response(null, { status: 416, headers });
      }
      // A malformed header, or several ranges at once, gets the whole file (RFC 9110 allows it).
      const range = Array.isArray(ranges) && ranges.length === 1 ? ranges[0] : undefined;
      if (range !== undefined) headers.set('content-range', `bytes ${range.start}-${range.end}/${size}`);
      headers.set('content-length', String(range === undefined ? size : range.end - range.start + 1));
      const status = range === undefined ? 200 : 206;
      if (c.req.method === 'HEAD') return new Response(null, { status, headers });
      const body = await media.files.read(key, range);
      return new Response(Readable.toWeb(body) as ReadableStream, { status, headers });
    });
  };
}
