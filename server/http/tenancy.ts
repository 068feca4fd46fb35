import type { MiddlewareHandler } from 'hono';
import { ChatError } from '../errors.js';
import type { App, AppRepository } from '../repositories/apps.js';
import type { ChatEnv } from './context.js';

/** `<appId>.api-<region>.<domain>` (server API) or `<appId>.apiclient-<region>.<domain>` (client API). */
const HOST_PATTERN = /^([a-z0-9_-]+)\.api(?:client)?-[a-z0-9]+\./i;

export function appIdFromHost(host: string | undefined): string | undefined {
  return host === undefined ? undefined : HOST_PATTERN.exec(host)?.[1];
}

/**
 * Which app a request is for: the Host pattern, else the `appId` header, else the only app there
 * is. With several apps and neither hint the request is refused rather than guessed.
 */
export async function resolveApp(
  apps: AppRepository,
  host: string | undefined,
  appIdHeader: string | undefined,
): Promise<App> {
  const named = appIdFromHost(host) ?? (appIdHeader === '' ? undefined : appIdHeader);
  if (named !== undefined) {
    const app = await apps.find(named);
    if (app === undefined)
      throw new ChatError(401, 'AUTH_ERR_INVALID_APPID', `The app ${named} does not exist.`, {
        appId: named,
      });
    return app;
  }
  const all = await apps.list();
  if (all.length === 1 && all[0] !== undefined) return all[0];
  throw new ChatError(
    401,
    'AUTH_ERR_EMPTY_APPID',
    'Name the app with the appId header or the <appId>.api-<region> host.',
  );
}

/** Server REST API access: the app's key with `fullAccess` scope in the `apikey` header. */
export function requireFullAccess(apps: AppRepository): MiddlewareHandler<ChatEnv> {
  return async (c, next) => {
    const app = await resolveApp(apps, c.req.header('host'), c.req.header('appId'));
    const apiKey = c.req.header('apikey');
    if (apiKey === undefined || apiKey === '') {
      throw new ChatError(401, 'AUTH_ERR_EMPTY_APIKEY', 'The apikey header is missing.');
    }
    const scope = await apps.keyScope(app.appId, apiKey);
    if (scope === undefined) {
      throw new ChatError(
        401,
        'AUTH_ERR_APIKEY_NOT_FOUND',
        `The apikey is not a key of the app ${app.appId}.`,
      );
    }
    if (scope !== 'fullAccess') {
      throw new ChatError(
        403,
        'AUTH_ERR_NO_ACCESS',
        'This API needs a key with fullAccess scope; the given key is authOnly.',
      );
    }
    c.set('app', app);
    await next();
  };
}
