import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { openChatStore } from './db/database.js';
import { createHttpApp } from './http/app.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './http/rate-limit.js';
import { createLogger, type Logger } from './log.js';
import { NotificationEngine, type NotificationOptions } from './notifications/index.js';
import type { AppSeed, SeededApp } from './repositories/apps.js';
import { createChatServices, type ChatServices } from './services/registry.js';

export interface ChatServerOptions {
  port?: number;
  host?: string;
  dataDir: string;
  /** `postgres://…` stores chats in PostgreSQL instead of `<dataDir>/chat.db`. */
  databaseUrl?: string | undefined;
  /** Creates or updates this app and its keys at start. Without it a demo app is made once. */
  app?: AppSeed | undefined;
  rateLimits?: RateLimits | false;
  logger?: Logger;
  /** Clock, presence source and delivery timing of the notifications engine. */
  notifications?: NotificationOptions;
}

export interface ChatServer {
  url: string;
  port: number;
  /** The app configured at start (or the demo app) with its keys, for the operator. */
  seeded: SeededApp;
  services: ChatServices;
  /** Decides and delivers notifications in the background. */
  notifications: NotificationEngine;
  close(): Promise<void>;
}

export const DEMO_APP_ID = 'parley-demo';

async function seedApp(services: ChatServices, seed: AppSeed | undefined): Promise<SeededApp> {
  if (seed !== undefined) return services.apps.ensure(seed);
  const apps = await services.apps.list();
  const existing = apps.find((app) => app.appId === DEMO_APP_ID) ?? apps[0];
  return services.apps.ensure({
    appId: existing?.appId ?? DEMO_APP_ID,
    name: existing === undefined ? 'Parley demo' : undefined,
  });
}

/** Opens the store, runs migrations, seeds the app and listens; `close` stops both cleanly. */
export async function startChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const logger = options.logger ?? createLogger();
  const store = await openChatStore({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
  const services = createChatServices(store);
  try {
    const seeded = await seedApp(services, options.app);
    const http = createHttpApp(services, { logger, rateLimits: options.rateLimits ?? DEFAULT_RATE_LIMITS });
    const host = options.host ?? '127.0.0.1';
    const listening = await new Promise<ServerType>((resolve, reject) => {
      const started = serve({ fetch: http.fetch, port: options.port ?? 4000, hostname: host }, () =>
        resolve(started),
      );
      started.once('error', reject);
    });
    const notifications = new NotificationEngine(services, logger, options.notifications).start();
    const { port } = listening.address() as AddressInfo;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    logger.info('chat_server_started', {
      url,
      store: store.engine,
      location: store.describe,
      appId: seeded.app.appId,
    });
    return {
      url,
      port,
      seeded,
      services,
      notifications,
      close: async () => {
        await new Promise<void>((resolve) => listening.close(() => resolve()));
        await notifications.stop();
        await store.close();
        logger.info('chat_server_stopped', { url });
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
