// The code for sending files, loaded on first use (`attach-assets.ts`): the upload with progress and
// cancel, and <parley-attachments> (the files' preview before sending, progress and errors).
import { discardSent, sendMedia } from '../shared/chat-client/upload.js';
import { ParleyAttachments } from './parley-attachments.js';

export { discardSent, sendMedia };

if (globalThis.customElements && !customElements.get('parley-attachments'))
  customElements.define('parley-attachments', ParleyAttachments);

export interface AttachModule {
  sendMedia: typeof sendMedia;
  discardSent: typeof discardSent;
}
