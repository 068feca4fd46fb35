import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { zodErrorToEnvelope } from '../../shared/errors.js';
import type { UserEntity } from '../../shared/message.js';
import {
  AuthFrame,
  PingFrame,
  SOCKET_REQUEST_TYPES,
  SocketRequest,
  type FrameError,
  type RealtimeFrame,
} from '../../shared/realtime.js';
import type { Receipts } from '../client-api/receipts.js';
import type { SocketTokens } from '../client-api/socket-token.js';
import type { Logger } from '../log.js';
import { toUserEntity } from '../repositories/users.js';
import type { ChatCore } from '../services/registry.js';
import { SESSION_ENDED, type FanOut, type Subscriber } from './fan-out.js';
import { AUTH_OK, PONG, spendFrame, type FrameBudget } from './frames.js';

/** A frame is a small JSON object; nothing the client sends needs more. Larger ones close the socket (1009). */
const MAX_FRAME_BYTES = 64 * 1024;
const AUTH_TIMEOUT_MS = 15_000;
/** Protocol-level pings find sockets whose peer vanished without closing them. */
const HEARTBEAT_MS = 30_000;
/** Frames other than pings a socket may send per second; more are dropped unanswered. */
const FRAMES_PER_SECOND = 20;

interface Connection extends Subscriber {
  user: UserEntity;
}

/** Whose presence changed: the user, and the device that changed it. */
type PresenceOf = Pick<Connection, 'appId' | 'uid' | 'deviceId' | 'user'>;

type TypingRequest = Extract<SocketRequest, { type: 'typing_indicator' | 'transient_message' }>;
type ReceiptRequest = Extract<SocketRequest, { type: 'receipts' }>;

/** A frame as the socket sent it: a JSON object, told apart by its `type` or its `action`. */
type Incoming = Record<string, unknown>;

const isRecord = (value: unknown): value is Incoming =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A function, so the check is not narrowed away by the `OPEN` check before the awaits that precede it. */
const isClosed = (socket: WebSocket): boolean => socket.readyState === socket.CLOSED;

/** The answer to a frame the service cannot take, naming what is wrong. */
const frameError = (message: string): string =>
  JSON.stringify({ type: 'error', body: { code: '400', status: 'ERROR', message } } satisfies FrameError);

const AUTH_REFUSED = JSON.stringify({
  type: 'auth',
  body: { code: '401', status: 'ERROR', message: 'invalid auth' },
});

export interface SocketServerDeps {
  core: ChatCore;
  fanOut: FanOut;
  socketTokens: SocketTokens;
  receipts: Receipts;
  logger: Logger;
}

/**
 * The WebSocket of the client protocol on the HTTP server's own port, at `/`: the auth frame with
 * the JWT of `/me`, ping/pong, typing and transient messages relayed, receipts stored and relayed,
 * presence from connections. Messages reach sockets through the fan-out (see chat-events.ts).
 * Every frame is checked against its schema in shared/realtime.ts: one that is not JSON, or whose
 * fields are wrong, is answered with an `error` frame naming the field and changes nothing.
 */
