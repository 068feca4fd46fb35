import { Hono } from 'hono';
import { z } from 'zod';
import {
  NotificationSettingsPatch,
  UserNotificationPreferencesPatch,
} from '../../shared/notification-settings.js';
import { only } from '../http/actor.js';
import type { ChatContext, ChatEnv } from '../http/context.js';
import { jsonBody, queryOf } from '../http/request.js';
import type { ChatServices } from '../services/registry.js';
import { EntityId } from '../validation.js';

const PreferencesQuery = z.looseObject({ uid: EntityId });

/** App notification settings (A3-A5) and one user's preferences, under `/notifications/v1`. */
export function notificationRoutes(services: ChatServices): Hono<ChatEnv> {
  const { notifications, users } = services;
  const routes = new Hono<ChatEnv>();
  routes.use('/notifications/v1/*', only('server'));

  routes.get('/notifications/v1/settings', async (c) =>
    c.json({ data: await notifications.settings(c.get('actor').app.appId) }),
  );

  routes.patch('/notifications/v1/settings', async (c) => {
    const patch = await jsonBody(c, NotificationSettingsPatch);
    await notifications.updateSettings(c.get('actor').app.appId, patch);
    return c.json({ data: { success: true } });
  });

  routes.delete('/notifications/v1/settings', async (c) => {
    await notifications.resetSettings(c.get('actor').app.appId);
    return c.json({ data: { success: true } });
  });

  const userOf = async (c: ChatContext): Promise<string> => {
    const { uid } = queryOf(c, PreferencesQuery);
    return (await users.get(c.get('actor').app.appId, uid)).uid;
  };

  routes.get('/notifications/v1/preferences', async (c) => {
    const uid = await userOf(c);
    return c.json({ data: await notifications.preferences(c.get('actor').app.appId, uid) });
  });

  routes.patch('/notifications/v1/preferences', async (c) => {
    const uid = await userOf(c);
    const patch = await jsonBody(c, UserNotificationPreferencesPatch);
    return c.json({ data: await notifications.updatePreferences(c.get('actor').app.appId, uid, patch) });
  });

  routes.delete('/notifications/v1/preferences', async (c) => {
    const uid = await userOf(c);
    await notifications.resetPreferences(c.get('actor').app.appId, uid);
    return c.json({ data: await notifications.preferences(c.get('actor').app.appId, uid) });
  });

  return routes;
}
