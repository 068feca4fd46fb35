import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A small in-memory server of CometChat's client protocol, answering per
 * `reference/cometchat-client-protocol.md`, for the chat client and widget tests until the real chat
 * service of issue #6 serves it. Real HTTP and WebSocket on an ephemeral port, with CORS.
 */

export const APP_ID = 'parleytest';
export const AUTH_KEY = 'test-auth-key';

interface FakeUser {
  uid: string;
  name: string;
  role: string;
  status: string;
  avatar?: string;
}

interface FakeGroup {
  guid: string;
  name: string;
  type: 'public';
  members: Set<string>;
}

export interface FakeMessage {
  id: string;
  muid?: string;
  conversationId: string;
  sender: string;
  receiver: string;
  receiverType: 'user' | 'group';
  category: string;
  type: string;
  data: Record<string, unknown>;
  sentAt: number;
  updatedAt: number;
  deliveredAt?: number;
  readAt?: number;
}

interface SocketSession {
  uid: string;
  deviceId: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const fail = (res: ServerResponse, status: number, code: string, message: string): void =>
  json(res, status, { error: { code, message, details: {} } });

function conversationIdOf(sender: string, receiver: string, receiverType: 'user' | 'group'): string {
  if (receiverType === 'group') return `group_${receiver}`;
  const [a, b] = [sender, receiver].sort();
  return `${a}_user_${b}`;
}

export class ProtocolFake {
  readonly users = new Map<string, FakeUser>();
  readonly groups = new Map<string, FakeGroup>();
  readonly messages: FakeMessage[] = [];
  readonly requests: RecordedRequest[] = [];
  readonly framesReceived: { uid: string; frame: Record<string, unknown> }[] = [];
  #tokens = new Map<string, string>();
  #jwts = new Map<string, string>();
  #lastRead = new Map<string, number>();
  #sockets = new Map<WebSocket, SocketSession>();
  #nextId = 1;
  #clock = 1_800_000_000;
  #server: Server | undefined;
  #wss: WebSocketServer | undefined;
  #port = 0;
  #tls: { key: string; cert: string } | undefined;

  constructor() {
    this.addUser({ uid: 'alice', name: 'Alice Martin' });
    this.addUser({ uid: 'bob', name: 'Bob Stone' });
    this.addUser({ uid: 'carol', name: 'Carol Diaz' });
    this.addUser({ uid: 'knowledge', name: 'Knowledge Agent', role: '@agentic' });
    this.addGroup('support', 'Support Team', ['alice', 'bob', 'carol']);
  }

  get url(): string {
    return `${this.#tls ? 'https' : 'http'}://127.0.0.1:${this.#port}`;
  }

  addUser(user: { uid: string; name: string; role?: string }): void {
    this.users.set(user.uid, { role: 'default', status: 'offline', ...user });
  }

  addGroup(guid: string, name: string, members: string[]): void {
    this.groups.set(guid, { guid, name, type: 'public', members: new Set(members) });
  }

