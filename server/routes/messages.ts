import { z } from 'zod';
import {
  InteractedAnswer,
  InteractionsRequest,
  MessageRequest,
  Metadata as MessageMetadata,
  conversationIdFor,
  type Message,
} from '../../shared/message.js';
import { ChatError, badRequest } from '../errors.js';
import { interactedAnswer } from '../forms/submissions.js';
import { actingUid, sessionOf } from '../http/actor.js';
import type { Actor, ChatContext } from '../http/context.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { jsonBody, pathId, queryOf } from '../http/request.js';
import type { MessageCursor, MessageFilter, StoredMessage } from '../repositories/messages.js';
import { SearchKey } from '../../shared/users.js';
import { CommaList, LIMITS, PageSize, QueryBoolean, Tags, byteLength, pagination } from '../validation.js';
import type { RouteDeps } from './deps.js';
import { readableGroup, userFor } from './policies.js';
import { receiptOf } from '../repositories/read-state.js';
import { sendUploaded } from '../media/upload.js';
import { isMultipart } from '../../shared/server-kit/index.js';

const EditedText = z.string().refine((text) => text.trim() !== '', 'must not be empty');

/**
 * An edit: CometChat's REST body `{data: {text, metadata}, tags}`, or the whole message object the
 * SDK sends (text and metadata at the top). Only text, metadata and tags change.
 */
const EditRequest = z.looseObject({
  data: z.looseObject({ text: EditedText.optional(), metadata: MessageMetadata.optional() }).optional(),
  text: EditedText.optional(),
  metadata: MessageMetadata.optional(),
  tags: Tags.optional(),
});

const DeleteRequest = z.strictObject({ permanent: z.boolean().optional() });

const EpochQuery = z.coerce.number({ error: 'must be a number' }).int('must be an integer').nonnegative();

/** A message list's query: the REST API's filters and the SDK's `MessagesRequest` (protocol §2.5). */
const ListQuery = z.looseObject({
  limit: PageSize.optional(),
  perPage: PageSize.optional(),
  per_page: PageSize.optional(),
  affix: z.enum(['append', 'prepend'], { error: 'must be append or prepend' }).optional(),
  id: z
    .string()
    .regex(/^\d{1,15}$/, 'must be a message id')
    .transform(Number)
    .optional(),
  sentAt: EpochQuery.optional(),
  receiverType: z.enum(['user', 'group']).optional(),
  category: z.string().optional(),
  categories: CommaList.optional(),
  type: z.string().optional(),
  types: CommaList.optional(),
  sender: z
    .string()
    .transform((uid) => uid.toLowerCase())
    .optional(),
  conversationId: z.string().optional(),
  hideDeleted: QueryBoolean.optional(),
  onlyDeleted: QueryBoolean.optional(),
  fromTimestamp: EpochQuery.optional(),
  toTimestamp: EpochQuery.optional(),
  hasMentions: QueryBoolean.optional(),
  mentionedUids: CommaList.transform((uids) => uids.map((uid) => uid.toLowerCase())).optional(),
  /** The REST API's: messages that mention the `onBehalfOf` user. */
  myMentionsOnly: QueryBoolean.optional(),
  /** The mentioned users' entities with their current `tags`. */
  mentionsWithTagInfo: QueryBoolean.optional(),
  /** The mentioned users' entities with `blockedByMe`/`hasBlockedMe` as the acting user sees them. */
  mentionsWithBlockedInfo: QueryBoolean.optional(),
  /** Leave thread replies out, as the SDK's message lists of a conversation ask. */
  hideReplies: QueryBoolean.optional(),
  /** Messages whose text or attachment file names contain the keyword; no action messages. */
  searchKey: SearchKey.optional(),
  /** Only what is unread for the acting user; with `count`, how many per conversation. */
  unread: QueryBoolean.optional(),
  count: QueryBoolean.optional(),
  hideMessagesFromBlockedUsers: QueryBoolean.optional(),
  /** The SDK's `setPinned`: a conversation's pinned messages, newest pin first, whole (no cursor). */
  pinned: QueryBoolean.optional(),
  /** The SDK's `setSaved`: the acting user's saved messages of every conversation, newest save first. */
  saved: QueryBoolean.optional(),
  /**
   * The SDK's `setUpdatedAfter`: the messages sent or changed at or after this second (inclusive, as
   * times are whole seconds), in the order they changed, read forward (`affix=append`).
   */
  updatedAt: EpochQuery.optional(),
  /** The SDK's `updatesOnly`, with `updatedAt`: only messages changed after they were sent. */
  onlyUpdates: QueryBoolean.optional(),
  /** The SDK sends it with every list: mark the root messages whose thread the acting user follows. */
  withThreadSubscribed: QueryBoolean.optional(),
});
type ListQuery = z.output<typeof ListQuery>;

