import { z } from 'zod';
import { CreateRoleRequest, Role, UpdateRoleRequest } from '../../shared/roles.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { jsonBody } from '../http/request.js';
import type { RouteDeps } from './deps.js';
import { PageQuery, pageAnswer } from './policies.js';

/** The app's roles (server API only): create, list, read, update, and delete a role nobody has. */
export function roleRoutes(deps: RouteDeps): ChatRoutes {
  const { roles } = deps.services;
  const routes = chatRoutes();
  const one = z.object({ data: Role });

  documented(
    routes,
    'post',
    '/roles',
    { summary: 'Create a role', only: 'server', body: CreateRoleRequest, response: one },
    async (c) => {
      const body = await jsonBody(c, CreateRoleRequest);
      return c.json({ data: await roles.create(c.get('actor').app.appId, body) });
    },
  );

  documented(
    routes,
    'get',
    '/roles',
    { summary: 'List the roles', only: 'server', query: PageQuery },
    async (c) =>
      c.json(await pageAnswer(c, (page, perPage) => roles.list(c.get('actor').app.appId, page, perPage))),
  );

  documented(
    routes,
    'get',
    '/roles/:role',
    { summary: 'Read a role', only: 'server', response: one },
    async (c) => c.json({ data: await roles.get(c.get('actor').app.appId, c.req.param('role')) }),
  );

  documented(
    routes,
    'put',
    '/roles/:role',
    { summary: 'Update a role', only: 'server', body: UpdateRoleRequest, response: one },
    async (c) => {
      const body = await jsonBody(c, UpdateRoleRequest);
      return c.json({ data: await roles.update(c.get('actor').app.appId, c.req.param('role'), body) });
    },
  );

  documented(
    routes,
    'delete',
    '/roles/:role',
    { summary: 'Delete a role that no user has', only: 'server' },
    async (c) => {
      const role = c.req.param('role');
      await roles.delete(c.get('actor').app.appId, role);
      return c.json({ data: { success: true, message: `Role ${role} has been deleted successfully.` } });
    },
  );

  return routes;
}
