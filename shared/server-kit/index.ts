// The HTTP toolkit both servers use (the chat service and the knowledge agent): refusals, body
// reading and validation, rate limits, the structured logger. Node-only: not in the browser entry.
export { isMultipart, readForm, readJson, type EmptyBody } from './body.js';
export { createLogger, requestLines, silentLogger, type LogFields, type Logger } from './log.js';
export { invalidInput, parseWith, refusalOf, RequestProblem } from './problem.js';
export {
  limitRequests,
  perMinuteInMemory,
  perMinuteInRedis,
  type LimitRequestsOptions,
  type PerMinuteLimit,
  type Refused,
} from './rate-limit.js';
