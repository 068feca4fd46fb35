import type { Server } from 'node:http';
import type { Hono, MiddlewareHandler } from 'hono';
import { clientRequests, createClientApi } from './client-api/index.js';
import { ClientSettingsRepository } from './client-api/client-settings.js';
import type { ClientEnv } from './client-api/context.js';
import { ReadStateRepository } from './client-api/read-state.js';
import { SocketTokens } from './client-api/socket-token.js';
import { FormSubmissions } from './forms/submissions.js';
import type { ChatEnv } from './http/context.js';
import type { RateLimits } from './http/rate-limit.js';
import type { Logger } from './log.js';
import { publishChatEvents } from './realtime/chat-events.js';
import { LocalFanOut, type FanOut } from './realtime/fan-out.js';
import { SocketServer } from './realtime/socket-server.js';
import type { ChatServices } from './services/registry.js';

export interface ClientProtocolOptions {
  logger: Logger;
  rateLimits: RateLimits | false;
  publicHost: string | undefined;
  /** Another fan-out (a broker) instead of this process's own. */
  fanOut?: FanOut;
  /** Lets tests and embedders point apiActions at a fetch of their own. */
  actionFetch?: typeof fetch;
}

/**
 * Everything CometChat's SDK and the widget talk to besides the server API: the client API, the
 * WebSocket with its fan-out, and form submissions that run apiActions on the server.
 */
export class ClientProtocol {
  readonly clientSettings: ClientSettingsRepository;
  readonly readState: ReadStateRepository;
  readonly socketTokens: SocketTokens;
  readonly fanOut: FanOut;
  readonly clientRequests: MiddlewareHandler<ChatEnv>;
  /** The client API itself, where other features add the calls users make with an `authToken`. */
  readonly clientApi: Hono<ClientEnv>;
  private readonly sockets: SocketServer;
  private readonly unpublish: () => void;
  private selfOrigins: string[] = [];

  constructor(services: ChatServices, options: ClientProtocolOptions) {
    const { logger } = options;
    this.clientSettings = new ClientSettingsRepository(services.store.db);
    this.readState = new ReadStateRepository(services.store.db);
    this.socketTokens = new SocketTokens(services.authTokens);
    this.fanOut = options.fanOut ?? new LocalFanOut();
    const forms = new FormSubmissions(services, this.clientSettings, {
      selfOrigins: () => this.selfOrigins,
      logger,
      ...(options.actionFetch === undefined ? {} : { fetch: options.actionFetch }),
    });
    const clientApi = (this.clientApi = createClientApi(
      {
        services,
        clientSettings: this.clientSettings,
        readState: this.readState,
        socketTokens: this.socketTokens,
        forms,
        publicHost: options.publicHost,
      },
      { logger, rateLimits: options.rateLimits },
    ));
    this.clientRequests = clientRequests(services.apps, clientApi);
    this.sockets = new SocketServer({
      services,
      fanOut: this.fanOut,
      socketTokens: this.socketTokens,
      readState: this.readState,
      logger,
    });
    this.unpublish = publishChatEvents(services.events, this.fanOut, services, logger);
  }

  /** Takes WebSocket upgrades on these servers; `origins` are where this server is reached. */
  attach(servers: ReadonlyArray<Server>, origins: string[]): void {
    this.selfOrigins = origins;
    for (const server of servers) this.sockets.attach(server);
  }

  get connections(): number {
    return this.sockets.connections;
  }

  async close(): Promise<void> {
    this.unpublish();
    await this.sockets.close();
  }
}
