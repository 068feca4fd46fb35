import { actingUid } from '../http/actor.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import type { RouteDeps } from './deps.js';

/**
 * Pinning and saving messages, on both APIs (the SDK's `pinMessage`, `unpinMessage`, `saveMessage`,
 * `unsaveMessage`). A pin acts as the acting user, or, on the server API without `onBehalfOf`, as
 * the app (`pinnedBy: "app_system"`); a save is always a user's own. Each answers the message as
 * the acting user now sees it. The lists are the message lists' `pinned` and `saved` filters.
 */
export function pinRoutes(deps: RouteDeps): ChatRoutes {
  const { pins } = deps.services;
  const routes = chatRoutes();

  for (const adding of [true, false]) {
    documented(
      routes,
      adding ? 'post' : 'delete',
      '/messages/:id/pin',
      {
        summary: adding
          ? 'Pin a message to its conversation (a group: moderators, admins and the owner)'
          : 'Unpin a message from its conversation (a group: moderators, admins and the owner)',
      },
      async (c) => {
        const { app, uid, origin } = c.get('actor');
        return c.json({ data: await pins.pinMessage(app, c.req.param('id'), uid, adding, origin) });
      },
    );
    documented(
      routes,
      adding ? 'post' : 'delete',
      '/messages/:id/save',
      {
        summary: adding
          ? 'Save a message for the acting user alone'
          : "Remove a message from the acting user's saved messages",
      },
      async (c) => {
        const { app, origin } = c.get('actor');
        return c.json({
          data: await pins.saveMessage(app, c.req.param('id'), actingUid(c), adding, origin),
        });
      },
    );
  }
  return routes;
}