function filterOf(query: ListQuery): MessageFilter {
  return {
    receiverType: query.receiverType,
    category: query.category,
    categories: query.categories,
    type: query.type,
    types: query.types,
    sender: query.sender,
    hideDeleted: query.hideDeleted,
    onlyDeleted: query.onlyDeleted,
    fromTimestamp: query.fromTimestamp,
    toTimestamp: query.toTimestamp,
    conversationIds: query.conversationId === undefined ? undefined : [query.conversationId],
    hasMentions: query.hasMentions,
    mentionedUids: query.mentionedUids,
    hideReplies: query.hideReplies,
    searchKey: query.searchKey,
    updatedSince: query.updatedAt,
    onlyUpdated: query.onlyUpdates,
  };
}

/** The cursor to read on from: the page's far edge, else the one asked with. */
function nextCursor(cursor: MessageCursor, rows: StoredMessage[]) {
  const edge = cursor.affix === 'append' ? rows.at(-1) : rows[0];
  return edge === undefined
    ? {
        affix: cursor.affix,
        ...(cursor.id === undefined ? {} : { id: String(cursor.id) }),
        ...(cursor.sentAt === undefined ? {} : { sentAt: cursor.sentAt }),
      }
    : {
        affix: cursor.affix,
        id: String(edge.id),
        sentAt: edge.sentAt,
        ...(cursor.updatedAt === undefined ? {} : { updatedAt: edge.updatedAt }),
      };
}

/**
 * How each API pages messages. The REST API reads from the oldest by default and answers
 * `meta.current` and `meta.next` (a conversation with a user adds `pagination` and a numeric
 * `cursor`); the SDK reads from the newest and needs `meta.cursor` (without it it never asks for the
 * next page) and `meta.pagination` (without it its promise hangs).
 */
function messagePaging(actor: Actor, query: ListQuery, withPagination: boolean) {
  const client = actor.kind === 'client';
  const limit = query.perPage ?? query.per_page ?? query.limit ?? (client ? 30 : 100);
  if (query.onlyUpdates === true && query.updatedAt === undefined)
    throw badRequest('onlyUpdates', 'needs updatedAt: the second to read updates from');
  if (query.updatedAt !== undefined && query.affix === 'prepend')
    throw badRequest('affix', 'must be append with updatedAt: updates are read forward');
  const cursor: MessageCursor =
    query.updatedAt === undefined
      ? { affix: query.affix ?? (client ? 'prepend' : 'append'), id: query.id, sentAt: query.sentAt }
      : { affix: 'append', id: query.id, updatedAt: query.updatedAt };
  const meta = (rows: StoredMessage[], total: number) => {
    const next = nextCursor(cursor, rows);
    if (client) return { cursor: next, pagination: pagination(total, rows.length, limit, 1) };
    const current = { limit, count: rows.length };
    if (!withPagination) return { current, next };
    const numeric = { affix: next.affix, ...(next.id === undefined ? {} : { id: Number(next.id) }) };
    return { current, next, pagination: pagination(total, rows.length, limit, 1), cursor: numeric };
  };
  return { limit, cursor, counted: client || withPagination, meta };
}

/**
 * Messages of both APIs: send (A1) and bot messages (A2), lists per conversation, read, edit,
 * delete and interactions. A client acts as its session's user; the server as `onBehalfOf`.
 */