  /** Listens on `port` (0: any free one); with a key and certificate over https and wss, as the SDK requires. */
  async start(port = 0, tls?: { key: string; cert: string }): Promise<this> {
    const handle = (req: IncomingMessage, res: ServerResponse) => void this.#handle(req, res);
    const server: Server = tls ? createTlsServer(tls, handle) : createServer(handle);
    this.#tls = tls;
    const wss = new WebSocketServer({ server });
    wss.on('connection', (socket) => this.#onSocket(socket));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
    this.#wss = wss;
    return this;
  }

  /** Stops listening and drops every socket, as a crashed or restarting service would. */
  async stop(): Promise<void> {
    for (const socket of this.#wss?.clients ?? []) socket.terminate();
    this.#sockets.clear();
    this.#wss?.close();
    const server = this.#server;
    this.#server = undefined;
    server?.closeAllConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Comes back on the same port with the same data, as a restarted service does. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start(this.#port, this.#tls);
  }

  /** Closes every socket without stopping the server (a network blip). */
  dropSockets(): void {
    for (const socket of this.#sockets.keys()) socket.terminate();
  }

  /** Moves the service's clock forward, e.g. a day, so later messages fall on another date. */
  advanceClock(seconds: number): void {
    this.#clock += seconds;
  }

  /** Invalidates every JWT issued so far (auth tokens stay valid), as a service with a new signing key would. */
  forgetJwts(): void {
    this.#jwts.clear();
  }

  connectedUids(): string[] {
    return [...this.#sockets.values()].map((session) => session.uid);
  }

  /** Sends a message as a user (as the server API or a bot would), fanned out to every recipient's sockets. */
  sendAs(
    sender: string,
    receiver: { type: 'user' | 'group'; id: string },
    content: { category?: string; type?: string; data: Record<string, unknown> },
  ): FakeMessage {
    return this.#store(sender, receiver.id, receiver.type, content, 'server');
  }

  #tick(): number {
    return ++this.#clock;
  }

  #userEntity(uid: string): FakeUser {
    const user = this.users.get(uid);
    if (!user) return { uid, name: uid, role: 'default', status: 'offline' };
    const online = [...this.#sockets.values()].some((session) => session.uid === uid);
    return { ...user, status: online ? 'online' : 'offline' };
  }

  #groupEntity(group: FakeGroup, uid?: string): Record<string, unknown> {
    return {
      guid: group.guid,
      name: group.name,
      type: group.type,
      membersCount: group.members.size,
      ...(uid ? { hasJoined: group.members.has(uid) } : {}),
    };
  }

  #store(
    sender: string,
    receiver: string,
    receiverType: 'user' | 'group',
    content: { category?: string; type?: string; data: Record<string, unknown>; muid?: string },
    deviceId: string,
  ): FakeMessage {
    const now = this.#tick();
    const group = receiverType === 'group' ? this.groups.get(receiver) : undefined;
    const message: FakeMessage = {
      id: String(this.#nextId++),
      ...(content.muid ? { muid: content.muid } : {}),
      conversationId: conversationIdOf(sender, receiver, receiverType),
      sender,
      receiver,
      receiverType,
      category: content.category ?? 'message',
      type: content.type ?? 'text',
      data: {
        ...content.data,
        entities: {
          sender: { entity: this.#userEntity(sender), entityType: 'user' },
          receiver: group
            ? { entity: this.#groupEntity(group), entityType: 'group' }
            : { entity: this.#userEntity(receiver), entityType: 'user' },
        },
      },
      sentAt: now,
      updatedAt: now,
    };
    this.messages.push(message);
    const recipients = group ? [...group.members] : [sender, receiver];
    this.#push(recipients, { type: 'message', receiver, receiverType, sender, deviceId, body: message });
    return message;
  }

  #push(uids: string[], frame: Record<string, unknown>): void {
    const text = JSON.stringify({ appId: APP_ID, ...frame });
    for (const [socket, session] of this.#sockets) if (uids.includes(session.uid)) socket.send(text);
  }

  #visible(uid: string, message: FakeMessage): boolean {
    if (message.receiverType === 'group') return this.groups.get(message.receiver)?.members.has(uid) ?? false;
    return message.sender === uid || message.receiver === uid;
  }

  #conversationOf(uid: string, conversationId: string): Record<string, unknown> | undefined {
    const inConversation = this.messages.filter(
      (m) => m.conversationId === conversationId && this.#visible(uid, m),
    );
    const last = inConversation.at(-1);
    const lastRead = this.#lastRead.get(`${uid}|${conversationId}`) ?? 0;
    const unread = inConversation.filter((m) => m.sender !== uid && Number(m.id) > lastRead).length;
    let conversationType: 'user' | 'group';
    let conversationWith: unknown;
    if (conversationId.startsWith('group_')) {
      const group = this.groups.get(conversationId.slice('group_'.length));
      if (!group?.members.has(uid)) return undefined;
      conversationType = 'group';
      conversationWith = this.#groupEntity(group, uid);
    } else {
      const [a, b] = conversationId.split('_user_');
      conversationType = 'user';
      conversationWith = this.#userEntity(a === uid ? b! : a!);
    }
    return {
      conversationId,
      conversationType,
      conversationWith,
      ...(last ? { lastMessage: last, latestMessageId: last.id, updatedAt: last.sentAt } : {}),
      unreadMessageCount: unread,
      unreadMentionsCount: 0,
      lastReadMessageId: String(lastRead),
    };
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', this.url);
    let body: unknown;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (chunks.length > 0) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return fail(res, 400, 'ERR_BAD_REQUEST', 'body is not JSON');
      }
    }
    const query = Object.fromEntries(url.searchParams);
    this.requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      headers: req.headers,
      body,
    });
    const path = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (path[0] !== 'v3') return fail(res, 404, 'ERR_ROUTE_NOT_FOUND', 'not found');
    const route = path.slice(1);
    const method = req.method ?? 'GET';

    if (req.headers['appid'] !== APP_ID) return fail(res, 401, 'ERR_APP_NOT_FOUND', 'unknown app');

    // Admin: auth tokens with the auth key.
    if (method === 'POST' && route[0] === 'users' && route[2] === 'auth_tokens' && route.length === 3) {
      if (req.headers['apikey'] !== AUTH_KEY) return fail(res, 401, 'ERR_AUTH_KEY', 'bad auth key');
      const user = this.users.get(route[1]!);
      if (!user) return fail(res, 404, 'ERR_UID_NOT_FOUND', `no user ${route[1]}`);
      const authToken = `${user.uid}_${Math.random().toString(16).slice(2)}`;
      this.#tokens.set(authToken, user.uid);
      return json(res, 200, { data: { ...this.#userEntity(user.uid), authToken } });
    }

    const token = req.headers['authtoken'];
    const uid = typeof token === 'string' ? this.#tokens.get(token) : undefined;
    if (!uid) return fail(res, 401, 'AUTH_ERR_AUTH_TOKEN_NOT_FOUND', 'auth token not found');

    if (route[0] === 'me' && route.length === 1) {
      if (method === 'DELETE') {
        this.#tokens.delete(token as string);
        return json(res, 200, { data: { success: true } });
      }
      const jwt = `jwt.${Math.random().toString(16).slice(2)}`;
      this.#jwts.set(jwt, uid);
      const settings = {
        CHAT_HOST: '127.0.0.1',
        CHAT_WSS_PORT: String(this.#port),
        CLIENT_API_HOST: `127.0.0.1:${this.#port}`,
        CHAT_API_VERSION: 'v3',
        APP_VERSION: 4,
        MODE: 'DEFAULT',
        ANALYTICS_PING_DISABLED: true,
      };
      return json(res, 200, { data: { ...this.#userEntity(uid), authToken: token, jwt, settings } });
    }

    if (method === 'GET' && route[0] === 'conversations') {
      const perPage = Number(query.per_page ?? 30);
      const page = Number(query.page ?? 1);
      const ids = [
        ...new Set(this.messages.filter((m) => this.#visible(uid, m)).map((m) => m.conversationId)),
      ];
      const all = ids
        .map((id) => this.#conversationOf(uid, id))
        .filter((c): c is Record<string, unknown> => c !== undefined)
        .sort((a, b) => Number(b.updatedAt ?? 0) - Number(a.updatedAt ?? 0));
      const data = all.slice((page - 1) * perPage, page * perPage);
      const pagination = {
        total: all.length,
        count: data.length,
        per_page: perPage,
        current_page: page,
        total_pages: Math.max(1, Math.ceil(all.length / perPage)),
      };
      return json(res, 200, { data, meta: { pagination } });
    }

    if ((route[0] === 'users' || route[0] === 'groups') && route.length >= 2) {
      const isGroup = route[0] === 'groups';
      const id = route[1]!;
      if (isGroup && !this.groups.has(id)) return fail(res, 404, 'ERR_GUID_NOT_FOUND', `no group ${id}`);
      if (!isGroup && !this.users.has(id)) return fail(res, 404, 'ERR_UID_NOT_FOUND', `no user ${id}`);
      const conversationId = conversationIdOf(uid, id, isGroup ? 'group' : 'user');
      if (route.length === 2 && method === 'GET') {
        return json(res, 200, {
          data: isGroup ? this.#groupEntity(this.groups.get(id)!, uid) : this.#userEntity(id),
        });
      }
      if (route[2] === 'members' && isGroup && method === 'GET') {
        const members = [...this.groups.get(id)!.members].map((member) => ({
          ...this.#userEntity(member),
          scope: 'participant',
        }));
        return json(res, 200, {
          data: members,
          meta: {
            pagination: {
              total: members.length,
              count: members.length,
              per_page: 100,
              current_page: 1,
              total_pages: 1,
            },
          },
        });
      }
      if (route[2] === 'conversation' && route.length === 3 && method === 'GET') {
        const conversation = this.#conversationOf(uid, conversationId) ?? {
          conversationId,
          conversationType: isGroup ? 'group' : 'user',
          conversationWith: isGroup ? this.#groupEntity(this.groups.get(id)!, uid) : this.#userEntity(id),
          unreadMessageCount: 0,
        };
        return json(res, 200, { data: conversation });
      }
      if (
        route[2] === 'conversation' &&
        (route[3] === 'read' || route[3] === 'delivered') &&
        method === 'POST'
      ) {
        if (route[3] === 'read') {
          const latest = this.messages.filter((m) => m.conversationId === conversationId).at(-1);
          this.#lastRead.set(`${uid}|${conversationId}`, Number(latest?.id ?? 0));
        }
        return json(res, 200, { data: {} });
      }
      if (route[2] === 'messages' && method === 'GET') {
        const perPage = Number(query.per_page ?? 30);
        const inConversation = this.messages.filter(
          (m) => m.conversationId === conversationId && this.#visible(uid, m),
        );
        const bound = query.id !== undefined ? Number(query.id) : undefined;
        let data: FakeMessage[];
        if (query.affix === 'append') {
          data = inConversation.filter((m) => bound === undefined || Number(m.id) > bound).slice(0, perPage);
        } else {
          data = inConversation.filter((m) => bound === undefined || Number(m.id) < bound).slice(-perPage);
        }
        const edge = query.affix === 'append' ? data.at(-1) : data[0];
        const meta = edge
          ? { cursor: { affix: query.affix ?? 'prepend', id: edge.id, sentAt: edge.sentAt } }
          : undefined;
        return json(res, 200, { data, ...(meta ? { meta } : {}) });
      }
    }

    if (method === 'GET' && route[0] === 'users' && route.length === 1) {
      const roles = query.roles?.split(',');
      const data = [...this.users.values()]
        .filter((user) => !roles || roles.includes(user.role))
        .map((user) => this.#userEntity(user.uid));
      return json(res, 200, {
        data,
        meta: {
          pagination: {
            total: data.length,
            count: data.length,
            per_page: 100,
            current_page: 1,
            total_pages: 1,
          },
        },
      });
    }

    if (method === 'POST' && route[0] === 'messages' && route.length === 1) {
      const request = body as {
        receiver?: string;
        receiverType?: 'user' | 'group';
        category?: string;
        type?: string;
        data?: Record<string, unknown>;
        muid?: string;
      };
      if (!request?.receiver || !request.receiverType || !request.data) {
        return fail(res, 400, 'ERR_BAD_REQUEST', 'receiver, receiverType and data are required');
      }
      if (
        request.category === 'message' &&
        request.type === 'text' &&
        typeof request.data.text !== 'string'
      ) {
        return fail(res, 400, 'ERR_BAD_REQUEST', 'data.text: text is required');
      }
      const resource = req.headers['resource'];
      const message = this.#store(
        uid,
        request.receiver,
        request.receiverType,
        {
          ...(request.category ? { category: request.category } : {}),
          ...(request.type ? { type: request.type } : {}),
          data: request.data,
          ...(request.muid ? { muid: request.muid } : {}),
        },
        typeof resource === 'string' ? resource : '',
      );
      return json(res, 200, { data: message });
    }

    if (method === 'PATCH' && route[0] === 'messages' && route[2] === 'interacted') {
      const message = this.messages.find((m) => m.id === route[1]);
      if (!message) return fail(res, 404, 'ERR_MESSAGE_NOT_FOUND', `no message ${route[1]}`);
      const ids = (body as { interactions?: string[] })?.interactions ?? [];
      const at = this.#tick();
      const interactions = [
        ...((message.data.interactions as { elementId: string }[] | undefined) ?? []).filter(
          (interaction) => !ids.includes(interaction.elementId),
        ),
        ...ids.map((elementId) => ({ elementId, interactedAt: at })),
      ];
      message.data.interactions = interactions;
      const resource = req.headers['resource'];
      this.#push([message.sender, uid], {
        type: 'interaction_completed',
        receiver: message.receiver,
        receiverType: message.receiverType,
        sender: uid,
        deviceId: typeof resource === 'string' ? resource : '',
        body: { messageId: message.id, user: this.#userEntity(uid), interactions },
      });
      return json(res, 200, { data: { message: 'interacted' } });
    }

    if (method === 'POST' && route[0] === 'user_sessions') return json(res, 200, { data: {} });
    return fail(res, 404, 'ERR_ROUTE_NOT_FOUND', `no route ${method} ${url.pathname}`);
  }

  #onSocket(socket: WebSocket): void {
    socket.on('message', (raw) => {
      let frame: Record<string, unknown>;
      try {
        frame = JSON.parse(String(raw)) as Record<string, unknown>;
      } catch {
        return;
      }
      if (frame.action === 'ping') {
        socket.send(JSON.stringify({ action: 'pong' }));
        return;
      }
      if (frame.type === 'auth') {
        const body = frame.body as { auth?: string; deviceId?: string };
        const uid = body?.auth ? this.#jwts.get(body.auth) : undefined;
        if (!uid) {
          socket.close(4401, 'bad jwt');
          return;
        }
        const firstSocket = !this.connectedUids().includes(uid);
        this.#sockets.set(socket, { uid, deviceId: String(body.deviceId ?? '') });
        socket.send(JSON.stringify({ type: 'auth', body: { code: '200', status: 'OK' } }));
        if (firstSocket) this.#presence(uid, 'online');
        return;
      }
      const session = this.#sockets.get(socket);
      if (!session) return;
      this.framesReceived.push({ uid: session.uid, frame });
      const receiver = String(frame.receiver ?? '');
      const group = frame.receiverType === 'group' ? this.groups.get(receiver) : undefined;
      if (frame.type === 'typing_indicator') {
        const to = group ? [...group.members].filter((m) => m !== session.uid) : [receiver];
        this.#push(to, { ...frame, sender: session.uid, deviceId: session.deviceId });
      }
      if (frame.type === 'receipts') {
        const body = frame.body as { messageId?: string; action?: string };
        const message = this.messages.find((m) => m.id === body?.messageId);
        if (message && body.action === 'read') message.readAt = this.#tick();
        if (message && body.action === 'delivered') message.deliveredAt = this.#tick();
        const to = String(frame.messageSender ?? '');
        this.#push([to], {
          ...frame,
          sender: session.uid,
          deviceId: session.deviceId,
          body: { ...body, timestamp: this.#clock },
        });
      }
    });
    socket.on('close', () => {
      const uid = this.#sockets.get(socket)?.uid;
      this.#sockets.delete(socket);
      if (uid && !this.connectedUids().includes(uid)) this.#presence(uid, 'offline');
    });
  }

  /** Presence comes from connections (the SDK never sends it): the first socket up, the last one down. */
  #presence(uid: string, action: 'online' | 'offline'): void {
    const others = this.connectedUids().filter((other) => other !== uid);
    this.#push(others, {
      type: 'presence',
      sender: uid,
      body: { action, user: this.#userEntity(uid), timestamp: this.#clock },
    });
  }
}
