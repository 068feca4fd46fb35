import { ChatError } from '../errors.js';
import type { App, AppRepository } from '../repositories/apps.js';

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
