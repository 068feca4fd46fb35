import { parseWith } from '../../shared/server-kit/index.js';
import { UserNotificationPreferencesPatch } from '../../shared/notification-settings.js';
import { badRequest, ChatError } from '../errors.js';
import { sessionOf } from '../http/actor.js';
import type { ChatContext } from '../http/context.js';
import { jsonBody, queryOf } from '../http/request.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import type { RouteDeps } from '../routes/deps.js';
import type { ChatCore } from '../services/registry.js';
import {
  ContactDetailsRequest,
  LogsQuery,
  MuteRequest,
  OptionalUidQuery,
  RegisterTokenRequest,
  TestNotificationRequest,
  TimeZoneRequest,
  TokensBody,
  TokensQuery,
  TokenValue,
  UidQuery,
  UnmuteRequest,
} from './contracts.js';
import { notificationDataOf } from './data.js';
import { PROVIDER_KINDS } from './providers/kinds.js';
import { providerRoutes } from './providers/routes.js';
import { webPushRoutes } from './providers/web-push-routes.js';
import { isTimeZone } from './schedule.js';

/**
 * Notification delivery: the providers (providers/routes.ts), the decision logs, push tokens,
 * contact details, and the per-user state decisions read (muted conversations, time zone), for the
 * app's server (a `uid`) and for the SDK's `CometChatNotifications` (the session's user).
 */

const SUCCESS = { success: true };

