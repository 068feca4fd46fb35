export { createAgentApp, type AgentAppOptions } from './app.js';
export type { KnowledgeBackend } from './backend.js';
export {
  agentConfigFromEnv,
  answerSettings,
  DEFAULT_AGENT_HOST,
  DEFAULT_AGENT_PORT,
  type AgentServerConfig,
} from './config.js';
export { generateResponse } from './generate-response.js';
export { openAgentEngine, startAgentServer, type RunningAgentServer, type StartOptions } from './start.js';
