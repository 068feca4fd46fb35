import { z } from 'zod';
import { FlagMessageRequest, FlagReason } from '../../shared/moderation.js';
import { actingUid } from '../http/actor.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { jsonBody, queryOf } from '../http/request.js';
import { flagReasonsFor, reasonNotFound } from '../services/moderation.js';
import { pagination } from '../validation.js';
import type { RouteDeps } from './deps.js';
import { PageQuery, perPageOf } from './policies.js';

/**
 * Flagging messages for moderation review: the app's flag reasons (`/moderation/reasons`; the SDK
 * reads them from the app settings), `POST /messages/{id}/flagged` on both APIs (as the session's
 * user, or the server's `onBehalfOf`), and the flagged messages with their reasons and remarks.
 */
export function moderationRoutes(deps: RouteDeps): ChatRoutes {
  const { moderation } = deps.services;
  const routes = chatRoutes();

  documented(
    routes,
    'get',
    '/moderation/reasons',
    { summary: 'List the flag reasons', only: 'server', response: z.object({ data: z.array(FlagReason) }) },
    (c) => c.json({ data: flagReasonsFor(c.get('actor').app) }),
  );

  documented(
    routes,
    'get',
    '/moderation/reasons/:id',
    { summary: 'Read one flag reason', only: 'server', response: z.object({ data: FlagReason }) },
    (c) => {
      const id = c.req.param('id');
      const reason = flagReasonsFor(c.get('actor').app).find((candidate) => candidate.id === id);
      if (reason === undefined) throw reasonNotFound(id);
      return c.json({ data: reason });
    },
  );

  documented(
    routes,
    'post',
    '/messages/:id/flagged',
    { summary: 'Flag a message for moderation review', body: FlagMessageRequest },
    async (c) => {
      const { app } = c.get('actor');
      const uid = actingUid(c);
      const body = await jsonBody(c, FlagMessageRequest);
      const id = c.req.param('id');
      await moderation.flag(app, id, uid, body.reasonId ?? body.id ?? '', body.remark);
      return c.json({ data: { success: true, message: `The message ${id} has been flagged.` } });
    },
  );

  documented(
    routes,
    'get',
    '/moderation/flagged-messages',
    {
      summary: 'List flagged messages with each flag’s reason and remark',
      only: 'server',
      query: PageQuery,
    },
    async (c) => {
      const actor = c.get('actor');
      const query = queryOf(c, PageQuery);
      const perPage = perPageOf(actor, query);
      const { flagged, total } = await moderation.listFlagged(actor.app, query.page, perPage);
      return c.json({
        data: flagged,
        meta: { pagination: pagination(total, flagged.length, perPage, query.page) },
      });
    },
  );

  return routes;
}
