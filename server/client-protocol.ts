import type { Server } from 'node:http';
import type { ClientSettingsRepository } from './repositories/client-settings.js';
import { Receipts } from './client-api/receipts.js';
import { SocketTokens } from './client-api/socket-token.js';
import { FormSubmissions } from './forms/submissions.js';
import type { Logger } from './log.js';
import { publishChatEvents } from './realtime/chat-events.js';
import { LocalFanOut, type FanOut } from './realtime/fan-out.js';
import { SocketServer } from './realtime/socket-server.js';
import type { RouteDeps } from './routes/deps.js';
import type { ChatCore } from './services/registry.js';

export interface ClientProtocolOptions {
  logger: Logger;
  publicHost: string | undefined;
  /** Another fan-out (a broker) instead of this process's own. */
  fanOut?: FanOut;
  /** Lets tests and embedders point apiActions at a fetch of their own. */
  actionFetch?: typeof fetch;
}

/**
 * What CometChat's SDK and the widget need besides the `/v3` routes: the WebSocket with its fan-out,
 * the client's own state (settings, socket tokens), and form submissions that run
 * apiActions on the server. `routeDeps` hands the routes their share of it.
 */
export class ClientProtocol {
  readonly clientSettings: ClientSettingsRepository;
  readonly socketTokens: SocketTokens;
  readonly fanOut: FanOut;
  readonly routeDeps: RouteDeps;
  private readonly sockets: SocketServer;
  private readonly unpublish: () => void;
  private selfOrigins: string[] = [];

  constructor(core: ChatCore, options: ClientProtocolOptions) {
    const { logger } = options;
    this.clientSettings = core.clientSettings;
    this.socketTokens = new SocketTokens(core.authTokens);
    this.fanOut = options.fanOut ?? new LocalFanOut();
    const receipts = new Receipts(core.readState, this.fanOut);
    const forms = new FormSubmissions(core.services.messages, this.clientSettings, {
      selfOrigins: () => this.selfOrigins,
      logger,
      ...(options.actionFetch === undefined ? {} : { fetch: options.actionFetch }),
    });
    this.routeDeps = {
      services: core.services,
      clientSettings: this.clientSettings,
      receipts,
      socketTokens: this.socketTokens,
      forms,
      publicHost: options.publicHost,
    };
    this.sockets = new SocketServer({
      core,
      fanOut: this.fanOut,
      socketTokens: this.socketTokens,
      receipts,
      logger,
    });
    this.unpublish = publishChatEvents(core.events, this.fanOut, core, logger);
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
    await this.fanOut.close();
  }
}
