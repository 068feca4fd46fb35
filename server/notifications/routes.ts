import { badRequest } from '../errors.js';
import type { ChatContext } from '../http/context.js';
import { jsonBody, queryOf } from '../http/request.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import type { ChatServices } from '../services/registry.js';
import {
  LogsQuery,
  MuteRequest,
  TimeZoneRequest,
  UidQuery,
  UnmuteRequest,
  WebhookChannel,
  WebhookRequest,
} from './contracts.js';
import { notificationDataOf } from './data.js';
import type { WebhookView } from './webhooks.js';

/**
 * Notification delivery under `/notifications/v1`: the app's webhooks per channel, the decision
 * logs, and the per-user state decisions read (muted conversations, time zone).
 */

const asSeconds = (webhook: WebhookView) => ({ ...webhook, updatedAt: Math.floor(webhook.updatedAt / 1000) });

export function notificationDeliveryRoutes(services: ChatServices): ChatRoutes {
  const { webhooks, logs, userState } = notificationDataOf(services);
  const routes = chatRoutes();
  const appOf = (c: ChatContext): string => c.get('actor').app.appId;

  documented(
    routes,
    'get',
    '/notifications/v1/webhooks',
    { summary: "The app's notification webhooks", only: 'server' },
    async (c) => c.json({ data: (await webhooks.list(appOf(c))).map(asSeconds) }),
  );

  documented(
    routes,
    'put',
    '/notifications/v1/webhooks/:channel',
    { summary: "Set a channel's webhook (push, email or sms)", only: 'server', body: WebhookRequest },
    async (c) => {
      const channel = WebhookChannel.safeParse(c.req.param('channel'));
      if (!channel.success) throw badRequest('channel', 'must be push, email or sms');
      const change = await jsonBody(c, WebhookRequest);
      const saved = await webhooks.put(appOf(c), channel.data, change, Date.now());
      if (saved === undefined)
        throw badRequest('secret', `required: the ${channel.data} channel has no webhook yet`);
      return c.json({ data: asSeconds(saved) });
    },
  );

  documented(
    routes,
    'get',
    '/notifications/v1/logs',
    { summary: 'Notification decision logs', only: 'server', query: LogsQuery },
    async (c) => {
      const query = queryOf(c, LogsQuery);
      const entries = await logs.list(appOf(c), {
        uid: query.uid,
        messageId: query.messageId,
        channel: query.channel,
        before: query.logId === undefined ? undefined : Number(query.logId),
        limit: query.limit,
      });
      const last = entries[entries.length - 1];
      const next =
        entries.length === query.limit && last !== undefined
          ? { affix: 'prepend', logId: last.id }
          : undefined;
      return c.json({
        data: entries,
        meta: {
          current: { limit: query.limit, count: entries.length },
          ...(next === undefined ? {} : { next }),
        },
      });
    },
  );

  const userOf = async (c: ChatContext): Promise<string> => {
    const { uid } = queryOf(c, UidQuery);
    return (await services.users.get(appOf(c), uid)).uid;
  };

  documented(
    routes,
    'get',
    '/notifications/v1/preferences/mute',
    { summary: "A user's muted conversations", only: 'server', query: UidQuery },
    async (c) => {
      const uid = await userOf(c);
      return c.json({
        data: { mutedConversations: await userState.mutedConversations(appOf(c), uid, Date.now()) },
      });
    },
  );

  documented(
    routes,
    'put',
    '/notifications/v1/preferences/mute',
    { summary: 'Mute conversations for a user', only: 'server', body: MuteRequest, query: UidQuery },
    async (c) => {
      const uid = await userOf(c);
      const { conversations } = await jsonBody(c, MuteRequest);
      await userState.mute(appOf(c), uid, conversations);
      return c.json({ data: { success: true } });
    },
  );

  documented(
    routes,
    'delete',
    '/notifications/v1/preferences/mute',
    { summary: 'Unmute conversations for a user', only: 'server', body: UnmuteRequest, query: UidQuery },
    async (c) => {
      const uid = await userOf(c);
      const { conversations } = await jsonBody(c, UnmuteRequest);
      await userState.unmute(appOf(c), uid, conversations);
      return c.json({ data: { success: true } });
    },
  );

  documented(
    routes,
    'get',
    '/notifications/v1/preferences/timezone',
    { summary: "A user's time zone", only: 'server', query: UidQuery },
    async (c) => {
      const uid = await userOf(c);
      return c.json({ data: { timezone: await userState.timeZone(appOf(c), uid) } });
    },
  );

  documented(
    routes,
    'patch',
    '/notifications/v1/preferences/timezone',
    { summary: "Set a user's time zone", only: 'server', body: TimeZoneRequest, query: UidQuery },
    async (c) => {
      const uid = await userOf(c);
      const { timezone } = await jsonBody(c, TimeZoneRequest);
      const canonical = new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
      await userState.setTimeZone(appOf(c), uid, canonical, Date.now());
      return c.json({ data: { timezone: canonical } });
    },
  );

  return routes;
}
