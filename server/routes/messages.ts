import { Hono } from 'hono';
import { z } from 'zod';
import {
  InteractionsRequest,
  MessageRequest,
  Metadata as MessageMetadata,
  conversationIdFor,
} from '../../shared/message.js';
import { notAMember } from '../errors.js';
import { interactedAnswer } from '../forms/submissions.js';
import type { ChatContext, ChatEnv } from '../http/context.js';
import { jsonBody, onBehalfOf, originOf, pathId, queryOf, requiredOnBehalfOf } from '../http/request.js';
import type { MessageCursor, MessageFilter, MessageRow } from '../repositories/messages.js';
import type { ChatServices } from '../services/registry.js';
import { LIMITS, PageSize, QueryBoolean, Tags, byteLength, pagination } from '../validation.js';

const EditMessage = z.strictObject({
  data: z
    .looseObject({
      text: z
        .string()
        .refine((text) => text.trim() !== '', 'must not be empty')
        .optional(),
      metadata: MessageMetadata.optional(),
    })
    .refine((data) => byteLength(data) <= LIMITS.messageBytes, `must be at most ${LIMITS.messageBytes} bytes`)
    .optional(),
  tags: Tags.optional(),
});

const DeleteMessage = z.strictObject({ permanent: z.boolean().optional() });

const EpochQuery = z.coerce.number({ error: 'must be a number' }).int('must be an integer').nonnegative();

const ListMessages = z.looseObject({
  limit: PageSize.default(100),
  affix: z.enum(['append', 'prepend'], { error: 'must be append or prepend' }).optional(),
  id: z
    .string()
    .regex(/^\d{1,15}$/, 'must be a message id')
    .transform(Number)
    .optional(),
  sentAt: EpochQuery.optional(),
  receiverType: z.enum(['user', 'group']).optional(),
  category: z.string().optional(),
  type: z.string().optional(),
  sender: z
    .string()
    .transform((uid) => uid.toLowerCase())
    .optional(),
  conversationId: z.string().optional(),
  hideDeleted: QueryBoolean.optional(),
  onlyDeleted: QueryBoolean.optional(),
  fromTimestamp: EpochQuery.optional(),
  toTimestamp: EpochQuery.optional(),
});
type ListMessages = z.output<typeof ListMessages>;

function filterOf(query: ListMessages): MessageFilter {
  return {
    receiverType: query.receiverType,
    category: query.category,
    type: query.type,
    sender: query.sender,
    hideDeleted: query.hideDeleted,
    onlyDeleted: query.onlyDeleted,
    fromTimestamp: query.fromTimestamp,
    toTimestamp: query.toTimestamp,
    conversationIds: query.conversationId === undefined ? undefined : [query.conversationId],
  };
}

/** Without a cursor, `append` reads from the oldest message and `prepend` from the newest. */
const cursorOf = (query: ListMessages): MessageCursor => ({
  affix: query.affix ?? 'append',
  id: query.id,
  sentAt: query.sentAt,
});

/** CometChat's message paging: `meta.current {limit, count}` and `meta.next`, the cursor to read on from. */
function messageMeta(query: ListMessages, rows: MessageRow[]) {
  const cursor = cursorOf(query);
  const edge = cursor.affix === 'append' ? rows.at(-1) : rows[0];
  const next =
    edge === undefined
      ? {
          affix: cursor.affix,
          ...(cursor.sentAt === undefined ? {} : { sentAt: cursor.sentAt }),
          ...(cursor.id === undefined ? {} : { id: String(cursor.id) }),
        }
      : { affix: cursor.affix, sentAt: edge.sent_at, id: String(edge.id) };
  return { current: { limit: query.limit, count: rows.length }, next };
}

