// The browser-safe public surface of shared/: contracts and typed clients. Nothing here imports Node.
export * from './agent.js';
export * from './agent-client.js';
export * from './api-keys.js';
export * from './chat-server-client.js';
export * from './conversations.js';
export * from './errors.js';
export * from './groups.js';
export * from './interactive.js';
export * from './message.js';
export * from './moderation.js';
export * from './moderation-rules.js';
export * from './notification-settings.js';
export * from './realtime.js';
export * from './users.js';
export * from './chat-connection.js';
