import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { silentLogger, type Logger, type StorageEngine } from '../../../server/index.js';
import { NotificationEngine, type NotificationOptions } from '../../../server/notifications/index.js';
import { createTestStore, startTestServer, type TestServer, type TestStore } from '../support.js';
import { PushServiceStandIn, SmtpSink } from './mail-and-push.js';

/** A clock the test moves by hand. */
export class ManualClock {
  constructor(private current = Date.parse('2026-01-05T12:00:00Z')) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(iso: string): void {
    this.current = Date.parse(iso);
  }
}

export interface NotifiedServer {
  api: TestServer;
  engine: NotificationEngine;
  close(): Promise<void>;
}

/**
 * The real chat server whose notifications engine runs with the test's options (clock, presence,
 * timing); both log to `logger` (nowhere by default).
 */
export async function startNotifiedServer(
  store: TestStore,
  options: NotificationOptions = {},
  logger: Logger = silentLogger,
): Promise<NotifiedServer> {
  const api = await startTestServer(store, { logger });
  await api.server.notifications.stop();
  const engine = new NotificationEngine(api.server.core, logger, {
    pollIntervalMs: false,
    ...options,
  }).start();
  return {
    api,
    engine,
    close: async () => {
      await engine.stop();
      await api.close();
    },
  };
}

/** Everything a provider can call, standing in on loopback ports. */
export interface ProviderStandIns {
  /** FCM with Google's OAuth, APNs, SendGrid and Twilio. */
  hosted: HostedServices;
  /** The custom providers' webhooks. */
  receiver: Receiver;
  smtp: SmtpSink;
  pushService: PushServiceStandIn;
}

export interface NotificationFixture extends ProviderStandIns {
  store: TestStore;
  server: NotifiedServer;
  /** Calls the server API as app one unless told otherwise. */
  call: TestServer['call'];
}

export interface NotificationFixtureSetup {
  /** The SMTP server's one account, when it requires authentication. */
  smtpAccount?: { username: string; password: string };
  /** Runs on the fresh store, left empty, before the server opens (and migrates) it. */
  beforeServer?: (store: TestStore, standIns: ProviderStandIns) => Promise<void>;
  /** The engine's options, which may name the stand-ins (`providerBaseUrls: hosted.baseUrls`). */
  options?: (standIns: ProviderStandIns) => NotificationOptions;
  logger?: Logger;
}

/**
 * Registers the hooks that give the enclosing describe block a notified server (startNotifiedServer)
 * on a fresh store of `engine`, with every provider's stand-in, started before its tests and closed
 * after them. The returned fixture is usable inside hooks and tests.
 */
export function useNotificationFixture(
  engine: StorageEngine,
  setup: NotificationFixtureSetup = {},
): NotificationFixture {
  let started: NotificationFixture | undefined;
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    const store = await createTestStore(engine, { empty: setup.beforeServer !== undefined });
    closers.push(() => store.dispose());
    const [hosted, receiver, smtp, pushService] = await Promise.all([
      HostedServices.start(),
      Receiver.start(),
      SmtpSink.start(setup.smtpAccount),
      PushServiceStandIn.start(),
    ]);
    const standIns = { hosted, receiver, smtp, pushService };
    closers.push(...Object.values(standIns).map((standIn) => () => standIn.close()));
    await setup.beforeServer?.(store, standIns);
    const server = await startNotifiedServer(store, setup.options?.(standIns), setup.logger);
    closers.push(() => server.close());
    started = { ...standIns, store, server, call: (...args) => server.api.call(...args) };
  });
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  const running = (): NotificationFixture => {
    if (started === undefined)
      throw new Error('the notification fixture is not started: use it inside a test');
    return started;
  };
  return {
    get store() {
      return running().store;
    },
    get server() {
      return running().server;
    },
    get hosted() {
      return running().hosted;
    },
    get receiver() {
      return running().receiver;
    },
    get smtp() {
      return running().smtp;
    },
    get pushService() {
      return running().pushService;
    },
    call: (...args) => running().call(...args),
  };
}

/**
 * Hands out what the engine decided: pushes at once, then the e-mail and SMS batches of a 60 s
 * digest interval, due once `clock` has moved past it.
 */
export async function deliverPastDigestInterval(
  engine: NotificationEngine,
  clock: ManualClock,
): Promise<void> {
  await engine.idle();
  await engine.runDue();
  clock.advance(61_000);
  await engine.runDue();
  await engine.runDue();
}

export interface ReceivedCall {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  raw: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  body: any;
}

export type ReceiverMode = 'ok' | 'fail' | 'hang' | 'redirect';

/** A real webhook receiver on an ephemeral port whose answer the test chooses. */
export class Receiver {
  readonly calls: ReceivedCall[] = [];
  mode: ReceiverMode = 'ok';
  private readonly hanging: ServerResponse[] = [];
  private readonly server: Server;
  url = '';

