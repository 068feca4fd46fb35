// The one-file script build: `window.ParleyWidget` with init/login/launch/…, and `<parley-chat>` defined.
import { defineElements } from './define.js';
import { ParleyWidget, usePushAssets } from './embed.js';
import type { PushModule } from './push.js';
import type { AttachModule } from './attach.js';
import { useAttachAssets } from './attach-assets.js';
import { useLocaleAssets, type Strings } from './i18n.js';

defineElements();

/** A script beside this one that sets `window[global]`, loaded once on first use (again after a failure). */
function besideThisScript<T>(scriptUrl: string, file: string, global: string): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = new URL(file, scriptUrl).href;
      script.onload = () => resolve((window as unknown as Record<string, T>)[global]!);
      script.onerror = () => {
        loading = undefined;
        reject(new Error(`ParleyWidget: ${file} could not be loaded`));
      };
      document.head.append(script);
    }));
}

// The push code, the service worker, the code for sending files and German are files beside this script.
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src;
if (scriptUrl) {
  usePushAssets({
    serviceWorker: new URL('parley-sw.js', scriptUrl).href,
    load: besideThisScript<PushModule>(scriptUrl, 'parley-push.js', 'ParleyWidgetPush'),
  });
  useAttachAssets(besideThisScript<AttachModule>(scriptUrl, 'parley-attach.js', 'ParleyWidgetAttach'));
  const german = besideThisScript<{ de: Strings }>(scriptUrl, 'parley-de.js', 'ParleyWidgetDe');
  useLocaleAssets(async () => (await german()).de);
}

export const { init, login, launch, logout, chatWithUser, chatWithGroup, on, enablePushNotifications } =
  ParleyWidget;
