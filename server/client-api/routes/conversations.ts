import { Hono } from 'hono';
import { z } from 'zod';
import { conversationIdFor } from '../../../shared/message.js';
import { ChatError } from '../../errors.js';
import { jsonBody, pathId, queryOf } from '../../http/request.js';
import type { App } from '../../repositories/apps.js';
import type { ConversationRow } from '../../repositories/conversations.js';
import { presentConversations } from '../../routes/conversations.js';
import { pagination } from '../../validation.js';
import type { ClientContext, ClientEnv } from '../context.js';
import type { ClientApiDeps } from '../deps.js';
import type { ReceiptKind } from '../read-state.js';
import { PageQuery } from '../query.js';

const ConversationsQuery = PageQuery.extend({
  conversationType: z.enum(['user', 'group'], { error: 'must be user or group' }).optional(),
});

const UnreadFrom = z.object({
  messageId: z.union([z.string().regex(/^\d{1,15}$/), z.number().int().positive()]),
});

const conversationNotFound = (conversationId: string): ChatError =>
  new ChatError(404, 'ERR_CONVERSATION_NOT_FOUND', `The conversation ${conversationId} does not exist.`, {
    conversationId,
  });

/**
 * Conversations of the logged-in user, with the read pointer the SDK shows as
 * `lastReadMessageId`, and the read/delivered marks of whole conversations.
 */
export function conversationRoutes(deps: ClientApiDeps): Hono<ClientEnv> {
  const { services, readState } = deps;
  const { conversations, users, groups } = services;
  const routes = new Hono<ClientEnv>();

  const present = async (app: App, uid: string, rows: ConversationRow[]) => {
    const [presented, reads] = await Promise.all([
      presentConversations(services, app, uid, rows),
      readState.forMember(
        app.appId,
        uid,
        rows.map((row) => row.conversation_id),
      ),
    ]);
    const latest = new Map(rows.map((row) => [row.conversation_id, String(row.last_message_id)]));
    return presented.map((conversation) => ({
      ...conversation,
      unreadMessageCount: Number(conversation.unreadMessageCount),
      unreadMentionsCount: 0,
      lastReadMessageId: String(reads.get(conversation.conversationId)?.read_message_id ?? 0),
      latestMessageId: latest.get(conversation.conversationId) ?? '0',
    }));
  };

  /** The conversation the path names, as the logged-in user has it; members only for groups. */
  const conversationOf = async (c: ClientContext, kind: 'user' | 'group'): Promise<string> => {
    const appId = c.get('app').appId;
    const { uid } = c.get('session');
    if (kind === 'user') {
      const other = await users.get(appId, pathId(c, 'uid'));
      return conversationIdFor({ receiverType: 'user', sender: uid, receiver: other.uid });
    }
    const group = await services.groupService.ofMember(appId, pathId(c, 'guid'), uid);
    return `group_${group.guid}`;
  };

  routes.get('/conversations', async (c) => {
    const app = c.get('app');
    const { uid } = c.get('session');
    const query = queryOf(c, ConversationsQuery);
    const guids = await groups.guidsOf(app.appId, uid);
    const { conversations: rows, total } = await conversations.listFor(app.appId, uid, guids, {
      conversationType: query.conversationType,
      page: query.page,
      perPage: query.per_page,
    });
    const data = await present(app, uid, rows);
    return c.json({ data, meta: { pagination: pagination(total, data.length, query.per_page, query.page) } });
  });

  for (const kind of ['user', 'group'] as const) {
    const base = kind === 'user' ? '/users/:uid/conversation' : '/groups/:guid/conversation';

    routes.get(base, async (c) => {
      const app = c.get('app');
      const conversationId = await conversationOf(c, kind);
      const row = await conversations.find(app.appId, conversationId);
      const [conversation] = row === undefined ? [] : await present(app, c.get('session').uid, [row]);
      if (conversation === undefined) throw conversationNotFound(conversationId);
      return c.json({ data: conversation });
    });

    for (const receipt of ['read', 'delivered'] as const satisfies ReceiptKind[]) {
      routes.post(`${base}/${receipt}`, async (c) => {
        const app = c.get('app');
        const conversationId = await conversationOf(c, kind);
        const row = await conversations.find(app.appId, conversationId);
        if (row !== undefined) {
          await readState.mark(app.appId, conversationId, c.get('session').uid, receipt, row.last_message_id);
        }
        return c.json({
          data: { success: true, message: `The conversation ${conversationId} is marked ${receipt}.` },
        });
      });
    }

    routes.delete(`${base}/read`, async (c) => {
      const app = c.get('app');
      const conversationId = await conversationOf(c, kind);
      const { messageId } = await jsonBody(c, UnreadFrom);
      await readState.markUnreadFrom(app.appId, conversationId, c.get('session').uid, Number(messageId));
      return c.json({ data: { success: true, message: `Messages from ${messageId} are unread again.` } });
    });
  }

  return routes;
}