  private constructor() {
    this.server = createServer((request, response) => {
      let raw = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (raw += chunk));
      request.on('end', () => this.answer(request.url ?? '/', request.headers, raw, response));
    });
  }

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  private answer(path: string, headers: IncomingHttpHeaders, raw: string, response: ServerResponse): void {
    this.calls.push({ path, headers, raw, body: JSON.parse(raw) });
    if (this.mode === 'hang') {
      this.hanging.push(response);
      return;
    }
    if (this.mode === 'redirect') {
      response.writeHead(302, { location: `${this.url}/elsewhere` }).end();
      return;
    }
    response.writeHead(this.mode === 'ok' ? 200 : 500).end(this.mode);
  }

  callsTo(path: string): ReceivedCall[] {
    return this.calls.filter((call) => call.path === path);
  }

  /** Waits (polling) until `count` calls reached `path`; fails the test if they never do. */
  async waitForCalls(path: string, count: number): Promise<ReceivedCall[]> {
    await expect
      .poll(() => this.callsTo(path).length, { timeout: 15_000, interval: 20 })
      .toBeGreaterThanOrEqual(count);
    return this.callsTo(path);
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const SECRET = 'test-webhook-secret-0123';

/** An enabled SendGrid provider as an operator saves it; its API key must never come back. */
export const SENDGRID_PROVIDER = {
  sendGridApiKey: 'SG.secret-api-key',
  sendGridTemplateID: `d-${'0'.repeat(31)}1`,
  sendGridUnsubscribeGroupID: '4242',
  senderName: 'Parley',
  senderEmail: 'notify@example.com',
  allowEmailReplies: false,
  isEnabled: true,
};

/** An enabled Twilio provider as an operator saves it; its auth token must never come back. */
export const TWILIO_PROVIDER = {
  twilioAccountSID: `AC${'a'.repeat(32)}`,
  twilioAuthToken: 'twilio-secret-token',
  twilioSenderPhoneNumber: '+14155550100',
  isEnabled: true,
};

type Call = TestServer['call'];

/**
 * Makes `url` the channel's custom provider (CometChat's webhook, signed with SECRET), first
 * letting the app call the receiver's loopback origin, as an operator must for a private address.
 */
export async function useWebhook(
  call: Call,
  channel: 'push' | 'email' | 'sms',
  url: string,
  options: { enabled?: boolean; app?: { apikey: string; appId: string } } = {},
): Promise<Awaited<ReturnType<Call>>> {
  const as = options.app ?? {};
  await call('PATCH', '/client-settings', { body: { apiActionOrigins: [new URL(url).origin] }, ...as });
  const stored =
    channel === 'email' ? { useStoredEmailID: false } : channel === 'sms' ? { useStoredPhNo: false } : {};
  return call('POST', `/notifications/${channel}/v1/providers/custom`, {
    body: {
      isEnabled: options.enabled ?? true,
      webhookURL: url,
      useBasicAuth: false,
      signingSecret: SECRET,
      ...stored,
    },
    ...as,
  });
}

export interface HostedCall {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

export type Answer = { status: number; body?: unknown };

/** A hosted service (FCM, APNs, SendGrid, Twilio) standing in at its configured base URL: an HTTP/1.1 or h2c server recording calls and answering by path. */
export class StandIn {
  readonly calls: HostedCall[] = [];
  url = '';
  answer: (call: HostedCall) => Answer = () => ({ status: 200, body: {} });
  private readonly server: Server | Http2Server;

  private constructor(http2: boolean) {
    const handler = (
      request: {
        url?: string;
        headers: IncomingHttpHeaders;
        setEncoding(e: 'utf8'): void;
        on(e: string, f: (c?: string) => void): void;
      },
      response: { writeHead(s: number, h: Record<string, string>): { end(b: string): void } },
    ) => {
      let raw = '';
      request.setEncoding('utf8');
      request.on('data', (chunk) => (raw += chunk ?? ''));
      request.on('end', () => {
        const call = { path: request.url ?? '/', headers: request.headers, raw };
        this.calls.push(call);
        const { status, body } = this.answer(call);
        response
          .writeHead(status, { 'content-type': 'application/json' })
          .end(body === undefined ? '' : JSON.stringify(body));
      });
    };
    this.server = http2 ? createHttp2Server(handler as never) : createServer(handler as never);
  }

  static async start(http2 = false): Promise<StandIn> {
    const standIn = new StandIn(http2);
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
    standIn.url = `http://127.0.0.1:${(standIn.server.address() as AddressInfo).port}`;
    return standIn;
  }

  callsTo(prefix: string): HostedCall[] {
    return this.calls.filter((call) => call.path.startsWith(prefix));
  }

  async close(): Promise<void> {
    if ('closeAllConnections' in this.server) this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The hosted services standing in together: Google (OAuth and FCM), APNs over h2c, SendGrid, Twilio. */
export class HostedServices {
  private constructor(
    readonly google: StandIn,
    readonly apple: StandIn,
    readonly sendgrid: StandIn,
    readonly twilio: StandIn,
  ) {}

  static async start(): Promise<HostedServices> {
    const [google, apple, sendgrid, twilio] = await Promise.all([
      StandIn.start(),
      StandIn.start(true),
      StandIn.start(),
      StandIn.start(),
    ]);
    return new HostedServices(google, apple, sendgrid, twilio);
  }

  /** `NotificationOptions.providerBaseUrls` naming the stand-ins. */
  get baseUrls(): NonNullable<NotificationOptions['providerBaseUrls']> {
    return {
      fcm: this.google.url,
      googleOAuth: this.google.url,
      apns: this.apple.url,
      sendgrid: this.sendgrid.url,
      twilio: this.twilio.url,
    };
  }

  async close(): Promise<void> {
    await Promise.all(
      [this.google, this.apple, this.sendgrid, this.twilio].map((standIn) => standIn.close()),
    );
  }
}
