// The browser-safe client of CometChat's client protocol. Runtime code here imports no zod: it ships in the widget.
export * from './chat-client.js';
export * from './client-error.js';
export { Emitter } from './emitter.js';
export * from './hosts.js';
export { newSessionId, randomHex } from './ids.js';
export type { QueuedMessage } from './outbox.js';
export { reconnectDelay } from './realtime.js';
export type {
  BackoffOptions,
  ChannelState,
  KeepAliveOptions,
  SocketFactory,
  SocketLike,
} from './realtime.js';
export type { KeyValueStorage, StoredSession } from './session-store.js';
export { sessionKey } from './session-store.js';
export * from './targets.js';
export type * from './types.js';
