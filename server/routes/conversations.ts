import { Hono } from 'hono';
import { z } from 'zod';
import { conversationIdFor, type GroupEntity, type Message, type UserEntity } from '../../shared/message.js';
import { ChatError } from '../errors.js';
import type { ReceiptKind } from '../client-api/read-state.js';
import { actingUid, only } from '../http/actor.js';
import type { Actor, ChatContext, ChatEnv } from '../http/context.js';
import { jsonBody, pathId, queryOf } from '../http/request.js';
import type { App } from '../repositories/apps.js';
import type { ConversationRow } from '../repositories/conversations.js';
import { toGroupEntity } from '../repositories/groups.js';
import { toUserEntity } from '../repositories/users.js';
import type { ChatServices } from '../services/registry.js';
import { pagination } from '../validation.js';
import type { RouteDeps } from './deps.js';
import { PageQuery, perPageOf, readableGroup } from './policies.js';

const ListConversations = PageQuery.extend({
  conversationType: z.enum(['user', 'group'], { error: 'must be user or group' }).optional(),
});

const UnreadFrom = z.object({
  messageId: z.union([z.string().regex(/^\d{1,15}$/), z.number().int().positive()]),
});

export interface Conversation {
  conversationId: string;
  conversationType: 'user' | 'group';
  /** A string, as CometChat sends it. */
  unreadMessageCount: string;
  createdAt: number;
  updatedAt: number;
  lastMessage?: Message;
  conversationWith: UserEntity | GroupEntity;
}

const conversationNotFound = (conversationId: string): ChatError =>
  new ChatError(404, 'ERR_CONVERSATION_NOT_FOUND', `The conversation ${conversationId} does not exist.`, {
    conversationId,
  });

/** Fills last messages, the other party and unread counts for a page of rows in a few queries. */
export async function presentConversations(
  services: ChatServices,
  app: App,
  viewer: string,
  rows: ConversationRow[],
): Promise<Conversation[]> {
  const { conversations, users, groups, messages, messageService } = services;
  const appId = app.appId;
  const others = rows
    .flatMap((row) => (row.first_uid === viewer ? [row.second_uid] : [row.first_uid]))
    .filter((uid): uid is string => uid !== null);
  const guids = rows.flatMap((row) => (row.guid === null ? [] : [row.guid]));
  const [lastRows, people, groupRows, counts, memberships, unread] = await Promise.all([
    messages.findMany(
      appId,
      rows.map((row) => row.last_message_id),
    ),
    users.findMany(appId, others),
    groups.findMany(appId, guids),
    groups.memberCounts(appId, guids),
    groups.membershipsOf(appId, viewer, guids),
    conversations.unreadCounts(
      appId,
      viewer,
      rows.map((row) => row.conversation_id),
    ),
  ]);
  const lastMessages = await messageService.present(app, [...lastRows.values()]);
  const lastById = new Map(lastMessages.map((message) => [message.id, message]));
  return rows.flatMap((row) => {
    let conversationWith: UserEntity | GroupEntity;
    if (row.conversation_type === 'group' && row.guid !== null) {
      const group = groupRows.get(row.guid);
      if (group === undefined) return [];
      conversationWith = toGroupEntity(group, counts.get(row.guid) ?? 0, memberships.get(row.guid));
    } else {
      const otherUid = row.first_uid === viewer ? row.second_uid : row.first_uid;
      const other = otherUid === null ? undefined : people.get(otherUid);
      if (other === undefined) return [];
      conversationWith = { ...toUserEntity(other), conversationId: row.conversation_id };
    }
    const conversation: Conversation = {
      conversationId: row.conversation_id,
      conversationType: row.conversation_type,
      unreadMessageCount: String(unread.get(row.conversation_id) ?? 0),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      conversationWith,
    };
    const lastMessage = lastById.get(String(row.last_message_id));
    if (lastMessage !== undefined) conversation.lastMessage = lastMessage;
    return [conversation];
  });
}

