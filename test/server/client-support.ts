import WebSocket from 'ws';
import type { ChatServer } from '../../server/index.js';

export interface Frame {
  type?: string;
  action?: string;
  sender?: string;
  deviceId?: string;
  body?: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary frames
}

/** A logged-in client of the client protocol: REST with its auth token, and an authenticated socket. */
export interface TestClient {
  uid: string;
  authToken: string;
  jwt: string;
  deviceId: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Every frame received so far. */
  frames: Frame[];
  /** Sends a frame on the socket. */
  send(frame: unknown): void;
  /** The first frame (past or future) that matches. */
  next(match: (frame: Frame) => boolean, what: string, timeoutMs?: number): Promise<Frame>;
  /** Settles with the close code and reason once the server (or `close`) closes the socket. */
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

let devices = 0;

/** Logs `uid` in by auth key over the client API and opens its socket, as the SDK does. */
export async function connectClient(
  server: Pick<ChatServer, 'url'>,
  app: { appId: string; authKey: string },
  uid: string,
  options: { socket?: boolean } = {},
): Promise<TestClient> {
  const deviceId = `test-device-${(devices += 1)}`;
  const headers = { appId: app.appId, resource: deviceId, 'content-type': 'application/json' };
  const login = await fetch(`${server.url}/v3/users/${uid}/auth_tokens`, {
    method: 'POST',
    headers: { ...headers, apiKey: app.authKey },
    body: JSON.stringify({ platform: 'WEB', deviceId }),
  });
  const authToken = ((await login.json()) as { data: { authToken: string } }).data.authToken;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/v3${path}`, {
      method,
      headers: { ...headers, authToken },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  const jwt = ((await call('PUT', '/me', {})).body as { data: { jwt: string } }).data.jwt;
  const frames: Frame[] = [];
  const waiters: { match: (frame: Frame) => boolean; resolve: (frame: Frame) => void }[] = [];
  const taken = new Set<Frame>();
  let socket: WebSocket | undefined;
  let closed = new Promise<{ code: number; reason: string }>(() => undefined);
  if (options.socket !== false) {
    socket = new WebSocket(server.url.replace(/^http/, 'ws'));
    const opened = socket;
    closed = new Promise((resolve) =>
      opened.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      frames.push(frame);
      const waiter = waiters.find((candidate) => candidate.match(frame));
      if (waiter !== undefined) {
        waiters.splice(waiters.indexOf(waiter), 1);
        taken.add(frame);
        waiter.resolve(frame);
      }
    });
    await new Promise<void>((resolve, reject) => {
      socket?.once('open', () => resolve());
      socket?.once('error', reject);
    });
    const authenticated = new Promise<void>((resolve) =>
      waiters.push({ match: (frame) => frame.type === 'auth', resolve: () => resolve() }),
    );
    socket.send(
      JSON.stringify({
        appId: app.appId,
        deviceId,
        type: 'auth',
        sender: uid,
        body: { auth: jwt, deviceId, presenceSubscription: 'ALL_USERS' },
      }),
    );
    await authenticated;
  }
  return {
    uid,
    authToken,
    jwt,
    deviceId,
    call,
    frames,
    closed,
    send: (frame) => socket?.send(JSON.stringify(frame)),
    next: (match, what, timeoutMs = 15_000) => {
      const seen = frames.find((frame) => !taken.has(frame) && match(frame));
      if (seen !== undefined) {
        taken.add(seen);
        return Promise.resolve(seen);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`no ${what} within ${timeoutMs} ms; frames: ${JSON.stringify(frames.slice(-5))}`),
            ),
          timeoutMs,
        );
        waiters.push({
          match,
          resolve: (frame) => {
            clearTimeout(timer);
            resolve(frame);
          },
        });
      });
    },
    close: async () => {
      if (socket === undefined || socket.readyState === WebSocket.CLOSED) return;
      const closed = new Promise<void>((resolve) => socket?.once('close', () => resolve()));
      socket.close();
      await closed;
    },
  };
}
