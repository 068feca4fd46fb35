import { WebSocket } from 'ws';
import {
  ChatClient,
  type ChatClientOptions,
  type KeyValueStorage,
  type SocketLike,
} from '../../../shared/chat-client/index.js';
import { APP_ID, AUTH_KEY, type ChatService } from './chat-service.js';

/** localStorage's contract over a Map, so tests can look at what the client stored. */
export class MemoryStorage implements KeyValueStorage {
  readonly entries = new Map<string, string>();
  getItem(key: string): string | null {
    return this.entries.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.entries.set(key, value);
  }
  removeItem(key: string): void {
    this.entries.delete(key);
  }
}

/** One HTTP request as the client sent it. */
export interface SentRequest {
  method: string;
  /** Path and query, e.g. `/v3/users/bob/messages?per_page=30&affix=prepend`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * What the clients of a test put on the wire: their HTTP requests (through the `fetch` option) and
 * their WebSocket frames (through `createSocket`), both passed on unchanged to the real service.
 */
export class Wire {
  readonly requests: SentRequest[] = [];
  readonly frames: Record<string, unknown>[] = [];

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    this.requests.push({
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
    });
    return fetch(input, init);
  };

  readonly createSocket = (url: string): SocketLike => {
    const socket = new WebSocket(url);
    const send = socket.send.bind(socket);
    socket.send = ((data: string) => {
      this.frames.push(JSON.parse(data) as Record<string, unknown>);
      send(data);
    }) as typeof socket.send;
    return socket as unknown as SocketLike;
  };

  calls(method: string, path: string): SentRequest[] {
    return this.requests.filter((request) => request.method === method && request.path === path);
  }
}

const opened: ChatClient[] = [];

/** Logs out every client the test made, so no socket keeps reconnecting after it. */
export async function closeClients(): Promise<void> {
  await Promise.all(opened.splice(0).map((client) => client.logout()));
}

/**
 * A client of the chat service with fast backoff, so reconnect tests finish quickly; what it sends
 * is recorded on `wire`. Close it with `closeClients`.
 */
export function clientOf(
  service: Pick<ChatService, 'url'>,
  options: Partial<ChatClientOptions> = {},
  wire = new Wire(),
): ChatClient {
  const client = new ChatClient({
    appId: APP_ID,
    region: 'eu',
    authKey: AUTH_KEY,
    host: service.url,
    fetch: wire.fetch,
    createSocket: wire.createSocket,
    storage: new MemoryStorage(),
    backoff: { initialDelayMs: 20, maxDelayMs: 100 },
    ...options,
  });
  opened.push(client);
  return client;
}
