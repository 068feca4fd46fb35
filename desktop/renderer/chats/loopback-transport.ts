/** The loopback names a page and a chat host may both have for plain-http Chats (the CSP allows exactly these). */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1']);

/** The secure schemes CometChat's SDK hard-codes, and their plain counterparts. */
const PLAIN_SCHEME: Readonly<Record<string, string>> = { 'https:': 'http:', 'wss:': 'ws:' };

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * The chat host (`host[:port]` as URLs spell it) that this page reaches over plain http/ws instead
 * of https/wss, or undefined. Only a browser page served over plain http from loopback, talking to
 * a chat host on loopback: the traffic never leaves the computer, so TLS adds nothing there, and
 * the page needs no certificate step (the chat service answers http and https on one port). Never
 * in the desktop app, which keeps TLS and trusts the host's certificate by its fingerprint, nor on
 * an https page, nor for a host elsewhere.
 */
export function plainLoopbackHost(
  chatHost: string | null,
  page: { protocol: string; hostname: string },
  inDesktopApp: boolean,
): string | undefined {
  if (inDesktopApp || chatHost === null) return undefined;
  if (page.protocol !== 'http:' || !LOOPBACK_NAMES.has(page.hostname)) return undefined;
  const chat = parsed(`https://${chatHost}`);
  return chat !== undefined && LOOPBACK_NAMES.has(chat.hostname) ? chat.host : undefined;
}

/**
 * `https://<host>…` as `http://<host>…` and `wss://<host>…` as `ws://<host>…`, for exactly this
 * host (and port); every other URL, relative ones included, exactly as given.
 */
export function toPlainLoopback(url: string, host: string): string {
  const target = parsed(url);
  const plain = target === undefined ? undefined : PLAIN_SCHEME[target.protocol];
  if (target === undefined || plain === undefined || target.host !== host) return url;
  target.protocol = plain;
  return target.href;
}

/** Where the wrapped transports send https/wss traffic over http/ws now; undefined: nowhere. */
let plainHost: string | undefined;
let installed = false;

const rewritten = (url: string | URL): string =>
  plainHost === undefined ? String(url) : toPlainLoopback(String(url), plainHost);

/**
 * Sends this page's https/wss requests for `host` over http/ws from now on (undefined: none
 * again), by wrapping, once, the three transports CometChat's SDK 4.2 uses: `fetch` (REST, and the
 * take-over calls), `XMLHttpRequest` (media uploads) and `WebSocket` (realtime). Called by the Chats
 * code before the SDK initialises; the rest of the window never loads it.
 */
export function reachOverPlainHttp(host: string | undefined): void {
  plainHost = host;
  if (host === undefined || installed) return;
  installed = true;

  const nativeFetch = window.fetch.bind(window);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    if (!(input instanceof Request)) return nativeFetch(rewritten(input), init);
    const url = rewritten(input.url);
    return nativeFetch(url === input.url ? input : new Request(url, input), init);
  };

  const nativeOpen = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function open(
    this: XMLHttpRequest,
    method: string,
    url: string | URL,
    async: boolean = true,
    username?: string | null,
    password?: string | null,
  ): void {
    nativeOpen.call(this, method, rewritten(url), async, username, password);
  };

  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(rewritten(url), protocols);
    }
  };
}
