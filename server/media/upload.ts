import { z } from 'zod';
import {
  MEDIA_TYPES,
  MessageRequest,
  Metadata,
  ReceiverType,
  conversationIdFor,
} from '../../shared/message.js';
import { parseWith } from '../../shared/server-kit/index.js';
import { badRequest } from '../errors.js';
import type { ChatContext } from '../http/context.js';
import type { RouteDeps } from '../routes/deps.js';
import { withThumbnails, type IncomingFile, type MediaLibrary, type StoredUpload } from './library.js';
import { uploadForm } from './form.js';

/**
 * The fields of a multipart media message, as CometChat's SDK sends them (`sendMediaMessage`: the
 * message's members as form fields, `data` JSON-encoded, `tags[]`, the files as `files[]`), and as
 * a server may (`file` for one file).
 */
const UploadFields = z.object({
  receiver: z
    .string({ error: 'receiver is required' })
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'receiver is a UID or GUID: 1-100 of a-z, 0-9, "-" or "_"'),
  receiverType: ReceiverType,
  category: z.literal('message', { error: 'category of a media message is message' }).default('message'),
  type: z.enum(MEDIA_TYPES, { error: 'type must be image, file, audio or video' }),
  muid: z.string().optional(),
  tags: z.array(z.string()).optional(),
  data: z.looseObject({ metadata: Metadata.optional() }).default({}),
});

function fieldsOf(form: FormData): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of ['receiver', 'receiverType', 'category', 'type', 'muid']) {
    const value = form.get(name);
    if (typeof value === 'string') fields[name] = value;
  }
  const tags = form.getAll('tags[]').filter((tag): tag is string => typeof tag === 'string');
  if (tags.length > 0) fields.tags = tags;
  const data = form.get('data');
  if (typeof data === 'string' && data !== '') {
    try {
      fields.data = JSON.parse(data) as unknown;
    } catch {
      throw badRequest('data', 'must be a JSON object');
    }
  }
  return fields;
}

async function filesOf(form: FormData): Promise<IncomingFile[]> {
  const parts = [...form.getAll('files[]'), ...form.getAll('files'), ...form.getAll('file')];
  return Promise.all(
    parts.map(async (part, index) => {
      if (typeof part === 'string') throw badRequest(`files.${index}`, 'must be a file');
      return { name: part.name, bytes: new Uint8Array(await part.arrayBuffer()) };
    }),
  );
}

/** `https://<public host>` when one is configured, else the origin the request came in on. */
function originOf(c: ChatContext, publicHost: string | undefined): string {
  return publicHost === undefined ? new URL(c.req.url).origin : `https://${publicHost}`;
}

/**
 * Sends a media message (a reply in a thread with `parentId`) with its files uploaded in the
 * request. Every file is checked before any is written; the files are stored, then the message is sent; if the send is refused or
 * fails, the stored files are removed, so nothing of a failed upload stays behind.
 */
export async function sendUploaded(
  c: ChatContext,
  deps: RouteDeps,
  media: MediaLibrary,
  senderUid: string,
  parentId?: string,
) {
  const { app, origin } = c.get('actor');
  const { maxUploadBytes } = await deps.clientSettings.get(app.appId);
  const form = await uploadForm(c, maxUploadBytes, 'files');
  if (form.has('multipleReceivers'))
    throw badRequest('multipleReceivers', 'files are uploaded to one receiver at a time');
  const fields = parseWith(UploadFields, fieldsOf(form));
  const checked = await media.check(await filesOf(form), maxUploadBytes);
  const conversationId = conversationIdFor({
    receiverType: fields.receiverType,
    sender: senderUid,
    receiver: fields.receiver.toLowerCase(),
  });
  const upload = await media.store(app, conversationId, checked, originOf(c, deps.publicHost));
  let sent: Awaited<ReturnType<typeof deps.services.messages.send>>;
  try {
    const request = parseWith(MessageRequest, { ...fields, data: withUpload(fields.data, upload) });
    sent = await deps.services.messages.send(app, senderUid, request, origin, parentId);
  } catch (error) {
    await media.discard(upload.folders);
    throw error;
  }
  await media.settle(upload.folders);
  return sent;
}

/** The message's data with the stored attachments and, for images, CometChat's thumbnail extension. */
function withUpload(
  data: z.output<typeof UploadFields>['data'],
  upload: StoredUpload,
): Record<string, unknown> {
  const { url: _url, attachments: _attachments, ...rest } = data;
  if (upload.thumbnails === undefined) return { ...rest, attachments: upload.attachments };
  return {
    ...rest,
    attachments: upload.attachments,
    metadata: withThumbnails(data.metadata, upload.thumbnails),
  };
}
