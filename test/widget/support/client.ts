import { WebSocket } from 'ws';
import {
  ChatClient,
  type ChatClientOptions,
  type KeyValueStorage,
  type SocketLike,
} from '../../../shared/chat-client/index.js';
import { APP_ID, AUTH_KEY, type ProtocolFake } from './protocol-fake.js';

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

export const nodeSocket = (url: string): SocketLike => new WebSocket(url) as unknown as SocketLike;

const opened: ChatClient[] = [];

/** Logs out every client the test made, so no socket keeps reconnecting after it. */
export async function closeClients(): Promise<void> {
  await Promise.all(opened.splice(0).map((client) => client.logout()));
}

/** A client of the fake with fast backoff, so reconnect tests finish quickly; close it with `closeClients`. */
export function clientOf(fake: ProtocolFake, options: Partial<ChatClientOptions> = {}): ChatClient {
  const client = new ChatClient({
    appId: APP_ID,
    region: 'eu',
    authKey: AUTH_KEY,
    host: fake.url,
    createSocket: nodeSocket,
    storage: new MemoryStorage(),
    backoff: { initialDelayMs: 20, maxDelayMs: 100 },
    ...options,
  });
  opened.push(client);
  return client;
}
