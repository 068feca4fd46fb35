import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { desktopBundles } from '../../../desktop/bundles.js';
import type { KnowledgeEngine } from '../../../knowledge/index.js';
import { knowledgeAppUi } from '../../../knowledge/server/app-ui.js';
import {
  agentConfigFromEnv,
  openAgentEngine,
  startAgentServer,
  type RunningAgentServer,
} from '../../../knowledge/server/index.js';

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

/** Builds the window exactly as `npm run build` does, into `<outRoot>/desktop/renderer/`. */
export async function buildWindow(outRoot: string): Promise<string> {
  for (const options of desktopBundles(outRoot)) await build({ logLevel: 'warning', ...options });
  return join(outRoot, 'desktop', 'renderer');
}

export interface WindowServer {
  /** The page to open: the agent's origin, serving the built window at `/`. */
  url: string;
  apiUrl: string;
  engine: KnowledgeEngine;
  close(): Promise<void>;
}

/** The real agent server on an ephemeral port and a temporary data dir, serving the freshly built window. */
export async function startWindowServer(): Promise<WindowServer> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'parley-window-')));
  const windowFolder = await buildWindow(join(root, 'build'));
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
