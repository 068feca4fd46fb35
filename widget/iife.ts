// The one-file script build: `window.ParleyWidget` with init/login/launch/…, and `<parley-chat>` defined.
import { defineElements } from './define.js';
import { ParleyWidget, usePushAssets } from './embed.js';
import type { PushModule } from './push.js';

defineElements();

// The push code and the service worker are files beside this script (`parley-push.js`, `parley-sw.js`).
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src;
if (scriptUrl) {
  let loading: Promise<PushModule> | undefined;
  usePushAssets({
    serviceWorker: new URL('parley-sw.js', scriptUrl).href,
    load: () =>
      (loading ??= new Promise((resolve, reject) => {
        const script = document.createElement('script');
        script.src = new URL('parley-push.js', scriptUrl).href;
        script.onload = () =>
          resolve((window as unknown as { ParleyWidgetPush: PushModule }).ParleyWidgetPush);
        script.onerror = () => {
          loading = undefined;
          reject(new Error('ParleyWidget: parley-push.js could not be loaded'));
        };
        document.head.append(script);
      })),
  });
}

export const { init, login, launch, logout, chatWithUser, chatWithGroup, on, enablePushNotifications } =
  ParleyWidget;
