import { afterEach, describe, expect, it } from 'vitest';
import { ChatApiError, ChatServerClient, chatApiBaseUrl } from '../../shared/chat-server-client.js';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../shared/notification-settings.js';
import { sendJson, startRecordingServer, type RecordingServer } from '../support/http.js';

const message = {
  id: '101',
  conversationId: 'alice_user_bob',
  sender: 'alice',
  receiver: 'bob',
  receiverType: 'user',
  category: 'message',
  type: 'text',
  data: {
    text: 'hi',
    entities: {
      sender: {
        entity: { uid: 'alice', name: 'Alice', status: 'offline', role: 'default' },
        entityType: 'user',
      },
      receiver: {
        entity: { uid: 'bob', name: 'Bob', status: 'offline', role: 'default' },
        entityType: 'user',
      },
    },
  },
  sentAt: 1_763_700_000,
  updatedAt: 1_763_700_000,
};

describe('chatApiBaseUrl', () => {
  it('derives CometChat’s host from app id and region', () => {
    expect(chatApiBaseUrl({ appId: '2493a1c', region: 'eu' })).toBe('https://2493a1c.api-eu.cometchat.io/v3');
  });

  it('lets a host override the derived one', () => {
    expect(chatApiBaseUrl({ appId: 'a', region: 'us', host: 'http://localhost:4000/' })).toBe(
      'http://localhost:4000/v3',
    );
  });
});

describe('ChatServerClient', () => {
  let server: RecordingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const client = (url: string) =>
    new ChatServerClient({ appId: 'demo', region: 'eu', apiKey: 'k-full', host: url });

  it('sends a message on behalf of a user with the apikey and appId headers', async () => {
    server = await startRecordingServer((_req, res) => sendJson(res, 200, { data: message }));
    const sent = await client(server.url).createMessage('alice', {
      receiver: 'bob',
      receiverType: 'user',
      category: 'message',
      type: 'text',
      data: { text: 'hi' },
    });
    expect(sent.id).toBe('101');
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/v3/messages' });
    expect(request!.headers).toMatchObject({ apikey: 'k-full', appid: 'demo', onbehalfof: 'alice' });
  });

  it('posts bot messages under the bot’s UID, escaped', async () => {
    server = await startRecordingServer((_req, res) => sendJson(res, 200, { data: message }));
    await client(server.url).sendBotMessage('help desk', {
      receiver: 'bob',
      receiverType: 'user',
      category: 'message',
      type: 'text',
      data: { text: 'hi' },
    });
    expect(server.requests[0]!.url).toBe('/v3/bots/help%20desk/messages');
  });

  it('reads, updates and resets the notification settings', async () => {
    server = await startRecordingServer((req, res) =>
      sendJson(
        res,
        200,
        req.method === 'GET' ? { data: DEFAULT_NOTIFICATION_SETTINGS } : { data: { success: true } },
      ),
    );
    const api = client(server.url);
    expect((await api.getNotificationSettings()).sound.chat).toBe('default');
    expect(await api.updateNotificationSettings({ sound: { chat: 'bell' } })).toBe(true);
    expect(await api.resetNotificationSettings()).toBe(true);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v3/notifications/v1/settings',
      'PATCH /v3/notifications/v1/settings',
      'DELETE /v3/notifications/v1/settings',
    ]);
    expect(JSON.parse(server.requests[1]!.body)).toEqual({ sound: { chat: 'bell' } });
  });

  it('surfaces the error envelope as a ChatApiError with status, code and details', async () => {
    server = await startRecordingServer((_req, res) =>
      sendJson(res, 404, {
        error: { code: 'ERR_UID_NOT_FOUND', message: 'no user carol', details: { uid: 'carol' } },
      }),
    );
    const error = await client(server.url)
      .getUser('carol')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatApiError);
    expect(error).toMatchObject({ status: 404, code: 'ERR_UID_NOT_FOUND', details: { uid: 'carol' } });
  });

  it('reports an error body that is not an envelope as ERR_BAD_ERROR_RESPONSE', async () => {
    server = await startRecordingServer((_req, res) => res.writeHead(502).end('Bad Gateway'));
    await expect(client(server.url).listUsers()).rejects.toMatchObject({
      status: 502,
      code: 'ERR_BAD_ERROR_RESPONSE',
    });
  });

  it('passes list queries as query parameters', async () => {
    const page = {
      data: [],
      meta: { pagination: { total: 0, count: 0, per_page: 10, current_page: 2, total_pages: 0 } },
    };
    server = await startRecordingServer((_req, res) => sendJson(res, 200, page));
    await client(server.url).listUsers({ searchKey: 'ali', page: 2, perPage: 10 });
    expect(server.requests[0]!.url).toBe('/v3/users?searchKey=ali&page=2&perPage=10');
  });
});
