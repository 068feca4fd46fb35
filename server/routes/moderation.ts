import { z } from 'zod';
import {
  CreateFlagReasonRequest,
  FlagMessageRequest,
  FlagReason,
  ReviewFlaggedMessageRequest,
  UpdateFlagReasonRequest,
} from '../../shared/moderation.js';
import { actingUid } from '../http/actor.js';
import type { ChatContext } from '../http/context.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { jsonBody } from '../http/request.js';
import type { RouteDeps } from './deps.js';
import { PageQuery, pageAnswer } from './policies.js';

/**
 * Flagging messages for moderation review: the app's flag reasons (`/moderation/reasons`: the
 * defaults and the app's own, which it adds, changes and deletes; the SDK reads them from the app
 * settings), `POST /messages/{id}/flagged` on both APIs (as the session's
 * user, or the server's `onBehalfOf`), and the flagged messages with their reasons and remarks.
 */
export function moderationRoutes(deps: RouteDeps): ChatRoutes {
  const { moderation } = deps.services;
  const routes = chatRoutes();

  const oneReason = z.object({ data: FlagReason });

  documented(
    routes,
    'get',
    '/moderation/reasons',
    {
      summary: 'List the flag reasons: the defaults, then the app’s own',
      only: 'server',
      response: z.object({ data: z.array(FlagReason) }),
    },
    async (c) => c.json({ data: await moderation.reasons(c.get('actor').app) }),
  );

  documented(
    routes,
    'post',
    '/moderation/reasons',
    {
      summary: 'Add a flag reason of the app’s own',
      only: 'server',
      body: CreateFlagReasonRequest,
      response: oneReason,
    },
    async (c) => {
      const body = await jsonBody(c, CreateFlagReasonRequest);
      return c.json({ data: await moderation.createReason(c.get('actor').app, body) });
    },
  );

  documented(
    routes,
    'get',
    '/moderation/reasons/:id',
    { summary: 'Read one flag reason', only: 'server', response: oneReason },
    async (c) => c.json({ data: await moderation.reason(c.get('actor').app, c.req.param('id')) }),
  );

  documented(
    routes,
    'put',
    '/moderation/reasons/:id',
    {
      summary: 'Rename or re-describe a flag reason of the app’s own',
      only: 'server',
      body: UpdateFlagReasonRequest,
      response: oneReason,
    },
    async (c) => {
      const body = await jsonBody(c, UpdateFlagReasonRequest);
      return c.json({ data: await moderation.updateReason(c.get('actor').app, c.req.param('id'), body) });
    },
  );

  documented(
    routes,
    'delete',
    '/moderation/reasons/:id',
    { summary: 'Delete a flag reason of the app’s own', only: 'server' },
    async (c) => {
      const id = c.req.param('id');
      await moderation.deleteReason(c.get('actor').app, id);
      return c.json({
        data: { success: true, message: `The reason with id ${id} has been deleted successfully.` },
      });
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

  const flaggedPage = (c: ChatContext, reviewed: boolean) =>
    pageAnswer(c, (page, perPage) => moderation.listFlagged(c.get('actor').app, page, perPage, reviewed));

  documented(
    routes,
    'get',
    '/moderation/flagged-messages',
    {
      summary: 'List flagged messages waiting for a review, with each flag’s reason and remark',
      only: 'server',
      query: PageQuery,
    },
    async (c) => c.json(await flaggedPage(c, false)),
  );

  documented(
    routes,
    'patch',
    '/moderation/flagged-messages/:id',
    {
      summary: 'Review a flagged message: approve it, or disapprove (delete) it',
      only: 'server',
      body: ReviewFlaggedMessageRequest,
    },
    async (c) => {
      const { status } = await jsonBody(c, ReviewFlaggedMessageRequest);
      const id = c.req.param('id');
      await moderation.review(c.get('actor').app, id, status);
      return c.json({ data: { success: true, message: `The message ${id} has been ${status}.` } });
    },
  );

  documented(
    routes,
    'get',
    '/moderation/reviewed-messages',
    { summary: 'List reviewed messages with their flags and review', only: 'server', query: PageQuery },
    async (c) => c.json(await flaggedPage(c, true)),
  );

  return routes;
}
