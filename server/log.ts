// The chat service logs with the toolkit both servers share: one JSON line per event.
export { createLogger, silentLogger, type LogFields, type Logger } from '../shared/server-kit/index.js';