export function messageRoutes(deps: RouteDeps): ChatRoutes {
  const { services, forms } = deps;
  const { messages: messageService, history, users } = services;
  const routes = chatRoutes();

  /**
   * A JSON message, or a media message with its files in a multipart body (the SDK's
   * `sendMediaMessage`); `parentId` makes it a reply in that message's thread.
   */
  const send = async (c: ChatContext, senderUid: string, parentId?: string) => {
    const { media } = services;
    const { app, origin } = c.get('actor');
    let result: Awaited<ReturnType<typeof messageService.send>>;
    if (isMultipart(c)) {
      // Read only by the upload route, which holds the body to the app's cap.
      if (media === undefined) throw new ChatError(404, 'ERR_API_NOT_FOUND', 'This server keeps no files.');
      result = await sendUploaded(c, deps, media, senderUid, parentId);
    } else {
      const request = await jsonBody(c, MessageRequest);
      // Media messages link their files; any other message naming attachments has them checked the
      // same way, as deleting a message removes the stored files its attachments name.
      const namesFiles =
        (request.category === 'message' && request.type !== 'text') || 'attachments' in request.data;
      if (media !== undefined && namesFiles) {
        const { receiver, receiverType, multipleReceivers } = request;
        const conversationId =
          multipleReceivers === undefined && receiver !== undefined && receiverType !== undefined
            ? conversationIdFor({ receiverType, receiver: receiver.toLowerCase(), sender: senderUid })
            : undefined;
        const { data, claimed } = await media.linkUploads(app.appId, senderUid, conversationId, request.data);
        try {
          // The same data with only its attachments (and a media message's thumbnails) rewritten.
          const linked = { ...request, data } as MessageRequest;
          result = await messageService.send(app, senderUid, linked, origin, parentId);
        } catch (error) {
          // Not sent: the uploads stay unlinked, for another send or the sweep.
          await media.uploads.release(claimed);
          throw error;
        }
        // Committed: the files are the message's now, not the sweep's.
        await media.settle(claimed.map(({ folder }) => folder));
      } else result = await messageService.send(app, senderUid, request, origin, parentId);
    }
    return c.json({ data: 'single' in result ? result.single : result.fanOut });
  };

  documented(
    routes,
    'post',
    '/messages',
    {
      summary:
        'Send a message as the acting user (JSON, or multipart/form-data with files[] for a media message)',
      body: MessageRequest,
    },
    (c) => send(c, actingUid(c)),
  );
  documented(
    routes,
    'post',
    '/bots/:uid/messages',
    {
      summary: 'Send a bot message (JSON, or multipart/form-data with files[] for a media message)',
      only: 'server',
      body: MessageRequest,
    },
    (c) => send(c, pathId(c, 'uid')),
  );

  /** One-to-one messages with when their receiver received and read them (`deliveredAt`, `readAt`). */
  const withReceipts = async (appId: string, page: Message[]): Promise<Message[]> => {
    const direct = page.filter((message) => message.receiverType === 'user' && message.category !== 'action');
    if (direct.length === 0) return page;
    const marks = await history.receiptsFrom(
      appId,
      [...new Set(direct.map((message) => message.conversationId))],
      Math.min(...direct.map((message) => Number(message.id))),
    );
    return page.map((message) => {
      const own =
        message.receiverType === 'user'
          ? marks.get(message.conversationId)?.get(message.receiver)
          : undefined;
      return own === undefined || message.category === 'action'
        ? message
        : { ...message, ...receiptOf(own, Number(message.id)) };
    });
  };

  /**
   * The SDK's `getMessageReceipts`: who received and read the message, each reader (never its
   * sender) with when, as `receipts.data` of the message.
   */
  const receiptsOf = async (c: ChatContext, row: StoredMessage) => {
    const actor = c.get('actor');
    const appId = actor.app.appId;
    const marks = (await history.receiptsFrom(appId, [row.conversationId], Number(row.id))).get(
      row.conversationId,
    );
    const readers = [...(marks?.keys() ?? [])].filter(
      (uid) => uid !== row.sender && (row.receiverType === 'group' || uid === row.receiver),
    );
    const people = await users.findMany(appId, readers);
    return readers.flatMap((uid) => {
      const person = people.get(uid);
      if (person === undefined) return [];
      return [
        {
          recipient: userFor(actor, person),
          messageId: String(row.id),
          ...receiptOf(marks?.get(uid) ?? [], Number(row.id)),
        },
      ];
    });
  };

  /** With `withThreadSubscribed`, `threadSubscribed: true` on the roots of threads the acting user follows. */
  const withFollows = async (c: ChatContext, query: ListQuery, page: Message[]): Promise<Message[]> => {
    const { app, uid } = c.get('actor');
    if (query.withThreadSubscribed !== true || uid === undefined) return page;
    const followed = await services.threads.followed(app.appId, uid, page);
    return followed.size === 0
      ? page
      : page.map((message) => (followed.has(message.id) ? { ...message, threadSubscribed: true } : message));
  };

  /**
   * The pinned messages of the one conversation `scope` names, or the acting user's saved messages
   * (of the conversations they can see), in the order pinned or saved, newest first. The lists are
   * capped (100), so they come whole: without `meta.cursor` the SDK asks for no next page.
   */
  const pinSaveList = async (c: ChatContext, scope: MessageFilter, query: ListQuery) => {
    const actor = c.get('actor');
    const { appId } = actor.app;
    const limit = query.perPage ?? query.per_page ?? query.limit ?? (actor.kind === 'client' ? 30 : 100);
    let listed: { ids: number[]; total: number };
    if (query.pinned === true) {
      if (query.saved === true) throw badRequest('saved', 'cannot be combined with pinned');
      const [conversationId, ...more] = scope.conversationIds ?? [];
      if (conversationId === undefined || more.length > 0)
        throw badRequest(
          'pinned',
          "lists one conversation's pins: ask /users/{uid}/messages or /groups/{guid}/messages",
        );
      listed = await services.pins.pinnedIn(appId, conversationId, limit);
    } else listed = await services.pins.savedBy(appId, actingUid(c), limit);
    const rows =
      listed.ids.length === 0
        ? []
        : await history.list(appId, { ...scope, ids: listed.ids }, { affix: 'append' }, listed.ids.length);
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    const ordered = listed.ids.flatMap((id) => byId.get(id) ?? []);
    const data = await withFollows(
      c,
      query,
      await withReceipts(appId, await messageService.present(actor.app, ordered, { viewer: actor.uid })),
    );
    const meta =
      actor.kind === 'client'
        ? { pagination: pagination(listed.total, data.length, limit, 1) }
        : { current: { limit, count: data.length } };
    return c.json({ data, meta });
  };

  /** A page of the messages `scope` selects, with the query's filters and the caller's paging. */
  const list = async (c: ChatContext, scope: MessageFilter, withPagination = false) => {
    const actor = c.get('actor');
    const { appId } = actor.app;
    const query = queryOf(c, ListQuery);
    if (query.pinned === true || query.saved === true) return pinSaveList(c, scope, query);
    const paging = messagePaging(actor, query, withPagination);
    const filter = { ...filterOf(query), ...scope };
    if (query.myMentionsOnly === true) filter.mentioning = actingUid(c);
    if (query.hideMessagesFromBlockedUsers === true) filter.hideBlockedBy = actingUid(c);
    if (query.count === true) {
      if (query.unread !== true) throw badRequest('count', 'counts only unread messages: add unread=1');
      const counts = await history.unreadCounts(appId, { ...filter, unreadBy: actingUid(c) });
      return c.json({
        data: counts.map(({ entityId, entityType, count }) => ({ entityId, entityType, count })),
      });
    }
    if (query.unread === true) filter.unreadBy = actingUid(c);
    const [rows, total] = await Promise.all([
      history.list(appId, filter, paging.cursor, paging.limit),
      paging.counted ? history.count(appId, filter) : 0,
    ]);
    const presented = await messageService.present(actor.app, rows, {
      mentionsWithTags: query.mentionsWithTagInfo === true,
      viewer: actor.uid,
      mentionsBlockedInfoFor: query.mentionsWithBlockedInfo === true ? actingUid(c) : undefined,
    });
    const data = await withFollows(c, query, await withReceipts(appId, presented));
    return c.json({ data, meta: paging.meta(rows, total) });
  };

  documented(
    routes,
    'get',
    '/messages',
    { summary: "List messages (the acting user's, or all of the app)", query: ListQuery },
    async (c) => {
      const { app, uid } = c.get('actor');
      if (uid === undefined) return list(c, {});
      return list(c, await history.visibleTo(app.appId, uid));
    },
  );

  documented(
    routes,
    'get',
    '/users/:uid/messages',
    { summary: 'List the messages of a one-on-one conversation', query: ListQuery },
    async (c) => {
      const { appId } = c.get('actor').app;
      const conversationId = await services.conversations.withUser(appId, actingUid(c), pathId(c, 'uid'));
      return list(c, { conversationIds: [conversationId] }, true);
    },
  );

  documented(
    routes,
    'get',
    '/groups/:guid/messages',
    { summary: 'List the messages of a group', query: ListQuery },
    async (c) => {
      const group = await readableGroup(c, services, pathId(c, 'guid'));
      return list(c, { conversationIds: [`group_${group.guid}`] });
    },
  );

  documented(routes, 'get', '/messages/:id', { summary: 'Read a message' }, async (c) => {
    const { app, uid } = c.get('actor');
    const row = await messageService.getVisible(app, c.req.param('id'), uid);
    const [message] = await withReceipts(
      app.appId,
      await messageService.present(app, [row], { viewer: uid }),
    );
    return c.json({ data: { ...message, receipts: { data: await receiptsOf(c, row) } } });
  });

  documented(
    routes,
    'post',
    '/messages/:id/thread',
    {
      summary: 'Reply in the thread of a message, as the acting user (JSON, or multipart with files[])',
      body: MessageRequest,
    },
    (c) => send(c, actingUid(c), c.req.param('id')),
  );

  documented(
    routes,
    'get',
    '/messages/:id/thread',
    { summary: 'List the replies in the thread of a message', query: ListQuery },
    async (c) => {
      const { app, uid } = c.get('actor');
      const parent = await messageService.getVisible(app, c.req.param('id'), uid);
      return list(c, { parentId: Number(parent.id), hideReplies: false });
    },
  );

  /** A client's own message id: printable text (PostgreSQL refuses NUL in text). */
  const MUID = /^[\p{L}\p{N}\p{P}\p{S} ]{1,200}$/u;

  documented(
    routes,
    'get',
    '/user/messages/:muid',
    { summary: 'Read a message the session user sent, by its muid', only: 'client' },
    async (c) => {
      const { app } = c.get('actor');
      const { uid } = sessionOf(c);
      const muid = c.req.param('muid');
      if (!MUID.test(muid)) throw badRequest('muid', 'must be 1 to 200 printable characters');
      const row = await history.findByMuid(app.appId, uid, muid);
      if (row === undefined) {
        throw new ChatError(404, 'ERR_MESSAGE_ID_NOT_FOUND', `No message with muid ${muid}.`, { muid });
      }
      const [message] = await withReceipts(
        app.appId,
        await messageService.present(app, [row], { viewer: uid }),
      );
      return c.json({ data: message });
    },
  );

  documented(routes, 'put', '/messages/:id', { summary: 'Edit a message', body: EditRequest }, async (c) => {
    const { app, uid, origin } = c.get('actor');
    const body = await jsonBody(c, EditRequest);
    const text = body.data?.text ?? body.text;
    const metadata = body.data?.metadata ?? body.metadata;
    if (byteLength({ text, metadata }) > LIMITS.messageBytes) {
      throw badRequest('data', `must be at most ${LIMITS.messageBytes} bytes`);
    }
    const action = await messageService.edit(
      app,
      c.req.param('id'),
      uid,
      { text, metadata, tags: body.tags },
      origin,
    );
    return c.json({ data: action });
  });

  documented(
    routes,
    'delete',
    '/messages/:id',
    { summary: 'Delete a message (the server API may delete for good)', body: DeleteRequest },
    async (c) => {
      const { app, uid, kind, origin } = c.get('actor');
      // Only the app deletes for good; a user's delete leaves the deleted message in the history.
      const permanent = kind === 'server' && (await jsonBody(c, DeleteRequest)).permanent === true;
      const action = await messageService.delete(app, c.req.param('id'), uid, permanent, origin);
      return c.json({ data: action });
    },
  );

  documented(
    routes,
    'patch',
    '/messages/:id/interacted',
    {
      summary: 'Interact with an interactive message',
      body: InteractionsRequest,
      response: InteractedAnswer,
    },
    async (c) => {
      const { app, kind, origin } = c.get('actor');
      const uid = actingUid(c);
      const id = c.req.param('id');
      const body = await jsonBody(c, InteractionsRequest);
      // A user's submission runs the form's apiAction on the server; the app's own backend reports
      // interactions itself, so none runs on its behalf. The form's rules hold for both.
      const outcome =
        kind === 'client'
          ? await forms.submit(app, id, uid, body.interactions, body.formData, origin)
          : await messageService.interact(
              app,
              id,
              uid,
              {
                elementIds: body.interactions,
                formData: body.formData,
              },
              origin,
            );
      return c.json(interactedAnswer(id, outcome));
    },
  );

  return routes;
}
