import { z } from 'zod';
import { ReactionText } from '../../shared/message.js';
import { badRequest } from '../errors.js';
import { actingUid } from '../http/actor.js';
import type { ChatContext } from '../http/context.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { queryOf } from '../http/request.js';
import type { ReactionCursor } from '../repositories/reactions.js';
import type { Reaction } from '../../shared/message.js';
import type { RouteDeps } from './deps.js';

/** A page of reactions: the SDK's `ReactionsRequest` sends `limit` (at most 100 here) and a cursor. */
const ReactionListQuery = z.looseObject({
  limit: z.coerce.number({ error: 'must be a number' }).int('must be an integer').min(1).max(100).optional(),
  perPage: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(1)
    .max(100)
    .optional(),
  affix: z.enum(['append', 'prepend'], { error: 'must be append or prepend' }).optional(),
  id: z
    .string()
    .regex(/^\d{1,15}$/, 'must be a reaction id')
    .transform(Number)
    .optional(),
});

/** The reaction named in the path (the SDK percent-encodes it; Hono decodes it). */
function reactionOf(c: ChatContext): string {
  const parsed = ReactionText.safeParse(c.req.param('reaction'));
  if (!parsed.success) throw badRequest('reaction', parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data;
}

/** Where the next and previous pages start: the SDK sends `meta.next` / `meta.previous` back as the query. */
function pageMeta(cursor: ReactionCursor, limit: number, page: Reaction[]) {
  const first = page[0];
  const last = page.at(-1);
  const held = cursor.id === undefined ? {} : { id: String(cursor.id) };
  return {
    current: { limit, count: page.length },
    next: { affix: 'append', ...(last === undefined ? held : { id: last.id }) },
    ...(first === undefined ? {} : { previous: { affix: 'prepend', id: first.id } }),
  };
}

/**
 * Reactions of both APIs: add and remove (as the acting user), list all of a message's reactions or
 * those with one reaction. Only those who can see the message reach any of it.
 */
export function reactionRoutes(deps: RouteDeps): ChatRoutes {
  const { reactions } = deps.services;
  const routes = chatRoutes();

  const list = async (c: ChatContext, reaction: string | undefined) => {
    const { app, uid } = c.get('actor');
    const query = queryOf(c, ReactionListQuery);
    const limit = query.perPage ?? query.limit ?? 100;
    const cursor: ReactionCursor = { affix: query.affix ?? 'append', id: query.id };
    const page = await reactions.list(app, c.req.param('id') ?? '', uid, reaction, cursor, limit);
    return c.json({ data: page, meta: pageMeta(cursor, limit, page) });
  };

  documented(
    routes,
    'get',
    '/messages/:id/reactions',
    { summary: 'List the reactions to a message, with who reacted', query: ReactionListQuery },
    (c) => list(c, undefined),
  );
  documented(
    routes,
    'get',
    '/messages/:id/reactions/:reaction',
    { summary: 'List who reacted to a message with one reaction', query: ReactionListQuery },
    (c) => list(c, reactionOf(c)),
  );
  documented(
    routes,
    'post',
    '/messages/:id/reactions/:reaction',
    { summary: 'React to a message as the acting user' },
    async (c) => {
      const { app, origin } = c.get('actor');
      const message = await reactions.add(app, c.req.param('id'), actingUid(c), reactionOf(c), origin);
      return c.json({ data: message });
    },
  );
  documented(
    routes,
    'delete',
    '/messages/:id/reactions/:reaction',
    { summary: "Remove the acting user's reaction to a message" },
    async (c) => {
      const { app, origin } = c.get('actor');
      const message = await reactions.remove(app, c.req.param('id'), actingUid(c), reactionOf(c), origin);
      return c.json({ data: message });
    },
  );
  return routes;
}
