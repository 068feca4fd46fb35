import { ParleyAvatar } from './parley-avatar.js';
import { ParleyChat } from './parley-chat.js';
import { ParleyComposer } from './parley-composer.js';
import { ParleyConversationList } from './parley-conversation-list.js';
import { ParleyForm } from './parley-form.js';
import { ParleyLauncher } from './parley-launcher.js';
import { ParleyMessage } from './parley-message.js';
import { ParleyReplies } from './parley-replies.js';
import { ParleyThread } from './parley-thread.js';

export const ELEMENTS = {
  'parley-avatar': ParleyAvatar,
  'parley-chat': ParleyChat,
  'parley-composer': ParleyComposer,
  'parley-conversation-list': ParleyConversationList,
  'parley-form': ParleyForm,
  'parley-launcher': ParleyLauncher,
  'parley-message': ParleyMessage,
  'parley-replies': ParleyReplies,
  'parley-thread': ParleyThread,
} as const;

/**
 * Registers the widget's elements once. Without a custom element registry (plain SSR without Lit's
 * DOM shim) it does nothing, so importing the widget never fails on a server.
 */
export function defineElements(): void {
  const registry = (globalThis as { customElements?: CustomElementRegistry }).customElements;
  if (!registry) return;
  for (const [name, element] of Object.entries(ELEMENTS)) {
    if (!registry.get(name)) registry.define(name, element);
  }
}
