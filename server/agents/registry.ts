import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { HttpUrl } from '../../shared/interactive.js';
import { Namespace } from '../../shared/agent.js';
import type { AgentTable, ChatDatabase } from '../db/schema.js';
import { AppCache, type ChangeNotices } from '../repositories/app-cache.js';
import { ChatError } from '../errors.js';
import type { UserRepository } from '../repositories/users.js';
import { nowSeconds } from '../time.js';
import { DisplayName, EntityId } from '../validation.js';

export const AGENT_PROVIDERS = ['mastra'] as const;

/** What the dashboard registers; `agentId` is also the UID the agent speaks as in chats. */
export const AgentRegistration = z.strictObject({
  agentId: EntityId,
  provider: z.enum(AGENT_PROVIDERS, { error: `provider must be one of ${AGENT_PROVIDERS.join(', ')}` }),
  deploymentUrl: HttpUrl,
  name: DisplayName,
  namespace: Namespace.default('default'),
  enabled: z.boolean().default(true),
});
export type AgentRegistration = z.output<typeof AgentRegistration>;

export const AgentChanges = AgentRegistration.omit({ agentId: true }).partial();
export type AgentChanges = z.output<typeof AgentChanges>;

export interface Agent {
  agentId: string;
  uid: string;
  provider: (typeof AGENT_PROVIDERS)[number];
  deploymentUrl: string;
  name: string;
  namespace: string;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}

/** The chat role of agent users, so clients can tell an agent from a person. */
export const AGENT_ROLE = 'agent';

const toAgent = (row: Selectable<AgentTable>): Agent => ({
  agentId: row.agent_id,
  uid: row.uid,
  provider: row.provider as Agent['provider'],
  deploymentUrl: row.deployment_url,
  name: row.name,
  namespace: row.namespace,
  enabled: row.enabled === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const agentNotFound = (agentId: string): ChatError =>
  new ChatError(404, 'ERR_AGENT_NOT_FOUND', `The agent ${agentId} is not registered.`, { agentId });

/**
 * AI agents registered per app. Registering one also makes it a chat user (the product needs a
 * user to send its answers as). The bridge reads them on every message, so they are cached per
 * process; a change through any process is announced to the others (`ChangeNotices`).
 */
export class AgentRegistry {
  private readonly cache: AppCache<Agent[]>;

  constructor(
    private readonly db: Kysely<ChatDatabase>,
    private readonly users: UserRepository,
    notices: ChangeNotices,
  ) {
    this.cache = new AppCache('agents', notices);
  }

  list(appId: string): Promise<Agent[]> {
    return this.cache.get(appId, async () => {
      const rows = await this.db
        .selectFrom('agents')
        .selectAll()
        .where('app_id', '=', appId)
        .orderBy('uid')
        .execute();
      return rows.map(toAgent);
    });
  }

  /** The app's agents if they are in memory (`list` reads them), without reading the store. */
  listed(appId: string): Agent[] | undefined {
    return this.cache.peek(appId);
  }

  async get(appId: string, agentId: string): Promise<Agent> {
    const agent = (await this.list(appId)).find((candidate) => candidate.agentId === agentId.toLowerCase());
    if (agent === undefined) throw agentNotFound(agentId);
    return agent;
  }

  async register(appId: string, registration: AgentRegistration): Promise<Agent> {
    const uid = registration.agentId;
    const update = () => this.users.update(appId, uid, { name: registration.name, role: AGENT_ROLE });
    if ((await this.users.find(appId, uid)) === undefined) {
      // A registration of the same agent running alongside may create the user first: then this
      // one updates it, as it would have had it come second.
      await this.users
        .create(appId, { uid, name: registration.name, role: AGENT_ROLE, metadata: { agent: true } })
        .catch((error: unknown) => {
          if (error instanceof ChatError && error.code === 'ERR_UID_ALREADY_EXISTS') return update();
          throw error;
        });
    } else {
      await update();
    }
    const now = nowSeconds();
    const row = {
      app_id: appId,
      uid,
      agent_id: registration.agentId,
      provider: registration.provider,
      deployment_url: registration.deploymentUrl,
      name: registration.name,
      namespace: registration.namespace,
      enabled: registration.enabled ? 1 : 0,
      created_at: now,
      updated_at: now,
    };
    await this.db
      .insertInto('agents')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['app_id', 'uid']).doUpdateSet({
          provider: row.provider,
          deployment_url: row.deployment_url,
          name: row.name,
          namespace: row.namespace,
          enabled: row.enabled,
          updated_at: now,
        }),
      )
      .execute();
    this.cache.changed(appId);
    return this.get(appId, uid);
  }

  async update(appId: string, agentId: string, changes: AgentChanges): Promise<Agent> {
    const current = await this.get(appId, agentId);
    return this.register(appId, {
      agentId: current.agentId,
      provider: changes.provider ?? current.provider,
      deploymentUrl: changes.deploymentUrl ?? current.deploymentUrl,
      name: changes.name ?? current.name,
      namespace: changes.namespace ?? current.namespace,
      enabled: changes.enabled ?? current.enabled,
    });
  }

  /** Unregisters the agent; its user and what it said stay, as a departed colleague's would. */
  async remove(appId: string, agentId: string): Promise<void> {
    const agent = await this.get(appId, agentId);
    await this.db.deleteFrom('agents').where('app_id', '=', appId).where('uid', '=', agent.uid).execute();
    this.cache.changed(appId);
  }
}
