import { z } from 'zod';
import { parseWith } from '../../../shared/server-kit/index.js';
import { readJson } from '../../../shared/server-kit/index.js';
import { badRequest, ChatError } from '../../errors.js';
import type { ChatContext } from '../../http/context.js';
import { chatRoutes, documented, type ChatRoutes } from '../../http/openapi.js';
import type { ChatCore } from '../../services/registry.js';
import { notificationDataOf } from '../data.js';
import { CHANNELS } from '../tables.js';
import { refusedDestination } from './destination.js';
import type { ProviderKind } from './provider.js';
import { DEFAULT_PROVIDER_ID, providerView, type StoredProvider } from './registry.js';

/**
 * CometChat's provider routes, for every kind in `PROVIDER_KINDS`:
 * `GET|POST|PUT|DELETE /notifications/{channel}/v1/providers/{name}`, and for kinds with several
 * configurations `DELETE …/{providerId}` and `PUT …/default/{providerId}`. Secret fields are
 * write-only; a `PUT` changes the fields it names and keeps the rest (secrets included).
 */

const ProviderId = z
  .string({ error: 'must be a string' })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and -, at most 64');
const WithProviderId = z.looseObject({ providerId: ProviderId.optional() });

const providerNotFound = (kind: ProviderKind, providerId: string): ChatError =>
  new ChatError(404, 'ERR_PROVIDER_NOT_FOUND', `No ${kind.name} ${kind.channel} provider ${providerId}.`, {
    field: 'providerId',
  });

export function providerRoutes(core: ChatCore, kinds: readonly ProviderKind[]): ChatRoutes {
  const { providers } = notificationDataOf(core);
  const routes = chatRoutes();
  const appOf = (c: ChatContext): string => c.get('actor').app.appId;

  /** The body's configuration: merged over `base` for a PUT, validated, its URLs checked. */
  async function configOf(
    c: ChatContext,
    kind: ProviderKind,
    body: Record<string, unknown>,
    base: Record<string, unknown> | undefined,
  ): Promise<Record<string, unknown>> {
    const parsed = parseWith(base === undefined ? kind.schema : kind.schema.partial(), body) as Record<
      string,
      unknown
    >;
    // A PUT changes only what it names: defaults of fields it left out must not overwrite stored values.
    const change =
      base === undefined
        ? parsed
        : Object.fromEntries(Object.entries(parsed).filter(([field]) => field in body));
    const config = parseWith(kind.schema, { ...base, ...change }) as Record<string, unknown>;
    const refusal = kind.refine?.(config as never);
    if (refusal !== undefined) throw badRequest(refusal.field, refusal.message);
    const { apiActionOrigins } = await core.clientSettings.get(appOf(c));
    for (const field of kind.urls ?? []) {
      const url = config[field];
      if (typeof url !== 'string') continue;
      const refused = await refusedDestination(url, apiActionOrigins);
      if (refused !== undefined) throw badRequest(field, refused);
    }
    const checked = await kind.checkConfig?.(config as never);
    if (checked !== undefined) throw badRequest(checked.field, checked.message);
    return config;
  }

  const answer = async (c: ChatContext, kind: ProviderKind) => {
    const stored = await providers.ofKind(appOf(c), kind);
    const views = stored.map((provider) => providerView(kind, provider));
    return c.json({ data: kind.multiple ? views : (views[0] ?? {}) });
  };

  /** The body without `providerId`, and the configuration it names. */
  async function read(
    c: ChatContext,
    kind: ProviderKind,
  ): Promise<{ providerId: string; body: Record<string, unknown> }> {
    const raw = await readJson(c, 'empty-object');
    if (!kind.multiple) return { providerId: DEFAULT_PROVIDER_ID, body: raw as Record<string, unknown> };
    const { providerId, ...body } = parseWith(WithProviderId, raw);
    return { providerId: providerId ?? DEFAULT_PROVIDER_ID, body };
  }

  for (const kind of kinds) {
    const path = `/notifications/${kind.channel}/v1/providers/${kind.name}` as const;
    const what = `the ${kind.title} provider`;
    const bodyDoc = kind.multiple ? kind.schema.extend({ providerId: ProviderId.optional() }) : kind.schema;

    documented(routes, 'get', path, { summary: `List ${what}s`, only: 'server' }, (c) => answer(c, kind));

    documented(
      routes,
      'post',
      path,
      { summary: `Save ${what}`, only: 'server', body: bodyDoc },
      async (c) => {
        const { providerId, body } = await read(c, kind);
        const config = await configOf(c, kind, body, undefined);
        await providers.save(appOf(c), kind, providerId, config, Date.now());
        return answer(c, kind);
      },
    );

    documented(
      routes,
      'put',
      path,
      { summary: `Update ${what}`, only: 'server', body: bodyDoc.partial() },
      async (c) => {
        const { providerId, body } = await read(c, kind);
        const stored: StoredProvider | undefined = await providers.find(appOf(c), kind, providerId);
        if (stored === undefined) throw providerNotFound(kind, providerId);
        const config = await configOf(c, kind, body, stored.config);
        await providers.save(appOf(c), kind, providerId, config, Date.now());
        return answer(c, kind);
      },
    );

    const remove = async (c: ChatContext, providerId: string) => {
      if (!(await providers.remove(appOf(c), kind, providerId))) throw providerNotFound(kind, providerId);
      return answer(c, kind);
    };
    const idOf = (c: ChatContext): string => {
      const parsed = ProviderId.safeParse(c.req.param('providerId'));
      if (!parsed.success) throw badRequest('providerId', parsed.error.issues[0]?.message ?? 'invalid');
      return parsed.data;
    };

    if (!kind.multiple) {
      documented(routes, 'delete', path, { summary: `Delete ${what}`, only: 'server' }, (c) =>
        remove(c, DEFAULT_PROVIDER_ID),
      );
      continue;
    }
    documented(
      routes,
      'delete',
      `${path}/:providerId`,
      { summary: `Delete one of ${what}s`, only: 'server' },
      (c) => remove(c, idOf(c)),
    );
    documented(
      routes,
      'put',
      `${path}/default/:providerId`,
      { summary: `Make one of ${what}s the default`, only: 'server' },
      async (c) => {
        const providerId = idOf(c);
        if (!(await providers.setDefault(appOf(c), kind, providerId)))
          throw providerNotFound(kind, providerId);
        return answer(c, kind);
      },
    );
  }

  // Any other provider of a channel, or channel, is named as the part of the path at fault.
  routes.all('/notifications/:channel/v1/providers/:name/*', unknownProvider(kinds));
  routes.all('/notifications/:channel/v1/providers/:name', unknownProvider(kinds));
  return routes;
}

/** A 404 naming the unknown channel or provider and the known ones; the kinds' own paths pass on. */
function unknownProvider(kinds: readonly ProviderKind[]) {
  return async (c: ChatContext, next: () => Promise<void>): Promise<Response | void> => {
    const channel = c.req.param('channel') ?? '';
    const name = c.req.param('name') ?? '';
    if (!(CHANNELS as readonly string[]).includes(channel))
      throw new ChatError(404, 'ERR_PROVIDER_NOT_FOUND', `No channel ${channel}: ${CHANNELS.join(', ')}.`, {
        field: 'channel',
      });
    const names = kinds.filter((kind) => kind.channel === channel).map((kind) => kind.name);
    if (names.includes(name)) return next();
    throw new ChatError(
      404,
      'ERR_PROVIDER_NOT_FOUND',
      `No provider ${name} for ${channel}: ${names.join(', ')}.`,
      { field: 'provider' },
    );
  };
}
