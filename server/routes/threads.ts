import { z } from 'zod';
import { conversationIdFor } from '../../shared/message.js';
import { sessionOf } from '../http/actor.js';
import type { ChatContext } from '../http/context.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { pathId, queryOf } from '../http/request.js';
import type { MessageFilter } from '../repositories/messages.js';
import { QueryBoolean } from '../validation.js';
import type { RouteDeps } from './deps.js';
import { readableGroup } from './policies.js';

/** The SDK's `ThreadsRequest`: `participatedByMe` (always sent), `limit` (1-1000), and the cursor it derives. */
const ThreadsQuery = z.looseObject({
  participatedByMe: QueryBoolean.optional(),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be 1 to 1000')
    .max(1000, 'must be 1 to 1000')
    .optional(),
  affix: z.literal('prepend', { error: 'must be prepend' }).optional(),
  updatedAt: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .nonnegative()
    .optional(),
  id: z
    .string()
    .regex(/^\d{1,15}$/, 'must be a message id')
    .transform(Number)
    .optional(),
});

/**
 * Threads for the SDK (client API only, as CometChat's catalogue has them): follow and unfollow a
 * thread, and list the threads of the user's conversations, of one group or of one one-to-one
 * conversation, the latest reply first; by default only those the user follows.
 */
export function threadRoutes(deps: RouteDeps): ChatRoutes {
  const { services } = deps;
  const routes = chatRoutes();

  for (const subscribed of [true, false]) {
    documented(
      routes,
      subscribed ? 'post' : 'delete',
      '/messages/:id/thread/subscription',
      {
        summary: subscribed ? 'Follow the thread under a message' : 'Unfollow the thread under a message',
        only: 'client',
      },
      async (c) => {
        const { app } = c.get('actor');
        const id = c.req.param('id');
        await services.threads.follow(app, id, sessionOf(c).uid, subscribed);
        return c.json({
          data: {
            success: true,
            message: `The thread of message ${id} is ${subscribed ? 'followed' : 'unfollowed'}.`,
          },
        });
      },
    );
  }

  const list = async (c: ChatContext, filter: MessageFilter) => {
    const { app } = c.get('actor');
    const query = queryOf(c, ThreadsQuery);
    const threads = await services.threads.list(
      app,
      sessionOf(c).uid,
      filter,
      query.participatedByMe ?? true,
      { updatedAt: query.updatedAt, id: query.id },
      query.limit ?? 30,
    );
    return c.json({ data: threads });
  };

  documented(
    routes,
    'get',
    '/threads',
    { summary: "The threads of the session user's conversations", query: ThreadsQuery, only: 'client' },
    async (c) => {
      const { app } = c.get('actor');
      const { uid } = sessionOf(c);
      return list(c, await services.history.visibleTo(app.appId, uid));
    },
  );
  documented(
    routes,
    'get',
    '/groups/:guid/threads',
    { summary: 'The threads of a group the session user belongs to', query: ThreadsQuery, only: 'client' },
    async (c) => {
      const group = await readableGroup(c, services, pathId(c, 'guid'));
      return list(c, { conversationIds: [`group_${group.guid}`] });
    },
  );
  documented(
    routes,
    'get',
    '/users/:uid/threads',
    { summary: 'The threads of a one-to-one conversation', query: ThreadsQuery, only: 'client' },
    async (c) => {
      const { app } = c.get('actor');
      const other = await services.users.get(app.appId, pathId(c, 'uid'));
      const conversationId = conversationIdFor({
        receiverType: 'user',
        sender: sessionOf(c).uid,
        receiver: other.uid,
      });
      return list(c, { conversationIds: [conversationId] });
    },
  );
  return routes;
}
