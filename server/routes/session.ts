import { z } from 'zod';
import { appSettingsFor, clientUser } from '../client-api/app-settings.js';
import { sessionOf } from '../http/actor.js';
import type { ChatContext } from '../http/context.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { jsonBody } from '../http/request.js';
import { DisplayName, LinkUrl, Metadata } from '../validation.js';
import type { RouteDeps } from './deps.js';

/** The SDK sends device details on login; `updateCurrentUserDetails` sends profile fields. */
const MeUpdate = z.looseObject({
  name: DisplayName.optional(),
  avatar: LinkUrl.optional(),
  link: LinkUrl.optional(),
  statusMessage: z.string().max(255, 'must be at most 255 characters').optional(),
  metadata: Metadata.optional(),
});

/**
 * A client's session (the login itself is `POST /users/{uid}/auth_tokens`): `GET /settings`
 * before it, `PUT|GET|DELETE /me` and `POST /user_sessions` within it.
 */
export function sessionRoutes(deps: RouteDeps): ChatRoutes {
  const { services, socketTokens, publicHost } = deps;
  const { users } = services;
  const routes = chatRoutes();
  const settingsOf = async (c: ChatContext) => {
    const { app } = c.get('actor');
    const flagReasons = await services.moderation.reasons(app);
    return appSettingsFor(app, flagReasons, c.req.header('host') ?? 'localhost', publicHost);
  };

  documented(
    routes,
    'get',
    '/settings',
    { summary: "The app's settings for CometChat's SDK (no session needed)" },
    async (c) => c.json({ data: await settingsOf(c) }),
  );

  const me = async (c: ChatContext) => {
    const { appId } = c.get('actor').app;
    const { uid, authToken } = sessionOf(c);
    const user = await users.get(appId, uid);
    return c.json({
      data: {
        ...clientUser(user),
        authToken,
        jwt: await socketTokens.issue(appId, uid, authToken),
        settings: await settingsOf(c),
      },
    });
  };

  documented(routes, 'get', '/me', { summary: "The session's user", only: 'client' }, (c) => me(c));
  documented(
    routes,
    'put',
    '/me',
    { summary: "Update the session's user", only: 'client', body: MeUpdate },
    async (c) => {
      const body = await jsonBody(c, MeUpdate);
      const changes = {
        name: body.name,
        avatar: body.avatar,
        link: body.link,
        statusMessage: body.statusMessage,
        metadata: body.metadata,
      };
      if (Object.values(changes).some((value) => value !== undefined)) {
        await users.update(c.get('actor').app.appId, sessionOf(c).uid, changes);
      }
      return me(c);
    },
  );
  documented(
    routes,
    'delete',
    '/me',
    { summary: 'Log out (end this session)', only: 'client' },
    async (c) => {
      const { uid, authToken } = sessionOf(c);
      await users.endSession(c.get('actor').app.appId, uid, authToken);
      return c.json({ data: { success: true, message: 'Logged out.' } });
    },
  );
  // The SDK's telemetry, five seconds after login: acknowledged, not kept.
  documented(
    routes,
    'post',
    '/user_sessions',
    { summary: "The SDK's telemetry: acknowledged, not kept", only: 'client' },
    (c) => c.json({ data: {} }),
  );

  return routes;
}
