import { Hono, type Context } from 'hono';
import type { ClientEnv } from '../client-api/context.js';
import { ChatError, notAMember } from '../errors.js';
import type { ChatServices } from '../services/registry.js';
import type { AgentRegistry } from './registry.js';
import { conversationIdParam } from './routes.js';
import type { AgentTakeovers } from './takeovers.js';

/**
 * Taking a group conversation over from an agent, as a logged-in operator (client API, `authToken`):
 * the same paths as the server API's, for admins and moderators of the group, whose console (the
 * desktop app's Chats) has no fullAccess key.
 */
export function takeoverClientRoutes(
  services: ChatServices,
  agents: AgentRegistry,
  takeovers: AgentTakeovers,
): Hono<ClientEnv> {
  const routes = new Hono<ClientEnv>();

  /** The agent and conversation the path names, once the caller may steer the agent there. */
  const target = async (appId: string, uid: string, agentId: string, conversation: string | undefined) => {
    const agent = await agents.get(appId, agentId);
    const conversationId = conversationIdParam(conversation);
    if (!conversationId.startsWith('group_')) {
      throw new ChatError(
        403,
        'ERR_TAKEOVER_NOT_ALLOWED',
        'Only group conversations can be taken over with an auth token; use the server API for others.',
        { conversationId },
      );
    }
    const guid = conversationId.slice('group_'.length);
    const member = await services.groups.member(appId, guid, uid);
    if (member === undefined) throw notAMember(uid, guid);
    if (member.scope === 'participant') {
      throw new ChatError(
        403,
        'ERR_TAKEOVER_NOT_ALLOWED',
        `Only admins and moderators of the group ${guid} can take it over from the agent.`,
        { guid, uid },
      );
    }
    return { agent, conversationId };
  };

  /** The caller and the target of a take-over request, checked. */
  const request = async (c: Context<ClientEnv>) => {
    const { appId } = c.get('app');
    const { uid } = c.get('session');
    const found = await target(appId, uid, c.req.param('agentId') ?? '', c.req.param('conversationId'));
    return { appId, uid, agentUid: found.agent.uid, conversationId: found.conversationId };
  };

  const path = '/ai-agents/:agentId/conversations/:conversationId/takeover';
  routes.get(path, async (c) => {
    const { appId, agentUid, conversationId } = await request(c);
    return c.json({ data: await takeovers.get(appId, agentUid, conversationId) });
  });
  routes.put(path, async (c) => {
    const { appId, uid, agentUid, conversationId } = await request(c);
    return c.json({ data: await takeovers.takeOver(appId, agentUid, conversationId, uid) });
  });
  routes.delete(path, async (c) => {
    const { appId, agentUid, conversationId } = await request(c);
    return c.json({ data: await takeovers.giveBack(appId, agentUid, conversationId) });
  });
  return routes;
}
