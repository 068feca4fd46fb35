import { SearchKey } from '../../shared/users.js';
import { z } from 'zod';
import { ChatError, conversationNotFound } from '../errors.js';
import { clientUser } from '../client-api/app-settings.js';
import type { ReceiptKind } from '../repositories/read-state.js';
import { actingUid } from '../http/actor.js';
import type { Actor, ChatContext } from '../http/context.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { jsonBody, pathId, queryOf } from '../http/request.js';
import type { StoredConversation } from '../repositories/conversations.js';
import type { StoredMessage } from '../repositories/messages.js';
import { QueryBoolean, Tags, pagination } from '../validation.js';
import type { RouteDeps } from './deps.js';
import { nowSeconds } from '../time.js';
import { PageQuery, perPageOf, readableGroup } from './policies.js';

/** Tags in a query: repeated (`tags=a&tags=b`) or comma-joined, as the SDK sends an array (`tags=a,b`). */
const TagList = z.preprocess(
  (value) => [value].flat().flatMap((item) => (typeof item === 'string' ? item.split(',') : [item])),
  Tags,
);

const ListConversations = PageQuery.extend({
  conversationType: z.enum(['user', 'group'], { error: 'must be user or group' }).optional(),
  /** Only conversations the acting user tagged with any of these. */
  tags: TagList.optional(),
  /** The SDK's `setSearchKeyword`: conversations with a user or group whose name or id has it. */
  searchKey: SearchKey.optional(),
  /** Accepted as the SDK sends it: a conversation's tags are always included when it has any. */
  withTags: QueryBoolean.optional(),
  /**
   * The SDK's `setPinnedBy`: only pinned conversations, by who pinned them (`me`, `system`; the
   * app pins no conversation for everyone in Parley, so `system` alone lists none).
   */
  pinnedBy: z
    .preprocess(
      (value) => [value].flat().flatMap((item) => (typeof item === 'string' ? item.split(',') : [item])),
      z.array(z.enum(['me', 'system'], { error: 'must be me or system' })),
    )
    .optional(),
});

/** `tagConversation`: the acting user's tags on the conversation, replacing those it had. */
const TagConversation = z.object({ tags: Tags });

/** The REST API's optional `messageId`: mark up to this message rather than the conversation's last. */
const MarkUpTo = z.object({
  messageId: z
    .union([z.string().regex(/^\d{1,15}$/, 'must be a message id'), z.number().int().positive()])
    .optional(),
});

const UnreadFrom = z.object({
  messageId: z.union([z.string().regex(/^\d{1,15}$/, 'must be a message id'), z.number().int().positive()]),
});

/**
 * `DELETE …/conversation`: Parley deletes a conversation for the acting user only; the REST API's
 * `conversationWith` names the other side the path already names.
 */
const DeleteConversation = z.strictObject({
  conversationWith: z.string().max(100, 'must be at most 100 characters').optional(),
  deleteMessagesPermanently: z
    .literal(false, {
      error:
        'Parley deletes a conversation for the acting user only; delete messages with DELETE /messages/{id}',
    })
    .optional(),
});

/**
 * Conversations as one user sees them (the session's user, or the server's `onBehalfOf`):
 * `/conversations`, `/users/{uid}/conversation`, `/groups/{guid}/conversation`. A client's also
 * carry its read pointer (`lastReadMessageId`), and it marks whole conversations read or delivered.
 */
