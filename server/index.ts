/** The chat service: CometChat's server REST API v3 over SQLite or PostgreSQL. */
export { startChatServer, DEMO_APP_ID, type ChatServer, type ChatServerOptions } from './server.js';
export { createHttpApp, type HttpOptions } from './http/app.js';
export { DEFAULT_RATE_LIMITS, type RateLimits } from './http/rate-limit.js';
export { openChatStore, type ChatStore, type StorageEngine, type StoreLocation } from './db/database.js';
export { createChatCore, type ChatCore } from './services/registry.js';
export { ChatEvents, type ChatEventMap, type EventOrigin } from './events.js';
export { ChatError } from './errors.js';
export { createLogger, silentLogger, type Logger } from './log.js';
export { SecretBox, SecretKeyMismatch, parseSecretKey } from './secret-box.js';
export type { App, AppSeed, SeededApp } from './repositories/apps.js';
export { keyIdOf } from './db/migrations-api-keys.js';
export {
  AgentFeature,
  AgentRegistration,
  AGENT_FAILURE_NOTICE,
  type Agent,
  type AgentBridgeOptions,
} from './agents/index.js';
export { ClientProtocol } from './client-protocol.js';
export {
  certificateFingerprint,
  localhostCertificate,
  trustHint,
  type TlsCertificate,
} from './tls/certificate.js';