/** Messages: send (A1), bot messages (A2), read, edit, delete, per-conversation lists, interactions. */
export function messageRoutes(services: ChatServices): Hono<ChatEnv> {
  const { messageService, messages, users, groups } = services;
  const routes = new Hono<ChatEnv>();

  const send = async (c: ChatContext, senderUid: string) => {
    const request = await jsonBody(c, MessageRequest);
    const result = await messageService.send(c.get('app'), senderUid, request, originOf(c));
    return c.json({ data: 'single' in result ? result.single : result.fanOut });
  };

  routes.post('/messages', (c) => send(c, requiredOnBehalfOf(c)));
  routes.post('/bots/:uid/messages', (c) => send(c, pathId(c, 'uid')));

  routes.get('/messages', async (c) => {
    const app = c.get('app');
    const query = queryOf(c, ListMessages);
    const uid = onBehalfOf(c);
    const filter = filterOf(query);
    if (uid !== undefined) {
      await users.get(app.appId, uid);
      filter.visibleTo = { uid, guids: await groups.guidsOf(app.appId, uid) };
    }
    const rows = await messages.list(app.appId, filter, cursorOf(query), query.limit);
    return c.json({ data: await messageService.present(app, rows), meta: messageMeta(query, rows) });
  });

  routes.get('/messages/:id', async (c) => {
    const app = c.get('app');
    const row = await messageService.getVisible(app, c.req.param('id'), onBehalfOf(c));
    const [message] = await messageService.present(app, [row]);
    return c.json({ data: message });
  });

  routes.put('/messages/:id', async (c) => {
    const body = await jsonBody(c, EditMessage);
    const edit = { text: body.data?.text, metadata: body.data?.metadata, tags: body.tags };
    const action = await messageService.edit(
      c.get('app'),
      c.req.param('id'),
      onBehalfOf(c),
      edit,
      originOf(c),
    );
    return c.json({ data: action });
  });

  routes.delete('/messages/:id', async (c) => {
    const body = await jsonBody(c, DeleteMessage);
    const action = await messageService.delete(
      c.get('app'),
      c.req.param('id'),
      onBehalfOf(c),
      body.permanent === true,
      originOf(c),
    );
    return c.json({ data: action });
  });

  routes.patch('/messages/:id/interacted', async (c) => {
    const uid = requiredOnBehalfOf(c);
    const body = await jsonBody(c, InteractionsRequest);
    // The form's rules (a button acts once, a met goal closes the form) hold here too; the app's own
    // backend reports interactions, so no apiAction runs on its behalf.
    const result = await messageService.interact(
      c.get('app'),
      c.req.param('id'),
      uid,
      { elementIds: body.interactions, formData: body.formData },
      originOf(c),
    );
    return c.json(interactedAnswer(c.req.param('id'), result));
  });

  routes.get('/users/:uid/messages', async (c) => {
    const app = c.get('app');
    const viewer = await users.get(app.appId, requiredOnBehalfOf(c));
    const other = await users.get(app.appId, pathId(c, 'uid'));
    const query = queryOf(c, ListMessages.extend({ perPage: PageSize.optional() }));
    const limit = query.perPage ?? query.limit;
    const filter = {
      ...filterOf(query),
      conversationIds: [conversationIdFor({ receiverType: 'user', sender: viewer.uid, receiver: other.uid })],
    };
    const [rows, total] = await Promise.all([
      messages.list(app.appId, filter, cursorOf(query), limit),
      messages.count(app.appId, filter),
    ]);
    const meta = messageMeta({ ...query, limit }, rows);
    return c.json({
      data: await messageService.present(app, rows),
      meta: {
        ...meta,
        pagination: pagination(total, rows.length, limit, 1),
        cursor: {
          affix: meta.next.affix,
          ...(meta.next.id === undefined ? {} : { id: Number(meta.next.id) }),
        },
      },
    });
  });

  routes.get('/groups/:guid/messages', async (c) => {
    const app = c.get('app');
    const group = await groups.get(app.appId, pathId(c, 'guid'));
    const uid = onBehalfOf(c);
    if (uid !== undefined) {
      await users.get(app.appId, uid);
      if ((await groups.member(app.appId, group.guid, uid)) === undefined) throw notAMember(uid, group.guid);
    }
    const query = queryOf(c, ListMessages);
    const filter = { ...filterOf(query), conversationIds: [`group_${group.guid}`] };
    const rows = await messages.list(app.appId, filter, cursorOf(query), query.limit);
    return c.json({ data: await messageService.present(app, rows), meta: messageMeta(query, rows) });
  });

  return routes;
}
