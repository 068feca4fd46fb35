import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { KnowledgeEngine } from '../../../knowledge/index.js';
import { knowledgeAppUi } from '../../../knowledge/server/app-ui.js';
import {
  agentConfigFromEnv,
  openAgentEngine,
  startAgentServer,
  type RunningAgentServer,
} from '../../../knowledge/server/index.js';
import { DEMO_OPERATOR, seedDemo } from '../../../server/demo/index.js';
import {
  certificateFingerprint,
  silentLogger,
  startChatServer,
  type ChatServer,
} from '../../../server/index.js';
import type { ChatConnection } from '../../../shared/chat-connection.js';
import { launchChromium } from '../../support/browser.js';
import { builtWindow } from '../../support/built.js';

/** A 5-page rotor manual; the gearbox oil is on page 3 only. */
export const MANUAL_PAGES = [
  ['Tail rotor manual.', 'This manual covers the maintenance of the tail rotor assembly.'],
  ['Blade inspection.', 'Check the leading edge of each blade for erosion before every flight.'],
  [
    'Gearbox lubrication.',
    'The tail rotor gearbox holds 0.4 litres of synthetic turbine oil.',
    'Change the oil every 300 flight hours.',
  ],
  ['Pitch links.', 'Tighten the pitch link bolts to 12 newton metres and secure them with wire.'],
  ['Storage.', 'Store spare blades flat in their crates, away from direct sunlight.'],
];

export interface WindowServer {
  /** The page to open: the agent's origin, serving the built window at `/`. */
  url: string;
  apiUrl: string;
  engine: KnowledgeEngine;
  close(): Promise<void>;
}

/** The real agent server on an ephemeral port and a temporary data dir, serving the run's built window. */
export async function startWindowServer(): Promise<WindowServer> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'parley-window-')));
  const windowFolder = await builtWindow();
  const dataDir = join(root, 'data');
  const config = agentConfigFromEnv({}, dataDir);
  const engine = await openAgentEngine(dataDir, config);
  let server: RunningAgentServer;
  try {
    server = await startAgentServer({
      config,
      backend: engine,
      host: '127.0.0.1',
      port: 0,
      ui: knowledgeAppUi(windowFolder),
    });
  } catch (error) {
    await engine.close();
    throw error;
  }
  return {
    url: `${server.apiUrl.replace(/\/api$/, '')}/`,
    apiUrl: server.apiUrl,
    engine,
    close: async () => {
      await server.close();
      await engine.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * The Chats section's setting, as `parley start` sets it up: the built window served by the real
 * agent (in a temporary data dir), the real chat service over TLS with the demo seeded and the
 * agent registered, and Chromium accepting the chat service's self-signed certificate. The window
 * is served `connection` as its Chats connection (the demo's, signed in as the operator, until a
 * test changes it; undefined asks for one).
 */
export interface ChatsWindow {
  /** The window's page, at the agent's origin. */
  url: string;
  apiUrl: string;
  engine: KnowledgeEngine;
  config: ReturnType<typeof agentConfigFromEnv>;
  agent: RunningAgentServer;
  chat: ChatServer;
  browser: Browser;
  /** The demo's connection as `parley start` serves it. */
  demo: ChatConnection;
  connection: ChatConnection | undefined;
  close(): Promise<void>;
}

export async function startChatsWindow(): Promise<ChatsWindow> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'parley-chats-')));
  const windowFolder = await builtWindow();
  const agentDir = join(root, 'agent');
  const config = agentConfigFromEnv({}, agentDir);
  const engine = await openAgentEngine(agentDir, config);
  const closers: Array<() => Promise<unknown>> = [
    () => rm(root, { recursive: true, force: true }),
    () => engine.close(),
  ];
  const close = async () => {
    for (const closer of closers.reverse()) await closer();
  };
  try {
    const served: { connection: ChatConnection | undefined } = { connection: undefined };
    const agent = await startAgentServer({
      config,
      backend: engine,
      host: '127.0.0.1',
      port: 0,
      ui: knowledgeAppUi(windowFolder, { chatConnection: () => served.connection }),
    });
    closers.push(() => agent.close());
    const chat = await startChatServer({
      port: 0,
      dataDir: join(root, 'chat'),
      rateLimits: false,
      logger: silentLogger,
      tls: 'self-signed',
    });
    closers.push(() => chat.close());
    const seeded = await seedDemo(chat, `${agent.apiUrl}/agents/knowledge/generate`);
    const demo: ChatConnection = {
      appId: seeded.appId,
      region: seeded.region,
      operatorUid: DEMO_OPERATOR.uid,
      host: `localhost:${chat.port}`,
      certificateFingerprint: chat.tls ? certificateFingerprint(chat.tls.cert) : null,
      authKey: seeded.authKey,
    };
    served.connection = demo;
    const browser = await launchChromium({ ignoreCertificateErrors: true });
    closers.push(() => browser.close());
    return {
      url: `${agent.apiUrl.replace(/\/api$/, '')}/`,
      apiUrl: agent.apiUrl,
      engine,
      config,
      agent,
      chat,
      browser,
      demo,
      get connection() {
        return served.connection;
      },
      set connection(next) {
        served.connection = next;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
