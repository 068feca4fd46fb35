import { Hono } from 'hono';
import { z } from 'zod';
import type { Conversation } from '../../shared/conversations.js';
import { conversationIdFor, type GroupEntity, type UserEntity } from '../../shared/message.js';
import { ChatError, notAMember } from '../errors.js';
import type { ChatEnv } from '../http/context.js';
import { pathId, queryOf, requiredOnBehalfOf } from '../http/request.js';
import type { App } from '../repositories/apps.js';
import type { ConversationRow } from '../repositories/conversations.js';
import { toGroupEntity } from '../repositories/groups.js';
import { toUserEntity } from '../repositories/users.js';
import type { ChatServices } from '../services/registry.js';
import { PageNumber, PageSize, pagination } from '../validation.js';

const ListConversations = z.looseObject({
  conversationType: z.enum(['user', 'group'], { error: 'must be user or group' }).optional(),
  page: PageNumber.default(1),
  perPage: PageSize.default(100),
});

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

/** Conversations as one user sees them: `/conversations`, `/users/{uid}/conversation`, `/groups/{guid}/conversation`. */
export function conversationRoutes(services: ChatServices): Hono<ChatEnv> {
  const { conversations, users, groups } = services;
  const routes = new Hono<ChatEnv>();

  const present = (app: App, viewer: string, rows: ConversationRow[]) =>
    presentConversations(services, app, viewer, rows);

  routes.get('/conversations', async (c) => {
    const app = c.get('app');
    const viewer = await users.get(app.appId, requiredOnBehalfOf(c));
    const query = queryOf(c, ListConversations);
    const guids = await groups.guidsOf(app.appId, viewer.uid);
    const { conversations: rows, total } = await conversations.listFor(app.appId, viewer.uid, guids, query);
    const data = await present(app, viewer.uid, rows);
    return c.json({ data, meta: { pagination: pagination(total, data.length, query.perPage, query.page) } });
  });

  routes.get('/users/:uid/conversation', async (c) => {
    const app = c.get('app');
    const viewer = await users.get(app.appId, requiredOnBehalfOf(c));
    const other = await users.get(app.appId, pathId(c, 'uid'));
    const conversationId = conversationIdFor({
      receiverType: 'user',
      sender: viewer.uid,
      receiver: other.uid,
    });
    const row = await conversations.find(app.appId, conversationId);
    const [conversation] = row === undefined ? [] : await present(app, viewer.uid, [row]);
    if (conversation === undefined) throw conversationNotFound(conversationId);
    return c.json({ data: conversation });
  });

  routes.get('/groups/:guid/conversation', async (c) => {
    const app = c.get('app');
    const viewer = await users.get(app.appId, requiredOnBehalfOf(c));
    const group = await groups.get(app.appId, pathId(c, 'guid'));
    if ((await groups.member(app.appId, group.guid, viewer.uid)) === undefined)
      throw notAMember(viewer.uid, group.guid);
    const conversationId = `group_${group.guid}`;
    const row = await conversations.find(app.appId, conversationId);
    const [conversation] = row === undefined ? [] : await present(app, viewer.uid, [row]);
    if (conversation === undefined) throw conversationNotFound(conversationId);
    return c.json({ data: conversation });
  });

  return routes;
}
