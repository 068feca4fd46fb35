/**
 * The chat service's `/demo` page: one `<parley-chat>` per `.demo-chat`, logged in as the user its
 * `.demo-window` names in `data-uid`, in the demo group, with the settings of `/demo/config.json`.
 * Built to `dist/widget/demo.js`; load it after `parley-widget.js`, which defines the element.
 */

interface DemoConfig {
  appId: string;
  region: string;
  authKey: string;
  group: { guid: string };
}

async function mountDemoChats(): Promise<void> {
  const response = await fetch(new URL('/demo/config.json', location.href));
  if (!response.ok) throw new Error(`the demo is not ready (HTTP ${response.status}); reload in a moment`);
  const config = (await response.json()) as DemoConfig;
  for (const slot of document.querySelectorAll<HTMLElement>('.demo-chat')) {
    const uid = slot.closest<HTMLElement>('[data-uid]')?.dataset.uid;
    // Idempotent: a slot that already holds a chat keeps it.
    if (!uid || slot.querySelector('parley-chat')) continue;
    const chat = document.createElement('parley-chat');
    const attributes: Record<string, string> = {
      'app-id': config.appId,
      region: config.region,
      'auth-key': config.authKey,
      uid,
      host: location.origin,
      'chat-type': 'group',
      'chat-id': config.group.guid,
      height: '70vh',
    };
    for (const [name, value] of Object.entries(attributes)) chat.setAttribute(name, value);
    slot.append(chat);
  }
}

if (document.readyState === 'loading')
  document.addEventListener('DOMContentLoaded', () => void mountDemoChats());
else void mountDemoChats();
