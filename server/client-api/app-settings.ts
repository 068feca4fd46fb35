import { createHash } from 'node:crypto';
import type { UserEntity } from '../../shared/message.js';
import type { App } from '../repositories/apps.js';
import { toUserEntity, type User } from '../repositories/users.js';
import type { FlagReason } from '../../shared/moderation.js';
import { PIN_SAVE_LIMITS } from '../services/pins.js';

/** The settings object of `GET /settings` and `PUT /me` (protocol §1.5), as the SDK reads it. */
export type AppSettingsObject = Record<string, unknown>;

/** `host[:port]` split; the port defaults to the scheme's. */
function splitHost(host: string, secure: boolean): { hostname: string; port: string } {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
  const hostname = match?.[1] ?? host;
  return { hostname, port: match?.[2] ?? (secure ? '443' : '80') };
}

/**
 * Points every host the SDK derives at this server: REST at `https://<host>/v3/…`, the socket at
 * `wss://<host>:<port>/`. `publicHost` (as clients reach the server, e.g. behind a proxy) wins over
 * the Host the request came in on. `APP_VERSION` 4 and `MODE` DEFAULT keep the SDK from restarting
 * sessions or disabling typing and receipts; analytics pings are off. `flagReasons` are the app's
 * reasons to flag a message; `parameters` turn on pinned and saved messages and pinned
 * conversations, with their caps.
 */
export function appSettingsFor(
  app: App,
  flagReasons: FlagReason[],
  requestHost: string,
  publicHost: string | undefined,
): AppSettingsObject {
  const host = publicHost ?? requestHost;
  const { hostname, port } = splitHost(host, true);
  const hostWithPort = `${hostname}:${port}`;
  const settings: AppSettingsObject = {
    CHAT_HOST: hostname,
    CHAT_WSS_PORT: port,
    CHAT_USE_SSL: true,
    CLIENT_API_HOST: hostWithPort,
    ADMIN_API_HOST: hostWithPort,
    CHAT_API_VERSION: 'v3',
    WS_API_VERSION: 'v1',
    APP_VERSION: 4,
    MODE: 'DEFAULT',
    ANALYTICS_PING_DISABLED: true,
    REGION: app.region,
    extensions: [],
    // The SDK's isPinMessageEnabled() and getPinnedMessagesLimit() & co. read these.
    parameters: {
      'features.ux.messages.pinned.enabled': true,
      'features.ux.messages.saved.enabled': true,
      'features.ux.conversations.pinned.enabled': true,
      'features.ux.messages.pinned.limit': PIN_SAVE_LIMITS.pinnedMessages,
      'features.ux.messages.saved.limit': PIN_SAVE_LIMITS.savedMessages,
      'features.ux.conversations.pinned.limit': PIN_SAVE_LIMITS.pinnedConversations,
    },
  };
  // Stable for a given app and host: the SDK restarts its session when the hash changes (on a
  // socket token refresh). Flag reasons are left out of it: the SDK reads them afresh on every
  // getFlagReasons(), so an app adding a reason must not restart every session.
  const settingsHash = createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 16);
  // The SDK's getFlagReasons() reads them here.
  return { ...settings, flagReasons, settingsHash, settingsHashReceivedAt: app.createdAt };
}

/** A user as the SDK shows it: its presence says `online`, where the server API says `available`. */
export function clientUser(row: User): UserEntity {
  return { ...toUserEntity(row), status: row.status === 'available' ? 'online' : 'offline' };
}
