import type { ClientSettingsRepository } from '../repositories/client-settings.js';
import { ClientSettingsChanges } from '../repositories/client-settings.js';
import { ChatError, badRequest, notAMember } from '../errors.js';
import { actingUid } from '../http/actor.js';
import type { ChatContext } from '../http/context.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { jsonBody } from '../http/request.js';
import type { GroupService } from '../services/groups.js';
import { AgentChanges, AgentRegistration, type AgentRegistry } from './registry.js';
import { ConversationId, type AgentTakeovers } from './takeovers.js';

/** The `conversationId` path parameter, checked and lower-cased. */
function conversationIdParam(value: string | undefined): string {
  const parsed = ConversationId.safeParse(value);
  if (!parsed.success) throw badRequest('conversationId', parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data;
}

const takeoverRefused = (message: string, details: Record<string, unknown>): ChatError =>
  new ChatError(403, 'ERR_TAKEOVER_NOT_ALLOWED', message, details);

/**
 * The dashboard's operations as an API: AI agents (`/v3/ai-agents`) and the app's client settings
 * (`/v3/client-settings`) with a fullAccess key, and the conversations taken over from agents
 * (`/v3/ai-agents/{agentId}/conversations/{conversationId}/takeover`): by the app for any
 * conversation, by a logged-in operator (the desktop app's Chats, which has no fullAccess key) for
 * the group conversations where they are an admin or moderator.
 */
export function agentRoutes(
  groups: GroupService,
  agents: AgentRegistry,
  takeovers: AgentTakeovers,
  clientSettings: ClientSettingsRepository,
): ChatRoutes {
  const routes = chatRoutes();
  const appIdOf = (c: ChatContext): string => c.get('actor').app.appId;

  documented(routes, 'get', '/ai-agents', { summary: 'List AI agents', only: 'server' }, async (c) =>
    c.json({ data: await agents.list(appIdOf(c)) }),
  );
  documented(
    routes,
    'post',
    '/ai-agents',
    { summary: 'Register an AI agent', only: 'server', body: AgentRegistration },
    async (c) => {
      const registration = await jsonBody(c, AgentRegistration);
      return c.json({ data: await agents.register(appIdOf(c), registration) });
    },
  );
  documented(
    routes,
    'get',
    '/ai-agents/:agentId',
    { summary: 'Read an AI agent', only: 'server' },
    async (c) => c.json({ data: await agents.get(appIdOf(c), c.req.param('agentId')) }),
  );
  documented(
    routes,
    'put',
    '/ai-agents/:agentId',
    { summary: 'Change an AI agent', only: 'server', body: AgentChanges },
    async (c) => {
      const changes = await jsonBody(c, AgentChanges);
      return c.json({ data: await agents.update(appIdOf(c), c.req.param('agentId'), changes) });
    },
  );
  documented(
    routes,
    'delete',
    '/ai-agents/:agentId',
    { summary: 'Unregister an AI agent', only: 'server' },
    async (c) => {
      await agents.remove(appIdOf(c), c.req.param('agentId'));
      return c.json({
        data: { success: true, message: `The agent ${c.req.param('agentId')} is unregistered.` },
      });
    },
  );

  documented(
    routes,
    'get',
    '/ai-agents/:agentId/takeovers',
    { summary: 'The conversations taken over from an agent', only: 'server' },
    async (c) => {
      const agent = await agents.get(appIdOf(c), c.req.param('agentId'));
      return c.json({ data: await takeovers.list(appIdOf(c), agent.uid) });
    },
  );

  /** The agent and conversation a take-over call names, once the caller may steer the agent there. */
  const target = async (c: ChatContext) => {
    const { app, kind } = c.get('actor');
    const agent = await agents.get(app.appId, c.req.param('agentId') ?? '');
    const conversationId = conversationIdParam(c.req.param('conversationId'));
    if (kind === 'server') return { agentUid: agent.uid, conversationId, operator: undefined };
    const uid = actingUid(c);
    if (!conversationId.startsWith('group_')) {
      throw takeoverRefused(
        'Only group conversations can be taken over with an auth token; use the server API for others.',
        { conversationId },
      );
    }
    const guid = conversationId.slice('group_'.length);
    const member = await groups.member(app.appId, guid, uid);
    if (member === undefined) throw notAMember(uid, guid);
    if (member.scope === 'participant') {
      throw takeoverRefused(
        `Only admins and moderators of the group ${guid} can take it over from the agent.`,
        {
          guid,
          uid,
        },
      );
    }
    return { agentUid: agent.uid, conversationId, operator: uid };
  };

  const takeoverRoute = '/ai-agents/:agentId/conversations/:conversationId/takeover';
  documented(
    routes,
    'get',
    takeoverRoute,
    { summary: 'Whether an operator has taken the conversation over from the agent' },
    async (c) => {
      const { agentUid, conversationId } = await target(c);
      return c.json({ data: await takeovers.get(appIdOf(c), agentUid, conversationId) });
    },
  );
  documented(
    routes,
    'put',
    takeoverRoute,
    { summary: 'Take the conversation over from the agent (mute it there)' },
    async (c) => {
      const { agentUid, conversationId, operator } = await target(c);
      return c.json({ data: await takeovers.takeOver(appIdOf(c), agentUid, conversationId, operator) });
    },
  );
  documented(
    routes,
    'delete',
    takeoverRoute,
    { summary: 'Give the conversation back to the agent' },
    async (c) => {
      const { agentUid, conversationId } = await target(c);
      return c.json({ data: await takeovers.giveBack(appIdOf(c), agentUid, conversationId) });
    },
  );

  documented(
    routes,
    'get',
    '/client-settings',
    { summary: "The app's client settings", only: 'server' },
    async (c) => c.json({ data: await clientSettings.get(appIdOf(c)) }),
  );
  documented(
    routes,
    'patch',
    '/client-settings',
    { summary: "Change the app's client settings", only: 'server', body: ClientSettingsChanges },
    async (c) => {
      const changes = await jsonBody(c, ClientSettingsChanges);
      return c.json({ data: await clientSettings.update(appIdOf(c), changes) });
    },
  );

  return routes;
}
