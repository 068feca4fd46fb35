// The code for sending files, loaded on first use (`attach-assets.ts`): the upload with progress and
// cancel, and <parley-attachments> (the files' preview before sending, progress and errors).
import {
  randomHex,
  type ChatClient,
  type ChatClientError,
  type ChatTarget,
  type Message,
} from '../shared/chat-client/index.js';
import { discardSent, sendMedia } from '../shared/chat-client/upload.js';
import { ParleyAttachments } from './parley-attachments.js';
import type { Attachable, Upload } from './state.js';

if (globalThis.customElements && !customElements.get('parley-attachments'))
  customElements.define('parley-attachments', ParleyAttachments);

/** Where files wait and upload: a conversation, or its open thread of replies (`parent`). */
export interface AttachBox {
  target: ChatTarget;
  parent?: Message;
  get(): Attachable | undefined;
  set(change: (box: Attachable) => Partial<Attachable>): void;
  /** The service stored the message sent as `muid`. */
  sent(muid: string, message: Message): void;
}

/** Uploads under way, by muid. */
const uploading = new Map<string, AbortController>();

/**
 * Sends the files waiting in `box` as one media message (a reply when the box is a thread's). Its
 * `uploads` entry shows the progress, and the service's refusal (too large, a type not accepted)
 * until `cancelUpload` takes it away.
 */
export async function sendAttached(client: ChatClient, box: AttachBox): Promise<void> {
  const files = box.get()?.drafts ?? [];
  if (files.length === 0) return;
  const muid = `parley-${randomHex(12)}`;
  const controller = new AbortController();
  uploading.set(muid, controller);
  const upload = (change: (u: Upload) => Upload) =>
    box.set((b) => ({ uploads: b.uploads.map((u) => (u.muid === muid ? change(u) : u)) }));
  box.set((b) => ({ drafts: [], uploads: [...b.uploads, { muid, files, progress: 0 }] }));
  try {
    const message = await sendMedia(client, box.target, files, {
      muid,
      signal: controller.signal,
      onProgress: (progress) => upload((u) => ({ ...u, progress })),
      ...(box.parent ? { parentId: box.parent.id } : {}),
    });
    box.set((b) => ({ uploads: b.uploads.filter((u) => u.muid !== muid) }));
    box.sent(muid, message);
  } catch (error) {
    const { code = 'ERR_NETWORK', details = {}, message = String(error) } = error as Partial<ChatClientError>;
    if (!controller.signal.aborted) upload((u) => ({ ...u, error: { code, message, details } }));
  } finally {
    uploading.delete(muid);
  }
}

/** Stops an upload (a message the service had already made of it is deleted), or dismisses a failed one. */
export async function cancelUpload(client: ChatClient, box: AttachBox, muid: string): Promise<void> {
  const controller = uploading.get(muid);
  box.set((b) => ({ uploads: b.uploads.filter((u) => u.muid !== muid) }));
  if (!controller) return;
  controller.abort();
  await discardSent(client, muid);
}

export interface AttachModule {
  sendAttached: typeof sendAttached;
  cancelUpload: typeof cancelUpload;
}
