import { getRequestListener } from '@hono/node-server';
import { PROCESS_ALONE } from './repositories/app-cache.js';
import { checkSecretKey } from './db/secret-key-canary.js';
import {
  AgentFeature,
  DEFAULT_BRIDGE_OPTIONS,
  type AgentBridgeOptions,
  type ConversationLocks,
} from './agents/index.js';
import { ClientProtocol } from './client-protocol.js';
import { openChatStore } from './db/database.js';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import { createHttpApp } from './http/app.js';
import type { ChatEnv } from './http/context.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './http/rate-limit.js';
import { createLogger, type Logger } from './log.js';
import { NotificationEngine, notificationDataOf, type NotificationOptions } from './notifications/index.js';
import { SecretBox } from './secret-box.js';
import type { AppSeed, SeededApp } from './repositories/apps.js';
import { createChatCore, type ChatCore } from './services/registry.js';
import { localhostCertificate, type TlsCertificate } from './tls/certificate.js';
import { listen } from './tls/listener.js';
import { sql } from 'kysely';
import { lockStore } from './db/store-lock.js';
import { readinessRoute, type ReadinessChecks } from './health.js';
import type { RedisFanOut } from './realtime/redis-fan-out.js';
import { join } from 'node:path';
import { mediaFileRoute } from './media/file-route.js';
import { mediaUploadRoute } from './media/presigned.js';
import { MediaSweeper, type MediaSweepOptions } from './media/sweep.js';
import { PresignedUploads } from './media/uploads.js';
import { MediaLibrary } from './media/library.js';
import { MediaUrls } from './media/urls.js';
import { LocalFileStore, type FileStore, type S3StoreConfig } from './storage/index.js';

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
  /**
   * The key sealing secrets in the store (`PARLEY_SECRET_KEY`, 32 bytes); without it the data
   * dir's `secret.key`, created on first start. Processes sharing a database need the same key.
   */
  secretKey?: Buffer | undefined;
  /**
   * Serve https/wss as well (the SDK speaks nothing else): a given certificate, or `self-signed`
   * for a localhost certificate kept in the data dir. Plain http stays open to this machine.
   */
  tls?: TlsCertificate | 'self-signed' | undefined;
  /** `host[:port]` clients reach the server at, for the SDK's settings; default: the Host they send. */
  publicHost?: string | undefined;
  /** Where form apiActions are sent from; tests point it at their own fetch. */
  actionFetch?: typeof fetch;
  /** Timeouts, retries and queueing of calls to AI agents. */
  agentBridge?: Partial<AgentBridgeOptions>;
  /**
   * `redis://…` joins this process with the others given the same URL and store (PostgreSQL):
   * realtime fan-out and presence across processes. Without it the process runs alone.
   */
  redisUrl?: string | undefined;
  /** Starts every Redis key and channel (default `parley:`), so deployments can share one Redis. */
  redisPrefix?: string | undefined;
  /** With Redis: how long the sockets of a process that died count as online (default 30 s). */
  presenceTtlMs?: number | undefined;
  /**
   * Where attachments are kept: an S3-compatible bucket, which several processes and machines can
   * share; without it, files under `<dataDir>/media`.
   */
  s3?: S3StoreConfig | undefined;
  /** How long a signed attachment URL stays valid (default 1 hour). */
  mediaUrlTtlSeconds?: number | undefined;
  /** Clock, interval and grace of the sweep of presigned uploads never linked to a message. */
  mediaSweep?: MediaSweepOptions;
  /** More pages beside the APIs (`parley start` adds the demo page). */
  pages?: ReadonlyArray<(app: Hono<ChatEnv>) => void>;
}

export interface ChatServer {
  url: string;
  port: number;
  /** The app configured at start (or the demo app) with its keys, for the operator. */
  seeded: SeededApp;
  /** The chat core: its repositories and, in `core.services`, what the routes call. */
  core: ChatCore;
  /** Decides and delivers notifications in the background. */
  notifications: NotificationEngine;
  /** Removes presigned uploads never linked to a message. */
  mediaSweeper: MediaSweeper;
  /** The client API, realtime channel and forms. */
  client: ClientProtocol;
  /** AI agents: registry, dashboard and the bridge that asks them. */
  agents: AgentFeature;
  /** The HTTP app: its mounted routes (`http.routes`), documented at `GET /v3/openapi.json`. */
  http: OpenAPIHono<ChatEnv>;
  /** The certificate when TLS is on (to trust it, or to hand to a test client). */
  tls?: { certPath?: string; created: boolean; cert: string };
  close(): Promise<void>;
}

export const DEMO_APP_ID = 'parley-demo';

async function seedApp(core: ChatCore, seed: AppSeed | undefined): Promise<SeededApp> {
  if (seed !== undefined) return core.apps.ensure(seed);
  const apps = await core.apps.list();
  const existing = apps.find((app) => app.appId === DEMO_APP_ID) ?? apps[0];
  return core.apps.ensure({
    appId: existing?.appId ?? DEMO_APP_ID,
    name: existing === undefined ? 'Parley demo' : undefined,
  });
}

