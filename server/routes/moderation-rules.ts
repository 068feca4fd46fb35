import { z } from 'zod';
import {
  CreateKeywordListRequest,
  CreateModerationRuleRequest,
  KeywordList,
  ModerationRule,
  ReviewBlockedMessageRequest,
  UpdateKeywordListRequest,
  UpdateModerationRuleRequest,
} from '../../shared/moderation-rules.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { jsonBody } from '../http/request.js';
import type { RouteDeps } from './deps.js';
import { PageQuery, pageAnswer } from './policies.js';

const deleted = (what: string, id: string) => ({
  data: { success: true, message: `${what} with id ${id} has been deleted successfully.` },
});

/**
 * Moderation rules that act on messages as they are sent (`/moderation/rules`, with every revision
 * kept), the keyword lists their conditions may name (`/moderation/keywords`), and the messages
 * they held back (`/moderation/blocked-messages`), which a moderator approves (sends) or rejects.
 * The server API's only: the app's moderators act through it, never its users.
 */
export function moderationRuleRoutes(deps: RouteDeps): ChatRoutes {
  const { moderationRules } = deps.services;
  const routes = chatRoutes();
  const oneRule = z.object({ data: ModerationRule });
  const oneList = z.object({ data: KeywordList });

  documented(
    routes,
    'get',
    '/moderation/rules',
    {
      summary: 'List the moderation rules, newest first',
      only: 'server',
      response: z.object({ data: z.array(ModerationRule) }),
    },
    async (c) => c.json({ data: await moderationRules.rules(c.get('actor').app) }),
  );

  documented(
    routes,
    'post',
    '/moderation/rules',
    {
      summary: 'Add a moderation rule: conditions on what a message says, and the action taken',
      only: 'server',
      body: CreateModerationRuleRequest,
      response: oneRule,
    },
    async (c) => {
      const body = await jsonBody(c, CreateModerationRuleRequest);
      return c.json({ data: await moderationRules.createRule(c.get('actor').app, body) });
    },
  );

  documented(
    routes,
    'get',
    '/moderation/rules/:id',
    { summary: 'Read one moderation rule', only: 'server', response: oneRule },
    async (c) => c.json({ data: await moderationRules.rule(c.get('actor').app, c.req.param('id')) }),
  );

  documented(
    routes,
    'put',
    '/moderation/rules/:id',
    {
      summary: 'Change a moderation rule (a new revision)',
      only: 'server',
      body: UpdateModerationRuleRequest,
      response: oneRule,
    },
    async (c) => {
      const body = await jsonBody(c, UpdateModerationRuleRequest);
      return c.json({ data: await moderationRules.updateRule(c.get('actor').app, c.req.param('id'), body) });
    },
  );

  documented(
    routes,
    'delete',
    '/moderation/rules/:id',
    { summary: 'Remove a moderation rule and its revisions', only: 'server' },
    async (c) => {
      const id = c.req.param('id');
      await moderationRules.deleteRule(c.get('actor').app, id);
      return c.json(deleted('Rule', id));
    },
  );

  documented(
    routes,
    'get',
    '/moderation/rules/:id/revisions',
    {
      summary: 'List a moderation rule’s revisions, newest first',
      only: 'server',
      response: z.object({ data: z.array(ModerationRule) }),
    },
    async (c) => c.json({ data: await moderationRules.revisions(c.get('actor').app, c.req.param('id')) }),
  );

  documented(
    routes,
    'get',
    '/moderation/keywords',
    {
      summary: 'List the keyword lists, newest first',
      only: 'server',
      response: z.object({ data: z.array(KeywordList) }),
    },
    async (c) => c.json({ data: await moderationRules.keywordLists(c.get('actor').app) }),
  );

  documented(
    routes,
    'post',
    '/moderation/keywords',
    { summary: 'Add a keyword list', only: 'server', body: CreateKeywordListRequest, response: oneList },
    async (c) => {
      const body = await jsonBody(c, CreateKeywordListRequest);
      return c.json({ data: await moderationRules.createKeywordList(c.get('actor').app, body) });
    },
  );

  documented(
    routes,
    'get',
    '/moderation/keywords/:id',
    { summary: 'Read one keyword list', only: 'server', response: oneList },
    async (c) => c.json({ data: await moderationRules.keywordList(c.get('actor').app, c.req.param('id')) }),
  );

  documented(
    routes,
    'put',
    '/moderation/keywords/:id',
    { summary: 'Change a keyword list', only: 'server', body: UpdateKeywordListRequest, response: oneList },
    async (c) => {
      const body = await jsonBody(c, UpdateKeywordListRequest);
      return c.json({
        data: await moderationRules.updateKeywordList(c.get('actor').app, c.req.param('id'), body),
      });
    },
  );

  documented(
    routes,
    'delete',
    '/moderation/keywords/:id',
    { summary: 'Remove a keyword list no rule names', only: 'server' },
    async (c) => {
      const id = c.req.param('id');
      await moderationRules.deleteKeywordList(c.get('actor').app, id);
      return c.json(deleted('Keyword', id));
    },
  );

  documented(
    routes,
    'get',
    '/moderation/blocked-messages',
    {
      summary: 'List the messages the rules held back, newest first, with the rule and condition',
      only: 'server',
      query: PageQuery,
    },
    async (c) =>
      c.json(
        await pageAnswer(c, (page, perPage) =>
          moderationRules.blockedMessages(c.get('actor').app, page, perPage),
        ),
      ),
  );

  documented(
    routes,
    'patch',
    '/moderation/blocked-messages/:id',
    {
      summary: 'Review a blocked message: approve (send) it, or reject (keep it back)',
      only: 'server',
      body: ReviewBlockedMessageRequest,
    },
    async (c) => {
      const body = await jsonBody(c, ReviewBlockedMessageRequest);
      const id = c.req.param('id');
      await moderationRules.reviewBlocked(c.get('actor').app, id, body);
      return c.json({ data: { success: true, message: `Message with ID ${id} has been ${body.status}.` } });
    },
  );

  return routes;
}
