import { WEB_PUSH_KEY_PATH } from '../../../shared/web-push.js';
import { ChatError } from '../../errors.js';
import { chatRoutes, documented, type ChatRoutes } from '../../http/openapi.js';
import type { ChatCore } from '../../services/registry.js';
import { notificationDataOf } from '../data.js';
import { DEFAULT_PROVIDER_ID } from './registry.js';
import { vapidPublicKeyOf, webPush } from './web-push.js';

/**
 * What a browser needs to subscribe to the app's Web Push: the VAPID public key (derived from the
 * stored private key, which never leaves the service). Logged-in clients only.
 */
export function webPushRoutes(core: ChatCore): ChatRoutes {
  const { providers } = notificationDataOf(core);
  const routes = chatRoutes();
  documented(
    routes,
    'get',
    WEB_PUSH_KEY_PATH,
    { summary: "The app's VAPID public key, for a browser's push subscription", only: 'client' },
    async (c) => {
      const stored = await providers.find(c.get('actor').app.appId, webPush, DEFAULT_PROVIDER_ID);
      const config = stored?.config as { isEnabled?: boolean; vapidPrivateKey?: string } | undefined;
      const publicKey =
        config?.isEnabled === true && config.vapidPrivateKey !== undefined
          ? vapidPublicKeyOf(config.vapidPrivateKey)
          : undefined;
      if (publicKey === undefined)
        throw new ChatError(404, 'ERR_WEB_PUSH_NOT_CONFIGURED', 'The app has no enabled Web Push provider.');
      return c.json({ data: { publicKey } });
    },
  );
  return routes;
}
