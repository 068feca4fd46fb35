import { Hono } from 'hono';
import type { ClientSettingsRepository } from '../client-api/client-settings.js';
import { ClientSettingsChanges } from '../client-api/client-settings.js';
import type { ChatEnv } from '../http/context.js';
import { badRequest } from '../errors.js';
import { jsonBody } from '../http/request.js';
import { requireFullAccess } from '../http/tenancy.js';
import type { AppRepository } from '../repositories/apps.js';
import { AgentChanges, AgentRegistration, type AgentRegistry } from './registry.js';
import { ConversationId, type AgentTakeovers } from './takeovers.js';

/** The `conversationId` path parameter, checked and lower-cased. */
export function conversationIdParam(value: string | undefined): string {
  const parsed = ConversationId.safeParse(value);
  if (!parsed.success) throw badRequest('conversationId', parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data;
}

/**
 * The dashboard's operations as an API, with an app's fullAccess key: AI agents
 * (`/v3/ai-agents`), the conversations taken over from them
 * (`/v3/ai-agents/{agentId}/conversations/{conversationId}/takeover`) and the app's client
 * settings (`/v3/client-settings`).
 */
export function dashboardApiRoutes(
  apps: AppRepository,
  agents: AgentRegistry,
  takeovers: AgentTakeovers,
  clientSettings: ClientSettingsRepository,
): (app: Hono<ChatEnv>) => void {
  const routes = new Hono<ChatEnv>();
  // Scoped to these paths: mounted beside the server API, a bare `use` would run for all of `/v3`.
  const fullAccess = requireFullAccess(apps);
  for (const path of ['/ai-agents', '/ai-agents/*', '/client-settings']) routes.use(path, fullAccess);

  routes.get('/ai-agents', async (c) => c.json({ data: await agents.list(c.get('app').appId) }));
  routes.post('/ai-agents', async (c) => {
    const registration = await jsonBody(c, AgentRegistration);
    return c.json({ data: await agents.register(c.get('app').appId, registration) });
  });
  routes.get('/ai-agents/:agentId', async (c) =>
    c.json({ data: await agents.get(c.get('app').appId, c.req.param('agentId')) }),
  );
  routes.put('/ai-agents/:agentId', async (c) => {
    const changes = await jsonBody(c, AgentChanges);
    return c.json({ data: await agents.update(c.get('app').appId, c.req.param('agentId'), changes) });
  });
  routes.delete('/ai-agents/:agentId', async (c) => {
    await agents.remove(c.get('app').appId, c.req.param('agentId'));
    return c.json({
      data: { success: true, message: `The agent ${c.req.param('agentId')} is unregistered.` },
    });
  });

  routes.get('/ai-agents/:agentId/takeovers', async (c) => {
    const { appId } = c.get('app');
    const agent = await agents.get(appId, c.req.param('agentId'));
    return c.json({ data: await takeovers.list(appId, agent.uid) });
  });
  const takeoverRoute = '/ai-agents/:agentId/conversations/:conversationId/takeover';
  routes.get(takeoverRoute, async (c) => {
    const { appId } = c.get('app');
    const agent = await agents.get(appId, c.req.param('agentId'));
    return c.json({
      data: await takeovers.get(appId, agent.uid, conversationIdParam(c.req.param('conversationId'))),
    });
  });
  routes.put(takeoverRoute, async (c) => {
    const { appId } = c.get('app');
    const agent = await agents.get(appId, c.req.param('agentId'));
    const conversationId = conversationIdParam(c.req.param('conversationId'));
    return c.json({ data: await takeovers.takeOver(appId, agent.uid, conversationId, undefined) });
  });
  routes.delete(takeoverRoute, async (c) => {
    const { appId } = c.get('app');
    const agent = await agents.get(appId, c.req.param('agentId'));
    const conversationId = conversationIdParam(c.req.param('conversationId'));
    return c.json({ data: await takeovers.giveBack(appId, agent.uid, conversationId) });
  });

  routes.get('/client-settings', async (c) => c.json({ data: await clientSettings.get(c.get('app').appId) }));
  routes.patch('/client-settings', async (c) => {
    const changes = await jsonBody(c, ClientSettingsChanges);
    return c.json({ data: await clientSettings.update(c.get('app').appId, changes) });
  });

  return (app) => {
    app.route('/v3', routes);
  };
}
