import type { Hono } from 'hono';
import type { ClientSettingsRepository } from '../client-api/client-settings.js';
import type { ChatEnv } from '../http/context.js';
import type { Logger } from '../log.js';
import type { ChatServices } from '../services/registry.js';
import { AgentBridge, type AgentBridgeOptions } from './bridge.js';
import { dashboardPage } from './dashboard-page.js';
import { AgentRegistry } from './registry.js';
import { dashboardApiRoutes } from './routes.js';

export { AGENT_FAILURE_NOTICE, DEFAULT_BRIDGE_OPTIONS, type AgentBridgeOptions } from './bridge.js';
export { AgentRegistration, AgentRegistry, type Agent } from './registry.js';

/** The AI-agent feature: the registry, the dashboard (page and API) and the bridge to deployments. */
export class AgentFeature {
  readonly registry: AgentRegistry;
  readonly bridge: AgentBridge;
  readonly routes: ReadonlyArray<(app: Hono<ChatEnv>) => void>;

  constructor(
    private readonly services: ChatServices,
    clientSettings: ClientSettingsRepository,
    logger: Logger,
    options: Partial<AgentBridgeOptions> = {},
  ) {
    this.registry = new AgentRegistry(services.store.db, services.users);
    this.bridge = new AgentBridge(services, this.registry, logger, options);
    this.bridge.attach(services.events);
    this.routes = [dashboardApiRoutes(services.apps, this.registry, clientSettings), dashboardPage];
  }

  close(): Promise<void> {
    return this.bridge.close(this.services.events);
  }
}
