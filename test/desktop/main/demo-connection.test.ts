import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DemoConnectionError, fetchDemoConnection } from '../../../desktop/main/demo-connection.js';
import { knowledgeAppUi } from '../../../knowledge/server/app-ui.js';
import type { ChatConnection } from '../../../shared/chat-connection.js';
import { temporaryFolder } from './support.js';

const DEMO: ChatConnection = {
  appId: 'parley-demo',
  region: 'us',
  operatorUid: 'operator',
  host: 'localhost:4000',
  certificateFingerprint: 'sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
  authKey: 'demo-auth-key-0c41',
};

/** Serves the knowledge app as `parley start` does, handing out `served` as the demo connection. */
async function startAppUi(folder: string, served: () => ChatConnection | undefined) {
  const app = knowledgeAppUi(folder, { chatConnection: served });
  const server = await new Promise<Server>((resolve) => {
    const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
      resolve(listening as Server),
    );
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat-connection.json` };
}

/** A server answering every request with `body` as JSON: a demo connection of another shape. */
async function startJsonServer(body: unknown) {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat-connection.json` };
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe("the local demo's Chats connection", () => {
  let folder: Awaited<ReturnType<typeof temporaryFolder>>;
  let servers: Server[];
  beforeEach(async () => {
    folder = await temporaryFolder();
    servers = [];
  });
  afterEach(async () => {
    await Promise.all(servers.map(closeServer));
    await folder.remove();
  });

  it('reads the connection the knowledge app serves, its auth key and fingerprint included', async () => {
    const { server, url } = await startAppUi(folder.path, () => DEMO);
    servers.push(server);
    expect(await fetchDemoConnection(url)).toEqual(DEMO);
  });

  it('says to start the demo when the knowledge app serves no connection', async () => {
    const { server, url } = await startAppUi(folder.path, () => undefined);
    servers.push(server);
    await expect(fetchDemoConnection(url)).rejects.toThrow(
      new DemoConnectionError(
        `No local demo answers at ${new URL(url).origin}/: start it with \`parley start\`, then try again.`,
      ),
    );
  });

  it('says to start the demo when nothing listens there', async () => {
    const { server, url } = await startJsonServer(DEMO);
    await closeServer(server);
    await expect(fetchDemoConnection(url)).rejects.toThrow(/No local demo answers at .*parley start/);
  });

  it('names the field at fault in a connection it cannot use', async () => {
    const { server, url } = await startJsonServer({ ...DEMO, operatorUid: 'not a uid' });
    servers.push(server);
    await expect(fetchDemoConnection(url)).rejects.toThrow(/not usable \(operatorUid: /);
  });

  it('refuses a connection without a key or token', async () => {
    const { authKey: _authKey, ...keyless } = DEMO;
    const { server, url } = await startJsonServer(keyless);
    servers.push(server);
    await expect(fetchDemoConnection(url)).rejects.toThrow(/give an auth key or an auth token/);
  });

  it('refuses a connection to a chat host that is not on this computer', async () => {
    const { server, url } = await startJsonServer({ ...DEMO, host: 'chat.example.com' });
    servers.push(server);
    await expect(fetchDemoConnection(url)).rejects.toThrow(/not on this computer; it was not used/);
  });

  it('refuses a connection to CometChat’s cloud, which is no local demo', async () => {
    const { server, url } = await startJsonServer({ ...DEMO, host: null });
    servers.push(server);
    await expect(fetchDemoConnection(url)).rejects.toThrow(/not on this computer/);
  });
});