/** Opens the store, runs migrations, seeds the app and listens; `close` stops both cleanly. */
export async function startChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const logger = options.logger ?? createLogger();
  const location = { dataDir: options.dataDir, databaseUrl: options.databaseUrl };
  const redisUrl = options.redisUrl === '' ? undefined : options.redisUrl;
  const redisPrefix = options.redisPrefix ?? 'parley:';
  // Before the store opens, so a refused process never touches it (not even its migrations).
  const lock = await lockStore(location, redisUrl !== undefined);
  const store = await openChatStore(location).catch(async (error: unknown) => {
    await lock.release();
    throw error;
  });
  // The S3 client is loaded only when a bucket is configured: most processes never use it.
  const files: FileStore =
    options.s3 === undefined
      ? new LocalFileStore(join(options.dataDir, 'media'))
      : new (await import('./storage/s3.js')).S3FileStore(options.s3);
  const media = new MediaLibrary(
    files,
    new MediaUrls(store.db, options.mediaUrlTtlSeconds),
    new PresignedUploads(store.db),
  );
  const bridgeOptions = { ...DEFAULT_BRIDGE_OPTIONS, ...options.agentBridge };
  let fanOut: RedisFanOut | undefined;
  let conversationLocks: ConversationLocks | undefined;
  try {
    const secrets = await SecretBox.load(options.dataDir, options.secretKey);
    // Before serving: a key other than the store's stops the start here, secrets stored or not.
    await checkSecretKey(store.db, secrets);
    if (redisUrl !== undefined) {
      // The Redis clients are loaded only by a process that joins others.
      const [{ RedisFanOut }, { RedisConversationLocks }] = await Promise.all([
        import('./realtime/redis-fan-out.js'),
        import('./agents/redis-conversation-locks.js'),
      ]);
      fanOut = await RedisFanOut.connect({
        url: redisUrl,
        prefix: redisPrefix,
        logger,
        ...(options.presenceTtlMs === undefined ? {} : { presenceTtlMs: options.presenceTtlMs }),
      });
      conversationLocks = new RedisConversationLocks(
        fanOut.redis,
        redisPrefix,
        logger,
        // Every question queued ahead may run its attempts to the end.
        bridgeOptions.timeoutMs * (bridgeOptions.retries + 1) * (bridgeOptions.maxQueued + 1),
      );
    }
    // After Redis is joined: the row caches of a joined process check the others' changes there.
    const core = createChatCore(store, secrets, media, fanOut, fanOut);
    // Made here first, so the provider cache hears the other processes' changes; then seals
    // secrets stored in the clear (rows from before sealing existed).
    await notificationDataOf(core, fanOut ?? PROCESS_ALONE).providers.sealStoredSecrets();
    await core.apps.sealStartKeys();
    const seeded = await seedApp(core, options.app);
    // Presence comes from sockets; alone, none is open yet, whatever the last run left behind.
    // Joined, the other processes' sockets are open: presence is theirs to keep.
    if (fanOut === undefined) await core.users.markAllOffline();
    const rateLimits = options.rateLimits ?? DEFAULT_RATE_LIMITS;
    const readiness: ReadinessChecks = { database: () => sql`select 1`.execute(store.db) };
    if (fanOut !== undefined) readiness.redis = fanOut.ping.bind(fanOut);
    const client = new ClientProtocol(core, {
      logger,
      publicHost: options.publicHost,
      ...(fanOut === undefined ? {} : { fanOut }),
      ...(options.actionFetch === undefined ? {} : { actionFetch: options.actionFetch }),
    });
    const agents = new AgentFeature(
      core,
      client.clientSettings,
      logger,
      { ...bridgeOptions, ...(conversationLocks === undefined ? {} : { conversationLocks }) },
      fanOut,
    );
    const http = createHttpApp(core, client.routeDeps, {
      logger,
      rateLimits,
      rateLimitStore: fanOut === undefined ? undefined : { redis: fanOut.redis, prefix: redisPrefix },
      routes: [agents.routes],
      pages: [
        readinessRoute(readiness),
        mediaFileRoute(media),
        mediaUploadRoute(media, client.clientSettings),
        ...agents.pages,
        ...(options.pages ?? []),
      ],
    });
    const host = options.host ?? '127.0.0.1';
    const certificate =
      options.tls === 'self-signed'
        ? await localhostCertificate(options.dataDir)
        : options.tls === undefined
          ? undefined
          : { ...options.tls, created: false };
    const listener = await listen(getRequestListener(http.fetch), {
      host,
      port: options.port ?? 4000,
      tls: certificate,
    }).catch(async (error: unknown) => {
      await agents.close();
      await client.close();
      throw error;
    });
    const notifications = new NotificationEngine(core, logger, {
      presence: client.fanOut,
      ...options.notifications,
    }).start();
    const mediaSweeper = new MediaSweeper(media, logger, options.mediaSweep).start();
    const { port } = listener;
    const hostInUrl = host.includes(':') ? `[${host}]` : host;
    const url = `http://${hostInUrl}:${port}`;
    const origins = [url, `http://localhost:${port}`, `http://127.0.0.1:${port}`];
    if (certificate !== undefined) origins.push(`https://${hostInUrl}:${port}`, `https://localhost:${port}`);
    client.attach(listener.servers, [...new Set(origins)]);
    logger.info('chat_server_started', {
      url,
      tls: certificate !== undefined,
      store: store.engine,
      location: store.describe,
      files: files.describe,
      redis: fanOut !== undefined,
      appId: seeded.app.appId,
    });
    return {
      url,
      port,
      seeded,
      core,
      http,
      notifications,
      mediaSweeper,
      client,
      agents,
      ...(certificate === undefined
        ? {}
        : {
            tls: {
              created: certificate.created,
              cert: certificate.cert,
              ...('certPath' in certificate ? { certPath: certificate.certPath } : {}),
            },
          }),
      close: async () => {
        await agents.close();
        await client.close();
        await listener.close();
        await notifications.stop();
        await mediaSweeper.stop();
        await store.close();
        files.close();
        await lock.release();
        logger.info('chat_server_stopped', { url });
      },
    };
  } catch (error) {
    await fanOut?.close();
    files.close();
    await store.close();
    await lock.release();
    throw error;
  }
}
