import type { Hono } from 'hono';
import { PROCESS_ALONE, type ChangeNotices } from '../repositories/app-cache.js';
import type { ClientSettingsRepository } from '../repositories/client-settings.js';
import type { ChatEnv } from '../http/context.js';
import type { ChatRoutes } from '../http/openapi.js';
import type { Logger } from '../log.js';
import type { ChatCore } from '../services/registry.js';
import { AgentBridge, type AgentBridgeOptions } from './bridge.js';
import { dashboardPage } from './dashboard-page.js';
import { AgentRegistry } from './registry.js';
import { agentRoutes } from './routes.js';
import { AgentTakeovers } from './takeovers.js';

export type { ConversationLocks } from './conversation-locks.js';
export { AGENT_FAILURE_NOTICE, DEFAULT_BRIDGE_OPTIONS, type AgentBridgeOptions } from './bridge.js';
export { AgentRegistration, AgentRegistry, type Agent } from './registry.js';
export { AgentTakeovers, type Takeover } from './takeovers.js';

/**
 * The AI-agent feature: the registry, take-overs by operators, the dashboard (page and API) and the
 * bridge to deployments.
 */
export class AgentFeature {
  readonly registry: AgentRegistry;
  readonly takeovers: AgentTakeovers;
  readonly bridge: AgentBridge;
  /** `/v3/ai-agents…` and `/v3/client-settings`, mounted in the chat service's one `/v3` tree. */
  readonly routes: ChatRoutes;
  /** The dashboard page, beside `/v3`. */
  readonly pages: ReadonlyArray<(app: Hono<ChatEnv>) => void> = [dashboardPage];

  constructor(
    private readonly core: ChatCore,
    clientSettings: ClientSettingsRepository,
    logger: Logger,
    options: Partial<AgentBridgeOptions> = {},
    notices: ChangeNotices = PROCESS_ALONE,
  ) {
    this.registry = new AgentRegistry(core.store.db, core.users, notices);
    this.takeovers = new AgentTakeovers(core.store.db);
    this.bridge = new AgentBridge(core, this.registry, this.takeovers, logger, options);
    this.bridge.attach(core.events);
    this.routes = agentRoutes(core.services.groups, this.registry, this.takeovers, clientSettings);
  }

  close(): Promise<void> {
    return this.bridge.close(this.core.events);
  }
}
