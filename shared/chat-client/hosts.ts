import { ChatClientError } from './client-error.js';
import type { AppSettings } from './types.js';

export interface ChatLocation {
  appId: string;
  region: string;
  /**
   * A Parley chat service, e.g. `https://chat.example.com` or `http://localhost:4000`. Without it
   * the hosts are CometChat's, derived from app id and region.
   */
  host?: string;
}

/** Base URLs of the client API, the admin API (auth tokens) and the WebSocket. */
export interface ChatEndpoints {
  clientApi: string;
  adminApi: string;
  /** Known once the service's settings are; a given `host` knows it from the start. */
  socket?: string;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|.+\.localhost)$/i;

/** Parses and checks `host`: https anywhere, plain http only on this machine (nothing to intercept there). */
export function parseHost(host: string): URL {
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    throw new ChatClientError(
      'ERR_INVALID_OPTION',
      `host "${host}" is not a URL such as https://chat.example.com`,
    );
  }
  const plainLocal = url.protocol === 'http:' && LOOPBACK.test(url.hostname);
  if (url.protocol !== 'https:' && !plainLocal) {
    throw new ChatClientError(
      'ERR_INVALID_OPTION',
      `host "${host}" must use https (plain http is allowed only for localhost)`,
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ChatClientError('ERR_INVALID_OPTION', `host "${host}" must not carry a query or fragment`);
  }
  return url;
}

function requireName(value: string, option: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ChatClientError('ERR_INVALID_OPTION', `${option} is required`);
  }
  return encodeURIComponent(value.trim());
}

/**
 * The endpoints before login (§1.2): CometChat's `<appId>.apiclient-<region>` and `<appId>.api-<region>`
 * hosts, or the given Parley host for both, whose WebSocket is on the same origin and path.
 */
export function bootstrapEndpoints(location: ChatLocation): ChatEndpoints {
  const appId = requireName(location.appId, 'appId');
  const region = requireName(location.region, 'region');
  if (location.host !== undefined) {
    const url = parseHost(location.host);
    const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    const socket = `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}${url.pathname}`;
    return { clientApi: `${base}/v3`, adminApi: `${base}/v3`, socket };
  }
  return {
    clientApi: `https://${appId}.apiclient-${region}.cometchat.io/v3`,
    adminApi: `https://${appId}.api-${region}.cometchat.io/v3`,
  };
}

/**
 * The endpoints after login. As the SDK does, the service's settings steer every later call when
 * the hosts were derived; an explicitly given host keeps steering, since a service behind a proxy
 * may name an internal host in its settings.
 */
export function sessionEndpoints(location: ChatLocation, settings: AppSettings | undefined): ChatEndpoints {
  const bootstrap = bootstrapEndpoints(location);
  if (location.host !== undefined || settings === undefined) return bootstrap;
  const version = settings.CHAT_API_VERSION ?? 'v3';
  const clientHost = settings.CLIENT_API_HOST;
  const adminHost = settings.ADMIN_API_HOST;
  const chatHost = settings.CHAT_HOST;
  const port = settings.CHAT_WSS_PORT;
  return {
    clientApi: clientHost ? `https://${clientHost}/${version}` : bootstrap.clientApi,
    adminApi: adminHost ? `https://${adminHost}/${version}` : bootstrap.adminApi,
    ...(chatHost
      ? { socket: `wss://${chatHost}${port === undefined || port === '' ? '' : `:${port}`}` }
      : {}),
  };
}