/** `core`: the notifications engine's data lives in its store; sessions are named by their tokens. */
export function notificationDeliveryRoutes(deps: RouteDeps, core: ChatCore): ChatRoutes {
  const { users } = deps.services;
  const { db, logs, outbox, userState, pushTokens, contacts } = notificationDataOf(core);
  const routes = chatRoutes();
  routes.route('/', providerRoutes(core, PROVIDER_KINDS));
  routes.route('/', webPushRoutes(core));
  const appOf = (c: ChatContext): string => c.get('actor').app.appId;

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

  documented(
    routes,
    'post',
    '/notifications/v1/test',
    {
      summary:
        "Send one user a test notification through the channel's providers (the dashboard's test button)",
      only: 'server',
      body: TestNotificationRequest,
    },
    async (c) => {
      const { channel, uid: named } = await jsonBody(c, TestNotificationRequest);
      const appId = appOf(c);
      const user = await users.get(appId, named);
      const now = Date.now();
      const idempotencyKey = `test:${channel}:${user.uid}:${now}`;
      const text = 'A test notification from the Parley dashboard.';
      const data =
        channel === 'push'
          ? {
              notificationDetails: {
                title: 'Test notification',
                body: text,
                tag: idempotencyKey,
                conversationId: '',
                type: 'chat',
                sound: 'default',
              },
            }
          : channel === 'email'
            ? { subject: 'Test notification', messages: [] }
            : { smsContent: text };
      const body = JSON.stringify({
        id: idempotencyKey,
        appId,
        channel,
        trigger: `${channel}-notification-payload-generated`,
        event: 'test',
        data: { to: { uid: user.uid, name: user.name }, ...data },
      });
      // Logged like a decision, so the delivery log shows how the test went.
      const outboxId = await db.transaction().execute(async (trx) => {
        const ids = await outbox.enqueue([{ appId, channel, idempotencyKey, body }], now, trx);
        const id = ids.get(idempotencyKey) ?? null;
        await logs.record(
          [
            {
              appId,
              uid: user.uid,
              trigger: 'test',
              channel,
              messageId: null,
              conversationId: '',
              sender: 'dashboard',
              receiver: user.uid,
              receiverType: 'user',
              reason: null,
              outboxId: id,
              createdAt: now,
            },
          ],
          trx,
        );
        return id;
      });
      return c.json({ data: { outboxId } });
    },
  );

  /** The server's `uid` query (an existing user). */
  const namedUser = async (c: ChatContext): Promise<string> => {
    const { uid } = queryOf(c, UidQuery);
    return (await users.get(appOf(c), uid)).uid;
  };
  /** A client's own user; the server names one with `uid` (or `onBehalfOf`). */
  const userOf = async (c: ChatContext): Promise<string> => {
    const actor = c.get('actor');
    if (actor.kind === 'client') return sessionOf(c).uid;
    const uid = queryOf(c, OptionalUidQuery).uid ?? actor.uid;
    if (uid === undefined) throw badRequest('uid', 'name the user: the uid query or the onBehalfOf header');
    return (await users.get(appOf(c), uid)).uid;
  };

  const mutes = (path: string, only: 'server' | 'client', userFor: (c: ChatContext) => Promise<string>) => {
    const query = only === 'server' ? { query: UidQuery } : {};
    documented(
      routes,
      'get',
      path,
      { summary: 'Muted conversations of a user', only, ...query },
      async (c) => {
        const uid = await userFor(c);
        return c.json({
          data: { mutedConversations: await userState.mutedConversations(appOf(c), uid, Date.now()) },
        });
      },
    );
    documented(
      routes,
      'put',
      path,
      { summary: 'Mute conversations for a user', only, body: MuteRequest, ...query },
      async (c) => {
        const uid = await userFor(c);
        const { conversations } = await jsonBody(c, MuteRequest);
        await userState.mute(appOf(c), uid, conversations);
        return c.json({ data: SUCCESS });
      },
    );
    documented(
      routes,
      'delete',
      path,
      { summary: 'Unmute conversations for a user', only, body: UnmuteRequest, ...query },
      async (c) => {
        const uid = await userFor(c);
        const { conversations } = await jsonBody(c, UnmuteRequest);
        await userState.unmute(appOf(c), uid, conversations);
        return c.json({ data: SUCCESS });
      },
    );
  };
  mutes('/notifications/v1/preferences/mute', 'server', namedUser);
  mutes('/notifications/push/v1/preferences/mute', 'client', async (c) => sessionOf(c).uid);

  documented(
    routes,
    'get',
    '/notifications/v1/preferences/timezone',
    { summary: "A user's time zone", query: OptionalUidQuery },
    async (c) => {
      const uid = await userOf(c);
      return c.json({ data: { ...SUCCESS, timezone: await userState.timeZone(appOf(c), uid) } });
    },
  );

  const canonicalZone = (zone: string): string =>
    new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;

  documented(
    routes,
    'patch',
    '/notifications/v1/preferences/timezone',
    { summary: "Set a user's time zone", body: TimeZoneRequest, query: OptionalUidQuery },
    async (c) => {
      const uid = await userOf(c);
      const { timezone } = await jsonBody(c, TimeZoneRequest);
      const canonical = canonicalZone(timezone);
      await userState.setTimeZone(appOf(c), uid, canonical, Date.now());
      return c.json({ data: { ...SUCCESS, timezone: canonical } });
    },
  );

  // The SDK's preferences calls: the same preferences the server reads at `/notifications/v1/preferences`.
  const { notifications } = core;
  documented(
    routes,
    'get',
    '/notifications/push/v1/preferences',
    { summary: 'Your notification preferences', only: 'client' },
    async (c) => c.json({ data: await notifications.preferences(appOf(c), sessionOf(c).uid) }),
  );
  documented(
    routes,
    'patch',
    '/notifications/push/v1/preferences',
    {
      summary: 'Change your notification preferences',
      only: 'client',
      body: UserNotificationPreferencesPatch,
    },
    async (c) => {
      const patch = await jsonBody(c, UserNotificationPreferencesPatch);
      return c.json({ data: await notifications.updatePreferences(appOf(c), sessionOf(c).uid, patch) });
    },
  );
  documented(
    routes,
    'delete',
    '/notifications/push/v1/preferences',
    { summary: 'Reset your notification preferences', only: 'client' },
    async (c) => {
      const { uid } = sessionOf(c);
      await notifications.resetPreferences(appOf(c), uid);
      return c.json({ data: await notifications.preferences(appOf(c), uid) });
    },
  );

  /** The platforms some provider kind delivers to, with the body field carrying their token. */
  const tokenFields = new Map(PROVIDER_KINDS.flatMap((kind) => Object.entries(kind.platforms ?? {})));

  documented(
    routes,
    'post',
    '/notifications/push/v1/tokens',
    {
      summary: "Register a push token for a session's device (the server API names it by authToken)",
      body: RegisterTokenRequest,
    },
    async (c) => {
      const body = await jsonBody(c, RegisterTokenRequest);
      const { uid, authToken } =
        c.get('actor').kind === 'client'
          ? sessionOf(c)
          : await namedSession(c, body.authToken ?? queryOf(c, TokensQuery).authToken);
      const field = tokenFields.get(body.platform);
      if (field === undefined)
        throw badRequest('platform', `unknown platform; one of ${[...tokenFields.keys()].join(', ')}`);
      const token = TokenValue.safeParse((body as Record<string, unknown>)[field]);
      if (!token.success)
        throw badRequest(field, token.error.issues[0]?.message ?? `the ${body.platform} token`);
      const refusal = PROVIDER_KINDS.find(
        (kind) => kind.platforms?.[body.platform] !== undefined,
      )?.checkToken?.(token.data);
      if (refusal !== undefined) throw badRequest(field, refusal);
      const now = Date.now();
      await pushTokens.register(
        appOf(c),
        uid,
        authToken,
        { token: token.data, platform: body.platform, providerId: body.providerId },
        now,
      );
      // The SDK sends the device's zone with every registration: the schedule is read in it.
      if (body.timezone !== undefined && isTimeZone(body.timezone))
        await userState.setTimeZone(appOf(c), uid, canonicalZone(body.timezone), now);
      return c.json({ data: SUCCESS });
    },
  );

  /** The session a server call names by its auth token: push tokens belong to sessions. */
  const namedSession = async (
    c: ChatContext,
    authToken: string | undefined,
  ): Promise<{ uid: string; authToken: string }> => {
    if (authToken === undefined)
      throw badRequest('authToken', "names the session whose device's token this is");
    const session = await core.authTokens.find(appOf(c), authToken);
    if (session === undefined)
      throw new ChatError(404, 'ERR_AUTH_TOKEN_NOT_FOUND', 'No session has this authToken.', {
        field: 'authToken',
      });
    return { uid: session.uid, authToken };
  };

  /** Whose tokens a token route reaches: a client's session; the server's user, one session or all. */
  const tokenScope = async (
    c: ChatContext,
    authTokenInBody?: string,
  ): Promise<{ uid: string; authToken?: string }> => {
    const actor = c.get('actor');
    const query = queryOf(c, TokensQuery);
    if (actor.kind === 'client') {
      const session = sessionOf(c);
      return query.all === 'true' ? { uid: session.uid } : session;
    }
    const authToken = authTokenInBody ?? query.authToken;
    if (authToken !== undefined) {
      const session = await namedSession(c, authToken);
      return query.all === 'true' ? { uid: session.uid } : session;
    }
    return { uid: await userOf(c) };
  };

  documented(
    routes,
    'get',
    '/notifications/push/v1/tokens',
    { summary: "A user's push tokens (a session's, or all with all=true)", query: TokensQuery },
    async (c) => {
      const scope = await tokenScope(c);
      return c.json({ data: await pushTokens.list(appOf(c), scope.uid, scope.authToken) });
    },
  );

  documented(
    routes,
    'delete',
    '/notifications/push/v1/tokens',
    {
      summary: "Unregister a session's push tokens (all of the user's with all=true)",
      query: TokensQuery,
      body: TokensBody,
    },
    async (c) => {
      const body = c.get('actor').kind === 'server' ? await jsonBody(c, TokensBody) : {};
      const scope = await tokenScope(c, body.authToken);
      await pushTokens.remove(
        appOf(c),
        scope.uid,
        scope.authToken === undefined ? {} : { authToken: scope.authToken },
      );
      return c.json({ data: SUCCESS });
    },
  );

  documented(
    routes,
    'delete',
    '/notifications/push/v1/tokens/:pushToken',
    { summary: 'Delete one push token of a user', query: TokensQuery, body: TokensBody },
    async (c) => {
      const token = parseWith(TokenValue, c.req.param('pushToken'));
      const body = c.get('actor').kind === 'server' ? await jsonBody(c, TokensBody) : {};
      const scope = await tokenScope(c, body.authToken);
      // Only the user's own token: another user's is "not found", never removed.
      const removed = await pushTokens.remove(appOf(c), scope.uid, { token });
      if (removed === 0)
        throw new ChatError(404, 'ERR_PUSH_TOKEN_NOT_FOUND', 'The user has no such push token.', {
          field: 'pushToken',
        });
      return c.json({ data: SUCCESS });
    },
  );

  // Contact details: the acting user's own (a client's session, the server's onBehalfOf or uid).
  documented(
    routes,
    'get',
    '/notifications/v1/contact-details',
    { summary: "A user's e-mail address and phone number", query: OptionalUidQuery },
    async (c) => c.json({ data: await contacts.get(appOf(c), await userOf(c)) }),
  );
  documented(
    routes,
    'patch',
    '/notifications/v1/contact-details',
    {
      summary: "Set a user's e-mail address or phone number",
      body: ContactDetailsRequest,
      query: OptionalUidQuery,
    },
    async (c) => {
      const uid = await userOf(c);
      const change = await jsonBody(c, ContactDetailsRequest);
      return c.json({ data: await contacts.update(appOf(c), uid, change, Date.now()) });
    },
  );
  documented(
    routes,
    'delete',
    '/notifications/v1/contact-details',
    { summary: "Delete a user's contact details", query: OptionalUidQuery },
    async (c) => {
      await contacts.remove(appOf(c), await userOf(c));
      return c.json({ data: SUCCESS });
    },
  );

  return routes;
}
