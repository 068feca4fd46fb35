import { createRoute, z as openApiZ, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { ReceiverType, conversationIdFor } from '../../shared/message.js';
import { RequestProblem } from '../../shared/server-kit/index.js';
import type { ClientSettingsRepository } from '../repositories/client-settings.js';
import { ChatError } from '../errors.js';
import { actingUid } from '../http/actor.js';
import type { ChatEnv } from '../http/context.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { jsonBody } from '../http/request.js';
import type { RouteDeps } from '../routes/deps.js';
import { blockedError } from '../services/messages.js';
import type { MediaLibrary } from './library.js';
import { uploadForm } from './form.js';
import { MAX_FILES_PER_MESSAGE, kindOf, sanitisedName } from './policy.js';
import { addressOf, filePath, storageKey, uploadFolder } from './urls.js';

/** Presigned uploads go to this path, beside `/media`, with the file's own path after it. */
const UPLOAD_PREFIX = '/media-upload';

const FileToUpload = z.object({
  fileId: z.string().min(1).max(100),
  name: z.string({ error: 'name is required' }).min(1, 'name is required').max(1000),
  size: z.number({ error: 'size is a number of bytes' }).int().min(1, 'the file is empty'),
  mimeType: z.string().max(200).optional(),
});

const UploadUrlRequest = z.object({
  files: z
    .record(z.string().min(1).max(100), FileToUpload, { error: 'files: an object of files by fileId' })
    .refine((files) => Object.keys(files).length >= 1, 'name at least one file')
    .refine(
      (files) => Object.keys(files).length <= MAX_FILES_PER_MESSAGE,
      `at most ${MAX_FILES_PER_MESSAGE} files a message`,
    ),
  receiver: z
    .string({ error: 'receiver is required' })
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'receiver is a UID or GUID: 1-100 of a-z, 0-9, "-" or "_"'),
  receiverType: ReceiverType,
  parentMessageId: z.number().int().positive().optional(),
});

/**
 * `POST /files/upload-url`: the SDK's `UploadManager` (the UI Kit composer's attachments, staged
 * before the message is sent) asks for one upload target per file. Each allowed file gets a signed,
 * expiring `POST` URL for its own random place in the conversation's files, and the attachment its
 * message will then carry; a file of a type not accepted or over the app's cap gets an error in
 * its place. Only a member of the conversation asks (one-to-one, not across a block either way);
 * only the same user's message in the same conversation can link the file afterwards
 * (`MediaLibrary.linkUploads`).
 */
export function uploadUrlRoutes(deps: RouteDeps): ChatRoutes {
  const routes = chatRoutes();
  const { users, groups, media } = deps.services;
  documented(
    routes,
    'post',
    '/files/upload-url',
    {
      summary: 'Presigned upload targets for files of a media message (the SDK: as the session user)',
      body: UploadUrlRequest,
    },
    async (c) => {
      if (media === undefined) throw new ChatError(404, 'ERR_API_NOT_FOUND', 'This server keeps no files.');
      const { app } = c.get('actor');
      const uid = actingUid(c);
      const body = await jsonBody(c, UploadUrlRequest);
      const receiver = body.receiver.toLowerCase();
      if (body.receiverType === 'group') {
        if ((await groups.member(app.appId, receiver, uid)) === undefined)
          throw new ChatError(
            403,
            'ERR_NOT_A_MEMBER',
            `receiver: the user ${uid} is not a member of the group ${receiver}.`,
            { field: 'receiver' },
          );
      } else {
        // As a send would be: no files into a conversation blocked either way.
        const { blocks } = await users.read(app.appId, receiver, uid);
        const blocked = blocks?.blockedByMeAt !== undefined || blocks?.hasBlockedMeAt !== undefined;
        if (blocks !== undefined && blocked) throw blockedError(uid, receiver, blocks);
      }
      const conversationId = conversationIdFor({ receiverType: body.receiverType, receiver, sender: uid });
      const { maxUploadBytes } = await deps.clientSettings.get(app.appId);
      const origin = deps.publicHost === undefined ? new URL(c.req.url).origin : `https://${deps.publicHost}`;
      const sign = await media.urls.signer();
      const data: Record<string, unknown> = {};
      for (const [key, file] of Object.entries(body.files)) {
        const name = sanitisedName(file.name);
        const kind = name === undefined ? undefined : kindOf(name);
        if (name === undefined || kind === undefined) {
          data[key] = {
            error: {
              code: 'ERR_FILE_TYPE_NOT_ALLOWED',
              message: `files.${key}: files of this type are not accepted (${file.name})`,
            },
          };
          continue;
        }
        if (file.size > maxUploadBytes) {
          data[key] = {
            error: {
              code: 'ERR_FILE_TOO_LARGE',
              message: `files.${key}: a file is at most ${maxUploadBytes} bytes`,
            },
          };
          continue;
        }
        const address = {
          appId: app.appId,
          conversationId,
          fileId: await media.urls.uploadFileId(app.appId, conversationId, uid),
          name,
        };
        const path = filePath(address);
        const target = new URL(sign(new URL(`${UPLOAD_PREFIX}${path.slice('/media'.length)}`, origin)));
        const expiresAt = Number(target.searchParams.get('expires'));
        // Recorded before the target is handed out: the sweep finds every file it may bring.
        await media.uploads.issued(uploadFolder(address), app.appId, expiresAt);
        data[key] = {
          request: { method: 'POST', url: target.toString(), body: {} },
          attachment: {
            url: `${origin}${path}`,
            name,
            extension: kind.extension,
            mimeType: kind.mimeType,
            size: file.size,
          },
          expiresAt,
        };
      }
      return c.json({ data });
    },
  );
  return routes;
}

