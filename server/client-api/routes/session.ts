import { Hono } from 'hono';
import { z } from 'zod';
import { ChatError } from '../../errors.js';
import { jsonBody, pathId } from '../../http/request.js';
import { resolveApp } from '../../http/tenancy.js';
import { DisplayName, LinkUrl, Metadata } from '../../validation.js';
import { appSettingsFor, clientUser } from '../app-settings.js';
import type { ClientContext, ClientEnv } from '../context.js';
import type { ClientApiDeps } from '../deps.js';

/** Sessions (auth tokens from logins) a user keeps; a login beyond this ends the oldest. */
export const MAX_SESSIONS_PER_USER = 50;

/** The SDK sends device details on login; `updateCurrentUserDetails` sends profile fields. */
const MeUpdate = z.looseObject({
  name: DisplayName.optional(),
  avatar: LinkUrl.optional(),
  link: LinkUrl.optional(),
  statusMessage: z.string().max(255, 'must be at most 255 characters').optional(),
  metadata: Metadata.optional(),
});

/**
 * Login and the session: `POST /users/{uid}/auth_tokens` with an authOnly key, `GET /settings`,
 * `PUT|GET|DELETE /me`, `POST /user_sessions`.
 */
export function sessionRoutes(deps: ClientApiDeps): Hono<ClientEnv> {
  const { services, clientSettings, socketTokens } = deps;
  const { apps, users, authTokens } = services;
  const routes = new Hono<ClientEnv>();

  routes.post('/users/:uid/auth_tokens', async (c) => {
    const app = await resolveApp(apps, c.req.header('host'), c.req.header('appId'));
    const key = c.req.header('apiKey');
    if (key === undefined || key === '')
      throw new ChatError(401, 'AUTH_ERR_EMPTY_APIKEY', 'The apiKey header is missing.');
    if ((await apps.keyScope(app.appId, key)) === undefined) {
      throw new ChatError(
        401,
        'AUTH_ERR_APIKEY_NOT_FOUND',
        `The apiKey is not a key of the app ${app.appId}.`,
      );
    }
    const uid = pathId(c, 'uid');
    let user = await users.find(app.appId, uid);
    if (user === undefined) {
      if (!(await clientSettings.get(app.appId)).createUsersOnLogin) {
        throw new ChatError(404, 'ERR_UID_NOT_FOUND', `The UID ${uid} does not exist.`, { uid });
      }
      user = await users.create(app.appId, { uid, name: c.req.param('uid') });
    }
    // One token per login, so logging out one device leaves the others signed in; sessions left
    // open (closed tabs) are bounded, so checking a socket's token stays cheap.
    const token = await authTokens.issue(app.appId, user.uid, true);
    await authTokens.prune(app.appId, user.uid, MAX_SESSIONS_PER_USER);
    // The answer is the user's own: they see their private metadata.
    c.set('session', { uid: user.uid, authToken: token.auth_token, deviceId: undefined });
    return c.json({ data: { ...clientUser(user), authToken: token.auth_token } });
  });

  routes.get('/settings', async (c) => {
    const app = await resolveApp(apps, c.req.header('host'), c.req.header('appId'));
    return c.json({ data: appSettingsFor(app, c.req.header('host') ?? 'localhost', deps.publicHost) });
  });

  const me = async (c: ClientContext) => {
    const app = c.get('app');
    const { uid, authToken } = c.get('session');
    const user = await users.get(app.appId, uid);
    return c.json({
      data: {
        ...clientUser(user),
        authToken,
        jwt: await socketTokens.issue(app.appId, uid, authToken),
        settings: appSettingsFor(app, c.req.header('host') ?? 'localhost', deps.publicHost),
      },
    });
  };

  routes.get('/me', (c) => me(c));
  routes.put('/me', async (c) => {
    const body = await jsonBody(c, MeUpdate);
    const changes = {
      name: body.name,
      avatar: body.avatar,
      link: body.link,
      statusMessage: body.statusMessage,
      metadata: body.metadata,
    };
    if (Object.values(changes).some((value) => value !== undefined)) {
      await users.update(c.get('app').appId, c.get('session').uid, changes);
    }
    return me(c);
  });
  routes.delete('/me', async (c) => {
    const { uid, authToken } = c.get('session');
    await authTokens.delete(c.get('app').appId, uid, authToken);
    return c.json({ data: { success: true, message: 'Logged out.' } });
  });
  // The SDK's telemetry, five seconds after login: acknowledged, not kept.
  routes.post('/user_sessions', (c) => c.json({ data: {} }));

  return routes;
}
