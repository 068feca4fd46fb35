import type { RealtimeFrame } from './types.js';

/** The part of the browser's WebSocket the channel uses; `ws`'s WebSocket fits it too. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketFactory = (url: string) => SocketLike;

const OPEN = 1;

export interface KeepAliveOptions {
  /** How often to ping once authenticated; the SDK pings every 15 s (§3.5). */
  intervalMs: number;
  /** How long to wait for the pong before giving the socket up; the SDK waits 3 s. */
  pongTimeoutMs: number;
  /** How long to wait for the answer to the auth frame. */
  authTimeoutMs: number;
}

export interface BackoffOptions {
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_KEEP_ALIVE: KeepAliveOptions = {
  intervalMs: 15_000,
  pongTimeoutMs: 3_000,
  authTimeoutMs: 10_000,
};
export const DEFAULT_BACKOFF: BackoffOptions = { initialDelayMs: 500, maxDelayMs: 10_000 };

/**
 * Exponential backoff with jitter: the n-th retry waits between half and all of
 * `initial * 2^n` (capped), so clients cut off together do not all return in the same instant.
 */
export function reconnectDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/**
 * `connecting`: socket opening or auth frame sent; `connected`: the service accepted the auth frame;
 * `waiting`: lost, a reconnect is scheduled; `stopped`: closed on purpose.
 */
export type ChannelState = 'connecting' | 'connected' | 'waiting' | 'stopped';

export interface RealtimeChannelOptions {
  url: string;
  createSocket: SocketFactory;
  /** The auth frame to send on open; `fresh` asks for a new JWT after the service refused the last one. */
  authFrame: (fresh: boolean) => Promise<RealtimeFrame>;
  onFrame: (frame: RealtimeFrame) => void;
  onState: (state: ChannelState) => void;
  keepAlive?: Partial<KeepAliveOptions>;
  backoff?: Partial<BackoffOptions>;
}

/**
 * The WebSocket of the client protocol (§3): authenticates with the JWT, keeps the socket alive
 * with ping/pong, and reconnects with backoff when it is lost, until stopped.
 */
export class RealtimeChannel {
  #state: ChannelState = 'stopped';
  #socket: SocketLike | undefined;
  #attempt = 0;
  /** Bumped by start and stop, so a connect still awaiting its JWT knows it was superseded. */
  #generation = 0;
  #authRefused = false;
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #pingTimer: ReturnType<typeof setInterval> | undefined;
  #pongTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #keepAlive: KeepAliveOptions;
  readonly #backoff: BackoffOptions;

  constructor(private readonly options: RealtimeChannelOptions) {
    this.#keepAlive = { ...DEFAULT_KEEP_ALIVE, ...options.keepAlive };
    this.#backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  }

  get state(): ChannelState {
    return this.#state;
  }

  start(): void {
    if (this.#state !== 'stopped') return;
    this.#generation++;
    this.#attempt = 0;
    void this.#connect();
  }

  stop(): void {
    this.#generation++;
    this.#setState('stopped');
    this.#clearTimers();
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket) this.#detach(socket);
    socket?.close(1000, 'logout');
  }

  /** Skips the wait of a scheduled reconnect, e.g. when the browser reports it is online again. */
  reconnectNow(): void {
    if (this.#state !== 'waiting') return;
    this.#clearTimers();
    void this.#connect();
  }

  /** Sends a frame if the channel is connected; false otherwise. */
  send(frame: RealtimeFrame | Record<string, unknown>): boolean {
    if (this.#state !== 'connected' || this.#socket?.readyState !== OPEN) return false;
    this.#socket.send(JSON.stringify(frame));
    return true;
  }

  async #connect(): Promise<void> {
    const generation = this.#generation;
    this.#setState('connecting');
    let auth: RealtimeFrame;
    try {
      auth = await this.options.authFrame(this.#authRefused);
    } catch {
      // The service could not give a JWT (it is probably down): try again later.
      if (generation === this.#generation) this.#scheduleReconnect();
      return;
    }
    if (generation !== this.#generation) return;
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url);
    } catch {
      this.#scheduleReconnect();
      return;
    }
    this.#socket = socket;
    let authenticated = false;
    // Gives the socket up at once: on a dead network its closing handshake would never finish.
    const lost = (refused: boolean) => {
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      this.#detach(socket);
      this.#stopPinging();
      // Opened but never accepted: the service may have refused the JWT, so the next try asks for a fresh one.
      if (refused) this.#authRefused = true;
      socket.close();
      if (this.#state !== 'stopped') this.#scheduleReconnect();
    };
    socket.onopen = () => {
      socket.send(JSON.stringify(auth));
      this.#after(this.#keepAlive.authTimeoutMs, () => {
        if (!authenticated) lost(true);
      });
    };
    socket.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      let frame: unknown;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame === null || typeof frame !== 'object') return;
      if ((frame as { action?: unknown }).action === 'pong') {
        clearTimeout(this.#pongTimer);
        return;
      }
      const typed = frame as RealtimeFrame;
      if (typed.type === 'auth') {
        const body = typed.body as { code?: unknown; status?: unknown } | undefined;
        // The SDK compares the code as the string "200" (§3.2).
        if (String(body?.code) === '200' && body?.status === 'OK' && !authenticated) {
          authenticated = true;
          this.#authRefused = false;
          this.#attempt = 0;
          this.#startPinging(socket, () => lost(false));
          this.#setState('connected');
        }
        return;
      }
      this.options.onFrame(typed);
    };
    socket.onerror = () => {
      // A close always follows an error; reconnecting is handled there.
    };
    socket.onclose = () => lost(!authenticated);
  }

  #startPinging(socket: SocketLike, onSilent: () => void): void {
    this.#stopPinging();
    this.#pingTimer = setInterval(() => {
      if (socket.readyState !== OPEN) return;
      socket.send(JSON.stringify({ action: 'ping', ack: 'true' }));
      clearTimeout(this.#pongTimer);
      this.#pongTimer = setTimeout(onSilent, this.#keepAlive.pongTimeoutMs);
    }, this.#keepAlive.intervalMs);
  }

  #stopPinging(): void {
    clearInterval(this.#pingTimer);
    clearTimeout(this.#pongTimer);
  }

  #scheduleReconnect(): void {
    this.#setState('waiting');
    const delay = reconnectDelay(this.#attempt++, this.#backoff);
    this.#after(delay, () => {
      if (this.#state === 'waiting') void this.#connect();
    });
  }

  #after(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    this.#timers.add(timer);
  }

  #clearTimers(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#stopPinging();
  }

  #detach(socket: SocketLike): void {
    socket.onopen = socket.onmessage = socket.onclose = null;
    // Closing a socket that is still connecting reports an error; a listener keeps it from being unhandled.
    socket.onerror = () => {};
  }

  #setState(state: ChannelState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.options.onState(state);
  }
}
