import { Hono } from 'hono';
import { z } from 'zod';
import { InteractionsRequest, MessageRequest, conversationIdFor } from '../../../shared/message.js';
import { interactedAnswer } from '../../forms/submissions.js';
import { badRequest } from '../../errors.js';
import { jsonBody, pathId, queryOf } from '../../http/request.js';
import type { MessageCursor, MessageFilter, MessageRow } from '../../repositories/messages.js';
import { LIMITS, PageSize, Tags, byteLength, pagination } from '../../validation.js';
import type { ClientContext, ClientEnv } from '../context.js';
import type { ClientApiDeps } from '../deps.js';
import { CommaList, Flag } from '../query.js';

/** `MessagesRequest`'s query (protocol §2.5); filters the service does not keep are ignored. */
const HistoryQuery = z.looseObject({
  per_page: PageSize.optional(),
  limit: PageSize.optional(),
  affix: z.enum(['append', 'prepend'], { error: 'must be append or prepend' }).default('prepend'),
  id: z
    .string()
    .regex(/^\d{1,15}$/, 'must be a message id')
    .transform(Number)
    .optional(),
  sentAt: z.coerce.number({ error: 'must be a number' }).int().nonnegative().optional(),
  categories: CommaList.optional(),
  types: CommaList.optional(),
  hideDeleted: Flag.optional(),
});
type HistoryQuery = z.output<typeof HistoryQuery>;

/** The SDK's edit sends the whole message object; only text, metadata and tags change. */
const EditRequest = z.looseObject({
  text: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  tags: Tags.optional(),
  data: z
    .looseObject({ text: z.string().optional(), metadata: z.record(z.string(), z.unknown()).optional() })
    .optional(),
});

/**
 * A page of history, oldest first, with `meta.cursor` at the page's far edge: without a cursor
 * the SDK never asks for the next page (pitfall 1), without `pagination` its promise hangs.
 */
function historyPage(query: HistoryQuery, rows: MessageRow[], total: number, limit: number) {
  const edge = query.affix === 'prepend' ? rows[0] : rows.at(-1);
  const cursor =
    edge === undefined
      ? {
          affix: query.affix,
          ...(query.id === undefined ? {} : { id: String(query.id) }),
          ...(query.sentAt === undefined ? {} : { sentAt: query.sentAt }),
        }
      : { affix: query.affix, id: String(edge.id), sentAt: edge.sent_at };
  return { cursor, pagination: pagination(total, rows.length, limit, 1) };
}

/** Messages: send, read (history per conversation), edit, delete, interactions. */
export function messageRoutes(deps: ClientApiDeps): Hono<ClientEnv> {
  const { services, forms } = deps;
  const { messageService, messages, users, groups, groupService } = services;
  const routes = new Hono<ClientEnv>();

  routes.post('/messages', async (c) => {
    const request = await jsonBody(c, MessageRequest);
    const result = await messageService.send(c.get('app'), c.get('session').uid, request, c.get('origin'));
    return c.json({ data: 'single' in result ? result.single : result.fanOut });
  });

  const history = async (c: ClientContext, filter: MessageFilter) => {
    const app = c.get('app');
    const query = queryOf(c, HistoryQuery);
    const limit = query.per_page ?? query.limit ?? 30;
    const cursor: MessageCursor = { affix: query.affix, id: query.id, sentAt: query.sentAt };
    const scoped: MessageFilter = {
      ...filter,
      categories: query.categories,
      types: query.types,
      hideDeleted: query.hideDeleted,
    };
    const [rows, total] = await Promise.all([
      messages.list(app.appId, scoped, cursor, limit),
      messages.count(app.appId, scoped),
    ]);
    return c.json({
      data: await messageService.present(app, rows),
      meta: historyPage(query, rows, total, limit),
    });
  };

  routes.get('/users/:uid/messages', async (c) => {
    const { uid } = c.get('session');
    const other = await users.get(c.get('app').appId, pathId(c, 'uid'));
    return history(c, {
      conversationIds: [conversationIdFor({ receiverType: 'user', sender: uid, receiver: other.uid })],
    });
  });

  routes.get('/groups/:guid/messages', async (c) => {
    const group = await groupService.ofMember(c.get('app').appId, pathId(c, 'guid'), c.get('session').uid);
    return history(c, { conversationIds: [`group_${group.guid}`] });
  });

  routes.get('/messages', async (c) => {
    const { uid } = c.get('session');
    return history(c, { visibleTo: { uid, guids: await groups.guidsOf(c.get('app').appId, uid) } });
  });

  routes.get('/messages/:id', async (c) => {
    const app = c.get('app');
    const row = await messageService.getVisible(app, c.req.param('id'), c.get('session').uid);
    const [message] = await messageService.present(app, [row]);
    return c.json({ data: message });
  });

  routes.put('/messages/:id', async (c) => {
    const body = await jsonBody(c, EditRequest);
    const text = body.data?.text ?? body.text;
    const metadata = body.data?.metadata ?? body.metadata;
    if (byteLength({ text, metadata }) > LIMITS.messageBytes) {
      throw badRequest('data', `must be at most ${LIMITS.messageBytes} bytes`);
    }
    const action = await messageService.edit(
      c.get('app'),
      c.req.param('id'),
      c.get('session').uid,
      { text, metadata, tags: body.tags },
      c.get('origin'),
    );
    return c.json({ data: action });
  });

  routes.delete('/messages/:id', async (c) => {
    const action = await messageService.delete(
      c.get('app'),
      c.req.param('id'),
      c.get('session').uid,
      false,
      c.get('origin'),
    );
    return c.json({ data: action });
  });

  routes.patch('/messages/:id/interacted', async (c) => {
    const body = await jsonBody(c, InteractionsRequest);
    const outcome = await forms.submit(
      c.get('app'),
      c.req.param('id'),
      c.get('session').uid,
      body.interactions,
      body.formData,
      c.get('origin'),
    );
    return c.json(interactedAnswer(c.req.param('id'), outcome));
  });

  return routes;
}