export function conversationRoutes(deps: RouteDeps): ChatRoutes {
  const { services, receipts } = deps;
  const { conversations, history, pins } = services;
  const routes = chatRoutes();

  /** The SDK counts unread messages as a number and reads where its user left off. */
  const present = async (actor: Actor, viewer: string, stored: StoredConversation[]) => {
    const presented = await conversations.present(actor.app, viewer, stored);
    if (actor.kind === 'server') return presented;
    const reads = await conversations.readPointers(
      actor.app.appId,
      viewer,
      stored.map((item) => item.conversationId),
    );
    const latest = new Map(stored.map((item) => [item.conversationId, String(item.lastMessageId)]));
    return presented.map((conversation) => ({
      ...conversation,
      unreadMessageCount: Number(conversation.unreadMessageCount),
      unreadMentionsCount: 0,
      lastReadMessageId: String(reads.get(conversation.conversationId)?.readMessageId ?? 0),
      latestMessageId: latest.get(conversation.conversationId) ?? '0',
    }));
  };

  /** The id of message `messageId` when it is in the conversation; a 404 naming the field otherwise. */
  const messageIn = async (
    appId: string,
    conversationId: string,
    messageId: string | number,
  ): Promise<StoredMessage> => {
    const named = await history.find(appId, Number(messageId));
    if (named?.conversationId !== conversationId) {
      throw new ChatError(
        404,
        'ERR_MESSAGE_ID_NOT_FOUND',
        `messageId: no message ${messageId} in ${conversationId}.`,
        {
          field: 'messageId',
          id: String(messageId),
        },
      );
    }
    return named;
  };

  /**
   * One conversation as the acting user sees it; a conversation without messages yet does not exist,
   * nor one the user deleted that nobody wrote in since.
   */
  const presentOne = async (c: ChatContext, conversationId: string) => {
    const actor = c.get('actor');
    const found = await conversations.findFor(actor.app.appId, conversationId, actingUid(c));
    const [conversation] = found === undefined ? [] : await present(actor, actingUid(c), [found]);
    if (conversation === undefined) throw conversationNotFound(conversationId);
    return conversation;
  };

  /** The conversation the path names, as the caller's user has it; members only for groups. */
  const conversationOf = async (c: ChatContext, kind: 'user' | 'group'): Promise<string> => {
    const { appId } = c.get('actor').app;
    if (kind === 'group') {
      await services.users.get(appId, actingUid(c));
      return `group_${(await readableGroup(c, services, pathId(c, 'guid'))).guid}`;
    }
    return conversations.withUser(appId, actingUid(c), pathId(c, 'uid'));
  };

  documented(
    routes,
    'get',
    '/conversations',
    { summary: "The acting user's conversations", query: ListConversations },
    async (c) => {
      const actor = c.get('actor');
      const query = queryOf(c, ListConversations);
      const perPage = perPageOf(actor, query);
      const {
        user: viewer,
        conversations: page,
        total,
      } = await conversations.listFor(actor.app.appId, actingUid(c), {
        conversationType: query.conversationType,
        tags: query.tags,
        searchKey: query.searchKey,
        pinnedOnly: query.pinnedBy !== undefined,
        page: query.page,
        perPage,
      });
      // Parley's pins are all the user's own: asking for the app's (`system`) alone lists none.
      const none = query.pinnedBy !== undefined && !query.pinnedBy.includes('me');
      const data = none ? [] : await present(actor, viewer.uid, page);
      return c.json({
        data,
        meta: { pagination: pagination(none ? 0 : total, data.length, perPage, query.page) },
      });
    },
  );

  for (const kind of ['user', 'group'] as const) {
    const base = kind === 'user' ? '/users/:uid/conversation' : '/groups/:guid/conversation';

    documented(routes, 'get', base, { summary: `The acting user's conversation with a ${kind}` }, async (c) =>
      c.json({ data: await presentOne(c, await conversationOf(c, kind)) }),
    );

    /**
     * `pinConversation` / `unpinConversation`: the acting user's own pin, which puts the
     * conversation first in their list; it may be pinned before its first message.
     */
    for (const pinned of [true, false]) {
      documented(
        routes,
        pinned ? 'post' : 'delete',
        `${base}/pin`,
        {
          summary: pinned
            ? `Pin the acting user's conversation with a ${kind} to the top of their list`
            : `Unpin the acting user's conversation with a ${kind}`,
        },
        async (c) => {
          const actor = c.get('actor');
          const uid = actingUid(c);
          const conversationId = await conversationOf(c, kind);
          const now = nowSeconds();
          const stored: StoredConversation = (await conversations.find(actor.app.appId, conversationId)) ?? {
            conversationId,
            conversationType: kind,
            uids: kind === 'user' ? ([uid, pathId(c, 'uid')].sort() as [string, string]) : undefined,
            guid: kind === 'group' ? conversationId.slice('group_'.length) : undefined,
            lastMessageId: 0,
            createdAt: now,
            updatedAt: now,
          };
          await pins.pinConversation(actor.app, uid, stored, pinned, actor.origin);
          const [conversation] = await present(actor, uid, [stored]);
          return c.json({ data: conversation });
        },
      );
    }

    documented(
      routes,
      'put',
      base,
      { summary: `Tag the acting user's conversation with a ${kind}`, body: TagConversation },
      async (c) => {
        const conversationId = await conversationOf(c, kind);
        const { tags } = await jsonBody(c, TagConversation);
        await conversations.tag(c.get('actor').app.appId, actingUid(c), conversationId, tags);
        return c.json({ data: await presentOne(c, conversationId) });
      },
    );

    documented(
      routes,
      'delete',
      base,
      {
        summary: `Delete the acting user's conversation with a ${kind} for that user only`,
        body: DeleteConversation,
      },
      async (c) => {
        const { appId } = c.get('actor').app;
        const conversationId = await conversationOf(c, kind);
        await jsonBody(c, DeleteConversation);
        const uid = actingUid(c);
        await conversations.deleteFor(appId, conversationId, uid);
        return c.json({
          data: {
            success: true,
            message: `The conversation ${conversationId} has been deleted successfully for UID ${uid}.`,
          },
        });
      },
    );

    /**
     * Marks the conversation read or delivered for the caller's user (the server's `onBehalfOf`) up
     * to `messageId`, a message of this conversation, or up to its last message: everything before
     * it too, and the unread count follows.
     */
    for (const receipt of ['read', 'delivered'] as const satisfies ReceiptKind[]) {
      documented(
        routes,
        'post',
        `${base}/${receipt}`,
        { summary: `Mark the conversation ${receipt}`, body: MarkUpTo },
        async (c) => {
          const { app, origin } = c.get('actor');
          const conversationId = await conversationOf(c, kind);
          const { messageId } = await jsonBody(c, MarkUpTo);
          const message =
            messageId === undefined
              ? await conversations.lastMessage(app.appId, conversationId)
              : await messageIn(app.appId, conversationId, messageId);
          if (message !== undefined) {
            const reader = clientUser(await services.users.get(app.appId, actingUid(c)));
            await receipts.give(app.appId, reader, message, receipt, origin.deviceId);
          }
          return c.json({
            data: { success: true, message: `The conversation ${conversationId} is marked ${receipt}.` },
          });
        },
      );
    }

    /**
     * `markMessageAsUnread`: the message and everything after it are unread again for the acting
     * user. The SDK reads the conversation as it now stands from `data.conversation`.
     */
    documented(
      routes,
      'delete',
      `${base}/read`,
      { summary: 'Mark messages unread again from one on', body: UnreadFrom },
      async (c) => {
        const conversationId = await conversationOf(c, kind);
        const { messageId } = await jsonBody(c, UnreadFrom);
        const { appId } = c.get('actor').app;
        const from = Number((await messageIn(appId, conversationId, messageId)).id);
        await conversations.markUnreadFrom(appId, conversationId, actingUid(c), from);
        return c.json({
          data: {
            success: true,
            message: `The messages from ${from} on in ${conversationId} are marked unread.`,
            conversation: await presentOne(c, conversationId),
          },
        });
      },
    );
  }

  return routes;
}