/**
 * `POST /media-upload/{appId}/{conversationId}/{fileId}/{name}?expires=…&signature=…`: the file of
 * a presigned upload, as a multipart `file` field (what the SDK's uploader sends). The signature is
 * the authority, as for downloads; the file is checked as any upload is (the app's cap, the type
 * its name says, an image that decodes as that type: its size recorded and its thumbnail written
 * now, so the send that links it stays cheap), written once, and never replaced.
 */
export function mediaUploadRoute(
  media: MediaLibrary,
  clientSettings: ClientSettingsRepository,
): (app: OpenAPIHono<ChatEnv>) => void {
  const route = createRoute({
    method: 'post',
    path: `${UPLOAD_PREFIX}/{appId}/{conversationId}/{fileId}/{name}`,
    summary: 'Upload the file of a presigned upload target (from POST /v3/files/upload-url)',
    request: {
      params: openApiZ.object({
        appId: openApiZ.string(),
        conversationId: openApiZ.string(),
        fileId: openApiZ.string(),
        name: openApiZ.string(),
      }),
      query: openApiZ.object({
        expires: openApiZ.string().optional(),
        signature: openApiZ.string().optional(),
      }),
    },
    responses: {
      204: { description: 'The file is stored.' },
      400: { description: 'No file, or a file that is not what its name says.' },
      403: { description: 'The upload URL is forged, altered or expired.' },
      409: { description: 'A file was already uploaded there.' },
      413: { description: "The file is over the app's cap." },
    },
  });
  const preflight = createRoute({
    method: 'options',
    path: route.path,
    summary: "The browser's CORS preflight for a presigned upload",
    request: { params: route.request.params },
    responses: { 204: { description: 'POST from any origin is allowed (the signature is the authority).' } },
  });
  // The page that uploads is another origin: it may read the answer (an XHR fails on none).
  const cors = { 'access-control-allow-origin': '*' };
  const refuse = (error: ChatError) =>
    new Response(JSON.stringify(error.toEnvelope()), {
      status: error.status,
      headers: { 'content-type': 'application/json', ...cors },
    });
  return (app) => {
    // The uploader listens for progress, so the browser asks before it sends.
    app.openapi(preflight, (c) =>
      c.body(null, 204, {
        ...cors,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': c.req.header('access-control-request-headers') ?? '',
        'access-control-max-age': '600',
      }),
    );
    app.openapi(route, async (c) => {
      const pathname = new URL(c.req.url).pathname;
      const address = addressOf(`/media${pathname.slice(UPLOAD_PREFIX.length)}`);
      if (
        address === undefined ||
        !(await media.urls.verify(pathname, c.req.query('expires'), c.req.query('signature')))
      ) {
        return refuse(
          new ChatError(403, 'ERR_MEDIA_URL_INVALID', 'The upload link is not valid or has expired.'),
        );
      }
      try {
        if ((await media.files.size(storageKey(address))) !== undefined)
          throw new ChatError(409, 'ERR_FILE_EXISTS', 'A file was already uploaded through this link.');
        const { maxUploadBytes } = await clientSettings.get(address.appId);
        const part = (await uploadForm(c, maxUploadBytes, 'file')).get('file');
        if (part === null || typeof part === 'string')
          throw new ChatError(400, 'ERR_BAD_REQUEST', 'file: the form needs a file field', { field: 'file' });
        const [checked] = await media.check(
          [{ name: address.name, bytes: new Uint8Array(await part.arrayBuffer()) }],
          maxUploadBytes,
          () => 'file',
        );
        if (checked !== undefined) await media.land(address, checked);
      } catch (error) {
        if (error instanceof RequestProblem) return refuse(ChatError.of(error));
        throw error;
      }
      return c.body(null, 204, cors);
    });
  };
}
