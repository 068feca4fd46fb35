import { afterAll, beforeAll } from 'vitest';
import { callServerApi, type ApiResponse, type CallOptions } from '../server/support.js';
import { migratedTemplate, parleyCommand } from './built.js';
import { startChatCluster, type ChatCluster } from './chat-cluster.js';

/** A REST API call through one process, as the app. */
export type ProcessCall = (method: string, path: string, options?: CallOptions) => Promise<ApiResponse>;

export interface ProcessPair {
  /** Both processes and their database: usable inside tests and the hooks registered after it. */
  readonly cluster: ChatCluster;
  /** Calls through the first process. */
  a: ProcessCall;
  /** Calls through the second process. */
  b: ProcessCall;
}

/**
 * Registers the hooks that give the enclosing describe block two `parley chat-server` processes
 * (this run's build) on one fresh PostgreSQL database (a copy of the run's migrated template),
 * joined over Redis, started before its tests and stopped and removed after them. `args` go to
 * both processes, e.g. `['--rate-limit', 'off']`.
 */
export function useProcessPair(
  app: { appId: string; apiKey: string; authKey: string },
  args: string[] = [],
): ProcessPair {
  let cluster: ChatCluster | undefined;
  beforeAll(async () => {
    const [command, template] = await Promise.all([parleyCommand(), migratedTemplate()]);
    cluster = await startChatCluster({ app, engine: 'postgres', count: 2, args, command, template });
  });
  afterAll(async () => {
    await cluster?.dispose();
  });
  const running = (): ChatCluster => {
    if (cluster === undefined) throw new Error('the processes are not started: use them inside a test');
    return cluster;
  };
  const through =
    (index: number): ProcessCall =>
    (method, path, options) =>
      callServerApi(running().urls[index] ?? '', app, method, path, options);
  return {
    get cluster() {
      return running();
    },
    a: through(0),
    b: through(1),
  };
}
