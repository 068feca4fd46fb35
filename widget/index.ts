// The widget's ES module entry: the embed API, the elements, and the store for custom integrations.
// Importing it touches no browser global beyond the custom element registry, so it is SSR-safe.
import { defineElements } from './define.js';
import { useAttachAssets } from './attach-assets.js';
import { usePushAssets } from './embed.js';
import { useLocaleAssets } from './i18n.js';

export { ParleyWidget, type InitOptions, type LaunchOptions, type WidgetEvents } from './embed.js';
export { ChatStore } from './chat-store.js';
export type { ChatState, PendingMessage, Submission, ThreadState, Upload } from './state.js';
export { defineElements, ELEMENTS } from './define.js';
export { ParleyChat } from './parley-chat.js';
export { ParleyAvatar } from './parley-avatar.js';
export { ParleyComposer } from './parley-composer.js';
export { ParleyConversationList } from './parley-conversation-list.js';
export { ParleyForm } from './parley-form.js';
export { ParleyLauncher } from './parley-launcher.js';
export { ParleyMessage } from './parley-message.js';
export { ParleyThread } from './parley-thread.js';

defineElements();
// The push code is a chunk of its own; the service worker's URL is the page's to give (`pushNotifications`).
usePushAssets({ load: () => import('./push.js') });
// So is the code for sending files, loaded when a user first attaches one.
useAttachAssets(() => import('./attach.js'));
// Languages other than English are chunks of their own too.
useLocaleAssets(async () => (await import('./locales/de.js')).de);
