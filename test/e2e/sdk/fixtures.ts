import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { silentLogger, startChatServer, type ChatServer } from '../../../server/index.js';
import { callServerApi } from '../../server/support.js';

export const CONTRACT_APP = { appId: 'contract', apiKey: 'contract-full-key', authKey: 'contract-auth-key' };

/** A form the SDK sends (its goal: any action) whose one button navigates, once per user. */
export const LUNCH_SURVEY = {
  title: 'Lunch survey',
  formFields: [],
  submitElement: {
    elementType: 'button',
    elementId: 'submit',
    buttonText: 'Go',
    disableAfterInteracted: true,
    action: { actionType: 'urlNavigation', url: 'https://example.com/lunch' },
  },
};

export interface ContractServer {
  server: ChatServer;
  dataDir: string;
  /** What the SDK is told to use for both its client and admin hosts: `localhost:<port>/v3`. */
  sdkHost: string;
  /** Calls the server REST API as the app (fullAccess key). */
  serverApi(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Calls the client API with an auth token over TLS. */
  clientApi(
    method: string,
    path: string,
    authToken: string,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

/**
 * The chat server over TLS (self-signed, in a temp data dir) with users alice and bob; on SQLite
 * unless given a PostgreSQL `databaseUrl`.
 */
export async function startContractServer(options: { databaseUrl?: string } = {}): Promise<ContractServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-sdk-'));
  const server = await startChatServer({
    port: 0,
    dataDir,
    databaseUrl: options.databaseUrl,
    app: CONTRACT_APP,
    rateLimits: false,
    logger: silentLogger,
    tls: 'self-signed',
  });
  const serverApi = (method: string, path: string, body?: unknown) =>
    callServerApi(server.url, { apiKey: CONTRACT_APP.apiKey }, method, path, { body });
  // Trusts exactly the server's self-signed certificate.
  const dispatcher = new Agent({ connect: { ca: server.tls?.cert ?? '' } });
  const clientApi = async (method: string, path: string, authToken: string) => {
    const response = await undiciFetch(`https://localhost:${server.port}/v3${path}`, {
      method,
      headers: { authToken, appId: CONTRACT_APP.appId },
      dispatcher,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  for (const [uid, name] of [
    ['alice', 'Alice'],
    ['bob', 'Bob'],
  ]) {
    await serverApi('POST', '/users', { uid, name });
  }
  return {
    server,
    dataDir,
    sdkHost: `localhost:${server.port}/v3`,
    serverApi,
    clientApi,
    close: async () => {
      await dispatcher.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
