import { Hono } from 'hono';
import { badRequest } from '../errors.js';
import { only } from '../http/actor.js';
import type { ChatContext, ChatEnv } from '../http/context.js';
import { jsonBody, queryOf } from '../http/request.js';
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

export function notificationDeliveryRoutes(services: ChatServices): Hono<ChatEnv> {
  const { webhooks, logs, userState } = notificationDataOf(services);
  const routes = new Hono<ChatEnv>();
  routes.use('/notifications/v1/*', only('server'));
  const appOf = (c: ChatContext): string => c.get('actor').app.appId;

  routes.get('/notifications/v1/webhooks', async (c) =>
    c.json({ data: (await webhooks.list(appOf(c))).map(asSeconds) }),
  );

  routes.put('/notifications/v1/webhooks/:channel', async (c) => {
    const channel = WebhookChannel.safeParse(c.req.param('channel'));
    if (!channel.success) throw badRequest('channel', 'must be push, email or sms');
    const change = await jsonBody(c, WebhookRequest);
    const saved = await webhooks.put(appOf(c), channel.data, change, Date.now());
    if (saved === undefined)
      throw badRequest('secret', `required: the ${channel.data} channel has no webhook yet`);
    return c.json({ data: asSeconds(saved) });
  });

  routes.get('/notifications/v1/logs', async (c) => {
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
      entries.length === query.limit && last !== undefined ? { affix: 'prepend', logId: last.id } : undefined;
    return c.json({
      data: entries,
      meta: {
        current: { limit: query.limit, count: entries.length },
        ...(next === undefined ? {} : { next }),
      },
    });
  });

  const userOf = async (c: ChatContext): Promise<string> => {
    const { uid } = queryOf(c, UidQuery);
    return (await services.users.get(appOf(c), uid)).uid;
  };

  routes.get('/notifications/v1/preferences/mute', async (c) => {
    const uid = await userOf(c);
    return c.json({
      data: { mutedConversations: await userState.mutedConversations(appOf(c), uid, Date.now()) },
    });
  });

  routes.put('/notifications/v1/preferences/mute', async (c) => {
    const uid = await userOf(c);
    const { conversations } = await jsonBody(c, MuteRequest);
    await userState.mute(appOf(c), uid, conversations);
    return c.json({ data: { success: true } });
  });

  routes.delete('/notifications/v1/preferences/mute', async (c) => {
    const uid = await userOf(c);
    const { conversations } = await jsonBody(c, UnmuteRequest);
    await userState.unmute(appOf(c), uid, conversations);
    return c.json({ data: { success: true } });
  });

  routes.get('/notifications/v1/preferences/timezone', async (c) => {
    const uid = await userOf(c);
    return c.json({ data: { timezone: await userState.timeZone(appOf(c), uid) } });
  });

  routes.patch('/notifications/v1/preferences/timezone', async (c) => {
    const uid = await userOf(c);
    const { timezone } = await jsonBody(c, TimeZoneRequest);
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
    await userState.setTimeZone(appOf(c), uid, canonical, Date.now());
    return c.json({ data: { timezone: canonical } });
  });

  return routes;
}
