import { z } from 'zod';
import { ApiKey, ApiKeyListQuery, CreateApiKeyRequest, UpdateApiKeyRequest } from '../../shared/api-keys.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { jsonBody, queryOf } from '../http/request.js';
import type { ApiKeyInfo } from '../repositories/apps.js';
import { pagination } from '../validation.js';
import type { RouteDeps } from './deps.js';

/** A stored key as CometChat's wire shape has it, named by its id: the key itself is not kept. */
const shown = ({ keyId, ...key }: ApiKeyInfo): ApiKey => ({ apiKey: keyId, ...key });

/**
 * The app's API keys (server API only): create (the only answer holding the key), list, read,
 * rename or re-scope, and revoke, which the next request carrying the key feels on every process.
 */
export function apiKeyRoutes(deps: RouteDeps): ChatRoutes {
  const { apiKeys } = deps.services;
  const routes = chatRoutes();

  documented(
    routes,
    'post',
    '/apikeys',
    {
      summary: 'Create an API key; the answer is the only one that holds the key',
      only: 'server',
      body: CreateApiKeyRequest,
      response: z.object({ data: ApiKey }),
    },
    async (c) => {
      const { appId } = c.get('actor').app;
      const body = await jsonBody(c, CreateApiKeyRequest);
      const { apiKey, name, scope, createdAt } = await apiKeys.create(appId, body.name, body.scope);
      return c.json({ data: { apiKey, name, scope, createdAt } });
    },
  );

  documented(
    routes,
    'get',
    '/apikeys',
    {
      summary: 'List the API keys, by id (scope and name filters)',
      only: 'server',
      query: ApiKeyListQuery,
      response: z.object({ data: z.array(ApiKey) }),
    },
    async (c) => {
      const { appId } = c.get('actor').app;
      const query = queryOf(c, ApiKeyListQuery);
      const keys = (await apiKeys.list(appId, query)).map(shown);
      return c.json({
        data: keys,
        meta: { pagination: pagination(keys.length, keys.length, keys.length, 1) },
      });
    },
  );

  documented(
    routes,
    'get',
    '/apikeys/:apiKey',
    {
      summary: 'Read an API key (by the key or its id)',
      only: 'server',
      response: z.object({ data: ApiKey }),
    },
    async (c) => c.json({ data: shown(await apiKeys.get(c.get('actor').app.appId, c.req.param('apiKey'))) }),
  );

  documented(
    routes,
    'put',
    '/apikeys/:apiKey',
    {
      summary: 'Rename or re-scope an API key',
      only: 'server',
      body: UpdateApiKeyRequest,
      response: z.object({ data: ApiKey }),
    },
    async (c) => {
      const { appId } = c.get('actor').app;
      const body = await jsonBody(c, UpdateApiKeyRequest);
      return c.json({ data: shown(await apiKeys.update(appId, c.req.param('apiKey'), body)) });
    },
  );

  documented(
    routes,
    'delete',
    '/apikeys/:apiKey',
    { summary: 'Revoke an API key', only: 'server' },
    async (c) => {
      const deleted = await apiKeys.revoke(c.get('actor').app.appId, c.req.param('apiKey'));
      return c.json({
        data: { success: true, message: `The Api Key ${deleted.keyId} has been deleted successfully.` },
      });
    },
  );

  return routes;
}
