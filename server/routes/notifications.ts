import { z } from 'zod';
import {
  NotificationSettingsPatch,
  UserNotificationPreferencesPatch,
} from '../../shared/notification-settings.js';
import type { ChatContext } from '../http/context.js';
import { jsonBody, queryOf } from '../http/request.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import type { RouteDeps } from './deps.js';
import { EntityId } from '../validation.js';

const PreferencesQuery = z.looseObject({ uid: EntityId });

/** App notification settings (A3-A5) and one user's preferences, under `/notifications/v1`. */
export function notificationRoutes(deps: RouteDeps): ChatRoutes {
  const { notificationSettings: notifications } = deps.services;
  const routes = chatRoutes();

  documented(
    routes,
    'get',
    '/notifications/v1/settings',
    { summary: "The app's notification settings", only: 'server' },
    async (c) => c.json({ data: await notifications.settings(c.get('actor').app.appId) }),
  );

  documented(
    routes,
    'patch',
    '/notifications/v1/settings',
    { summary: "Change the app's notification settings", only: 'server', body: NotificationSettingsPatch },
    async (c) => {
      const patch = await jsonBody(c, NotificationSettingsPatch);
      await notifications.updateSettings(c.get('actor').app.appId, patch);
      return c.json({ data: { success: true } });
    },
  );

  documented(
    routes,
    'delete',
    '/notifications/v1/settings',
    { summary: "Reset the app's notification settings", only: 'server' },
    async (c) => {
      await notifications.resetSettings(c.get('actor').app.appId);
      return c.json({ data: { success: true } });
    },
  );

  const userOf = (c: ChatContext): string => queryOf(c, PreferencesQuery).uid;

  documented(
    routes,
    'get',
    '/notifications/v1/preferences',
    { summary: "A user's notification preferences", only: 'server', query: PreferencesQuery },
    async (c) => {
      const uid = userOf(c);
      return c.json({ data: await notifications.preferences(c.get('actor').app.appId, uid) });
    },
  );

  documented(
    routes,
    'patch',
    '/notifications/v1/preferences',
    {
      summary: "Change a user's notification preferences",
      only: 'server',
      body: UserNotificationPreferencesPatch,
      query: PreferencesQuery,
    },
    async (c) => {
      const uid = userOf(c);
      const patch = await jsonBody(c, UserNotificationPreferencesPatch);
      return c.json({ data: await notifications.updatePreferences(c.get('actor').app.appId, uid, patch) });
    },
  );

  documented(
    routes,
    'delete',
    '/notifications/v1/preferences',
    { summary: "Reset a user's notification preferences", only: 'server', query: PreferencesQuery },
    async (c) => {
      const uid = userOf(c);
      return c.json({ data: await notifications.resetPreferences(c.get('actor').app.appId, uid) });
    },
  );

  return routes;
}
