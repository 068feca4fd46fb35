import type { Hono } from 'hono';
import type { ClientProtocol } from '../client-protocol.js';
import type { ChatEnv } from '../http/context.js';
import type { Logger } from '../log.js';
import type { ChatServices } from '../services/registry.js';
import { AgentBridge, type AgentBridgeOptions } from './bridge.js';
import { dashboardPage } from './dashboard-page.js';
import { AgentRegistry } from './registry.js';
import { takeoverClientRoutes } from './client-routes.js';
import { dashboardApiRoutes } from './routes.js';
import { AgentTakeovers } from './takeovers.js';

export { AGENT_FAILURE_NOTICE, DEFAULT_BRIDGE_OPTIONS, type AgentBridgeOptions } from './bridge.js';
export { AgentRegistration, AgentRegistry, type Agent } from './registry.js';
export { AgentTakeovers, type Takeover } from './takeovers.js';

/**
 * The AI-agent feature: the registry, take-overs by operators, the dashboard (page and API), the
 * operator's take-over calls on the client API, and the bridge to deployments.
 */
export class AgentFeature {
  readonly registry: AgentRegistry;
  readonly takeovers: AgentTakeovers;
  readonly bridge: AgentBridge;
  readonly routes: ReadonlyArray<(app: Hono<ChatEnv>) => void>;

  constructor(
    private readonly services: ChatServices,
    client: ClientProtocol,
    logger: Logger,
    options: Partial<AgentBridgeOptions> = {},
  ) {
    this.registry = new AgentRegistry(services.store.db, services.users);
    this.takeovers = new AgentTakeovers(services.store.db);
    this.bridge = new AgentBridge(services, this.registry, this.takeovers, logger, options);
    this.bridge.attach(services.events);
    this.routes = [
      dashboardApiRoutes(services.apps, this.registry, this.takeovers, client.clientSettings),
      dashboardPage,
    ];
    client.clientApi.route('/', takeoverClientRoutes(services, this.registry, this.takeovers));
  }

  close(): Promise<void> {
    return this.bridge.close(this.services.events);
  }
}
