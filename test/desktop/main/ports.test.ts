import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenWithFallback, portNote } from '../../../desktop/main/ports.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A real listener on loopback, as the agent server would be. */
function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      servers.push(server);
      resolve(server);
    });
  });
}
const portOf = (server: Server) => (server.address() as AddressInfo).port;

describe('port selection', () => {
  it('listens on the preferred port when it is free', async () => {
    const probe = await listen(0);
    const free = portOf(probe);
    await new Promise((resolve) => probe.close(resolve));
    servers.splice(servers.indexOf(probe), 1);
    const { server, fellBack } = await listenWithFallback(listen, free);
    expect(portOf(server)).toBe(free);
    expect(fellBack).toBe(false);
  });

  it('falls back to a free port the system picks when the preferred one is taken', async () => {
    const taken = portOf(await listen(0));
    const { server, fellBack } = await listenWithFallback(listen, taken);
    expect(fellBack).toBe(true);
    expect(portOf(server)).not.toBe(taken);
    expect(portOf(server)).toBeGreaterThan(0);
  });

  it('passes on failures that a different port would not fix', async () => {
    const failure = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere'), { code: 'ENOTFOUND' });
    await expect(listenWithFallback(() => Promise.reject(failure), 4111)).rejects.toBe(failure);
  });

  it('says which port is used only when it is not the one asked for', () => {
    expect(portNote(4111, 4111)).toBeUndefined();
    expect(portNote(4111, 52_013)).toBe('Port 4111 was taken, so the agent listens on 52013 instead.');
  });
});
