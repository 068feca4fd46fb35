import type { ChatClient } from './chat-client.js';
import { ChatClientError } from './client-error.js';
import { apiPath, envelopeOf } from './rest.js';
import type { ChatTarget, Message } from './types.js';

/**
 * Media messages with upload progress: the multipart `POST /messages` CometChat's SDK sends
 * (`sendMediaMessage`: the message's fields as form fields, the files as `files[]`), over
 * XMLHttpRequest because fetch reports no upload progress. Browser only; the widget loads it only
 * when a user first attaches a file, so pages that never do carry none of it.
 */

export interface UploadOptions {
  /** Matches the sent message to what the page shows meanwhile, and finds it again after a cancel. */
  muid: string;
  /** The share of the files' bytes sent so far, from 0 to 1. */
  onProgress?: (sent: number) => void;
  /** Aborting stops the upload; the promise then rejects with `ERR_CANCELLED`. */
  signal?: AbortSignal;
  /** Sends the files as a reply in this message's thread. */
  parentId?: string;
}

/** CometChat's message type for these files: image, audio or video when all are, else file. */
export function mediaType(files: readonly Blob[]): 'image' | 'audio' | 'video' | 'file' {
  const kinds = new Set(files.map((file) => file.type.split('/')[0]));
  const [only] = kinds;
  return kinds.size === 1 && (only === 'image' || only === 'audio' || only === 'video') ? only : 'file';
}

/** Sends `files` as one media message to `target` (a reply with `parentId`); answers the message as the service stored it. */
export function sendMedia(
  client: ChatClient,
  target: ChatTarget,
  files: readonly File[],
  options: UploadOptions,
): Promise<Message> {
  const { url, headers } = client.endpoint(
    options.parentId === undefined ? '/messages' : `/messages/${encodeURIComponent(options.parentId)}/thread`,
  );
  const form = new FormData();
  form.set('receiver', target.id);
  form.set('receiverType', target.type);
  form.set('category', 'message');
  form.set('type', mediaType(files));
  form.set('muid', options.muid);
  for (const file of files) form.append('files[]', file, file.name);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    const cancel = () => request.abort();
    options.signal?.addEventListener('abort', cancel, { once: true });
    const settle = (outcome: () => Message) => {
      options.signal?.removeEventListener('abort', cancel);
      try {
        resolve(outcome());
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    request.open('POST', url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    request.onload = () =>
      settle(() => {
        const answer = envelopeOf<Message>(request.status, request.response);
        options.onProgress?.(1);
        return answer.data;
      });
    request.onerror = () =>
      settle(() => {
        throw new ChatClientError('ERR_NETWORK', 'chat service unreachable: the upload failed');
      });
    request.onabort = () =>
      settle(() => {
        throw new ChatClientError('ERR_CANCELLED', 'the upload was cancelled');
      });
    if (options.signal?.aborted) request.abort();
    else request.send(form);
  });
}

/**
 * After a cancelled upload: the service may have received every byte before the cancel and sent the
 * message anyway; it is found by its muid and deleted (with its files), so nothing stays behind.
 */
export async function discardSent(client: ChatClient, muid: string): Promise<void> {
  let sent: Message;
  try {
    sent = (await client.request<Message>({ method: 'GET', path: apiPath('user', 'messages', muid) })).data;
  } catch (error) {
    if (error instanceof ChatClientError && error.status === 404) return;
    throw error;
  }
  await client.request({ method: 'DELETE', path: apiPath('messages', sent.id) });
}