/**
 * Conversations as one user sees them (the session's user, or the server's `onBehalfOf`):
 * `/conversations`, `/users/{uid}/conversation`, `/groups/{guid}/conversation`. A client's also
 * carry its read pointer (`lastReadMessageId`), and it marks whole conversations read or delivered.
 */
export function conversationRoutes(deps: RouteDeps): Hono<ChatEnv> {
  const { services, readState } = deps;
  const { conversations, users, groups } = services;
  const routes = new Hono<ChatEnv>();

  /** The SDK counts unread messages as a number and reads where its user left off. */
  const present = async (actor: Actor, viewer: string, rows: ConversationRow[]) => {
    const presented = await presentConversations(services, actor.app, viewer, rows);
    if (actor.kind === 'server') return presented;
    const reads = await readState.forMember(
      actor.app.appId,
      viewer,
      rows.map((row) => row.conversation_id),
    );
    const latest = new Map(rows.map((row) => [row.conversation_id, String(row.last_message_id)]));
    return presented.map((conversation) => ({
      ...conversation,
      unreadMessageCount: Number(conversation.unreadMessageCount),
      unreadMentionsCount: 0,
      lastReadMessageId: String(reads.get(conversation.conversationId)?.read_message_id ?? 0),
      latestMessageId: latest.get(conversation.conversationId) ?? '0',
    }));
  };

  /** The conversation the path names, as the caller's user has it; members only for groups. */
  const conversationOf = async (c: ChatContext, kind: 'user' | 'group'): Promise<string> => {
    const { appId } = c.get('actor').app;
    const viewer = await users.get(appId, actingUid(c));
    if (kind === 'group') return `group_${(await readableGroup(c, services, pathId(c, 'guid'))).guid}`;
    const other = await users.get(appId, pathId(c, 'uid'));
    return conversationIdFor({ receiverType: 'user', sender: viewer.uid, receiver: other.uid });
  };

  routes.get('/conversations', async (c) => {
    const actor = c.get('actor');
    const viewer = await users.get(actor.app.appId, actingUid(c));
    const query = queryOf(c, ListConversations);
    const perPage = perPageOf(actor, query);
    const guids = await groups.guidsOf(actor.app.appId, viewer.uid);
    const { conversations: rows, total } = await conversations.listFor(actor.app.appId, viewer.uid, guids, {
      conversationType: query.conversationType,
      page: query.page,
      perPage,
    });
    const data = await present(actor, viewer.uid, rows);
    return c.json({ data, meta: { pagination: pagination(total, data.length, perPage, query.page) } });
  });

  for (const kind of ['user', 'group'] as const) {
    const base = kind === 'user' ? '/users/:uid/conversation' : '/groups/:guid/conversation';

    routes.get(base, async (c) => {
      const actor = c.get('actor');
      const conversationId = await conversationOf(c, kind);
      const row = await conversations.find(actor.app.appId, conversationId);
      const [conversation] = row === undefined ? [] : await present(actor, actingUid(c), [row]);
      if (conversation === undefined) throw conversationNotFound(conversationId);
      return c.json({ data: conversation });
    });

    for (const receipt of ['read', 'delivered'] as const satisfies ReceiptKind[]) {
      routes.post(`${base}/${receipt}`, only('client'), async (c) => {
        const { appId } = c.get('actor').app;
        const conversationId = await conversationOf(c, kind);
        const row = await conversations.find(appId, conversationId);
        if (row !== undefined) {
          await readState.mark(appId, conversationId, actingUid(c), receipt, row.last_message_id);
        }
        return c.json({
          data: { success: true, message: `The conversation ${conversationId} is marked ${receipt}.` },
        });
      });
    }

    routes.delete(`${base}/read`, only('client'), async (c) => {
      const conversationId = await conversationOf(c, kind);
      const { messageId } = await jsonBody(c, UnreadFrom);
      await readState.markUnreadFrom(
        c.get('actor').app.appId,
        conversationId,
        actingUid(c),
        Number(messageId),
      );
      return c.json({ data: { success: true, message: `Messages from ${messageId} are unread again.` } });
    });
  }

  return routes;
}