export class SocketServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private readonly alive = new WeakSet<WebSocket>();
  /** Status writes per user, in the order the user came and went. */
  private readonly statusWrites = new Map<string, Promise<void>>();

  constructor(private readonly deps: SocketServerDeps) {
    this.wss.on('connection', (socket) => this.accept(socket));
    this.heartbeat = setInterval(() => this.checkAlive(), HEARTBEAT_MS);
    this.heartbeat.unref();
    deps.fanOut.onPresenceExpired((appId, uid) => void this.expired(appId, uid));
  }

  /** Takes WebSocket upgrades on `/` of this HTTP(S) server. */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path !== '/') {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(request, socket, head, (ws) => this.wss.emit('connection', ws, request));
    });
  }

  get connections(): number {
    return this.wss.clients.size;
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const socket of this.wss.clients) socket.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await Promise.all(this.statusWrites.values());
  }

  private checkAlive(): void {
    for (const socket of this.wss.clients) {
      if (!this.alive.has(socket)) {
        socket.terminate();
        continue;
      }
      this.alive.delete(socket);
      socket.ping();
    }
  }

  private accept(socket: WebSocket): void {
    this.alive.add(socket);
    socket.on('pong', () => this.alive.add(socket));
    let connection: Connection | undefined;
    let authenticating = false;
    const budget: FrameBudget = { second: 0, spent: 0 };
    const authTimer = setTimeout(() => {
      if (connection === undefined) socket.close(4000, 'no auth frame');
    }, AUTH_TIMEOUT_MS);
    socket.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) return;
      const frame = this.parse(data);
      if (typeof frame !== 'string' && PingFrame.safeParse(frame).success) {
        socket.send(PONG);
        return;
      }
      // Bad frames are answered, so they count too: a flood is cut off, not answered.
      if (!spendFrame(budget, Date.now(), FRAMES_PER_SECOND)) return;
      if (typeof frame === 'string' || typeof frame.type !== 'string') {
        socket.send(frameError(typeof frame === 'string' ? frame : 'type: must name the kind of frame'));
        return;
      }
      if (connection === undefined) {
        if (frame.type !== 'auth' || authenticating) return;
        authenticating = true;
        void this.authenticate(socket, frame).then((authenticated) => {
          authenticating = false;
          if (authenticated === undefined) return;
          clearTimeout(authTimer);
          connection = authenticated;
        });
        return;
      }
      if (!SOCKET_REQUEST_TYPES.has(frame.type)) return;
      const request = SocketRequest.safeParse(frame);
      if (!request.success) {
        socket.send(frameError(zodErrorToEnvelope(request.error).error.message));
        return;
      }
      void this.handle(connection, request.data).catch((error: unknown) =>
        this.deps.logger.warn('socket_frame_failed', {
          appId: connection?.appId,
          type: request.data.type,
          error: error instanceof Error ? error.name : 'unknown',
        }),
      );
    });
    socket.on('close', () => {
      clearTimeout(authTimer);
      if (connection !== undefined) this.leave(connection);
    });
    socket.on('error', () => socket.terminate());
  }

  /** The frame as an object, or what is wrong with it. */
  private parse(data: RawData): Incoming | string {
    let frame: unknown;
    try {
      frame = JSON.parse(data.toString());
    } catch {
      return 'the frame is not JSON';
    }
    return isRecord(frame) ? frame : 'the frame is not a JSON object';
  }

  private async authenticate(socket: WebSocket, frame: Incoming): Promise<Connection | undefined> {
    const parsed = AuthFrame.safeParse(frame);
    const auth = parsed.success ? parsed.data : undefined;
    const identity = auth === undefined ? undefined : await this.deps.socketTokens.verify(auth.body.auth);
    const user =
      identity === undefined ? undefined : await this.deps.core.users.find(identity.appId, identity.uid);
    if (
      auth === undefined ||
      identity === undefined ||
      user === undefined ||
      (auth.appId !== undefined && auth.appId !== identity.appId)
    ) {
      // The SDK does not handle a refusal; closing makes it retry with whatever it has.
      socket.send(AUTH_REFUSED);
      socket.close(4001, 'invalid auth');
      return undefined;
    }
    const { body } = auth;
    const connection: Connection = {
      appId: identity.appId,
      uid: identity.uid,
      authToken: identity.authToken,
      deviceId: body.deviceId?.slice(0, 200) ?? `socket-${Date.now()}`,
      user: { ...toUserEntity(user), status: 'online' },
      presence: body.presenceSubscription ?? 'NONE',
      roles: body.roles ?? [],
      send: (text) => {
        if (socket.readyState === socket.OPEN) socket.send(text);
      },
      close: (code, reason) => socket.close(code, reason),
    };
    if (socket.readyState !== socket.OPEN) return undefined;
    socket.send(AUTH_OK);
    const first = await this.deps.fanOut.subscribe(connection).catch((error: unknown) => {
      this.presenceFailed(connection.appId, error);
      return false;
    });
    if (first) {
      this.announcePresence(connection, 'online');
      this.storeStatus(connection, 'available');
    }
    // A session revoked while this socket was being checked found no socket to close: look again.
    if ((await this.deps.core.authTokens.find(connection.appId, connection.authToken)) === undefined)
      connection.close(SESSION_ENDED.code, SESSION_ENDED.reason);
    // Closed while its presence was being recorded: its close event found no connection to end.
    if (isClosed(socket)) {
      this.leave(connection);
      return undefined;
    }
    return connection;
  }

  /** A socket closed: the user goes offline if it was their last one anywhere. */
  private leave(connection: Connection): void {
    void this.deps.fanOut.unsubscribe(connection).then(
      (last) => {
        if (!last) return;
        this.announcePresence(connection, 'offline');
        this.storeStatus(connection, 'offline');
      },
      (error: unknown) => this.presenceFailed(connection.appId, error),
    );
  }

  private presenceFailed(appId: string, error: unknown): void {
    this.deps.logger.warn('presence_update_failed', {
      appId,
      error: error instanceof Error ? error.name : 'unknown',
    });
  }

  /** A user whose sockets were all in a process that died: offline now, as if they had closed. */
  private async expired(appId: string, uid: string): Promise<void> {
    const user = await this.deps.core.users.find(appId, uid);
    if (user === undefined) return;
    const gone = { appId, uid, deviceId: 'expired', user: toUserEntity(user) };
    this.announcePresence(gone, 'offline');
    this.storeStatus(gone, 'offline');
  }

  /** Keeps the user's `status` current for lists and filters (`GET /users?status=available`). */
  private storeStatus(connection: PresenceOf, status: 'available' | 'offline'): void {
    const key = `${connection.appId} ${connection.uid}`;
    const write = (this.statusWrites.get(key) ?? Promise.resolve())
      .then(() => this.deps.core.users.setStatus(connection.appId, connection.uid, status))
      .catch((error: unknown) =>
        this.deps.logger.warn('presence_store_failed', {
          appId: connection.appId,
          error: error instanceof Error ? error.name : 'unknown',
        }),
      );
    this.statusWrites.set(key, write);
    void write.then(() => {
      if (this.statusWrites.get(key) === write) this.statusWrites.delete(key);
    });
  }

  /** Tells sockets of the app (in every process) that watch the user that they came online or went offline. */
  private announcePresence(connection: PresenceOf, action: 'online' | 'offline'): void {
    this.deps.fanOut.publishPresence(
      connection.appId,
      {
        appId: connection.appId,
        type: 'presence',
        sender: connection.uid,
        deviceId: connection.deviceId,
        body: {
          action,
          user: { ...connection.user, status: action, lastActiveAt: Math.floor(Date.now() / 1000) },
          timestamp: Math.floor(Date.now() / 1000),
        },
      },
      connection.user.role,
    );
  }

  private async handle(connection: Connection, request: SocketRequest): Promise<void> {
    return request.type === 'receipts' ? this.receipt(connection, request) : this.relay(connection, request);
  }

  /** Who a frame addressed to `receiver` reaches: the other user and oneself, or a group's members. */
  private async audience(
    connection: Connection,
    receiver: string,
    receiverType: 'user' | 'group',
  ): Promise<readonly string[]> {
    const { groups } = this.deps.core;
    if (receiverType === 'user') return [receiver, connection.uid];
    if ((await groups.member(connection.appId, receiver, connection.uid)) === undefined) return [];
    return groups.memberUids(connection.appId, receiver);
  }

  /** Typing indicators and transient messages: passed on, never stored, sender fixed to the socket's user. */
  private async relay(connection: Connection, request: TypingRequest): Promise<void> {
    const { receiver, receiverType } = request;
    const relayed: RealtimeFrame = {
      appId: connection.appId,
      receiver,
      receiverType,
      deviceId: connection.deviceId,
      type: request.type,
      sender: connection.uid,
      body:
        request.type === 'typing_indicator'
          ? {
              action: request.body.action,
              user: connection.user,
              ...(request.body.metadata === undefined ? {} : { metadata: request.body.metadata }),
            }
          : { user: connection.user, data: request.body.data },
    };
    this.deps.fanOut.publish(
      connection.appId,
      await this.audience(connection, receiver, receiverType),
      relayed,
    );
  }

  /** A read or delivery receipt: stored as the reader's pointer, then passed to the message's sender. */
  private async receipt(connection: Connection, request: ReceiptRequest): Promise<void> {
    const { action, messageId } = request.body;
    const { messages, groups } = this.deps.core;
    const row = await messages.find(connection.appId, Number(messageId));
    if (row === undefined || row.sender === connection.uid) return;
    const visible =
      row.receiverType === 'user'
        ? row.receiver === connection.uid
        : (await groups.member(connection.appId, row.receiver, connection.uid)) !== undefined;
    if (!visible) return;
    await this.deps.receipts.give(connection.appId, connection.user, row, action, connection.deviceId);
  }
}
