import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localhostCertificate, silentLogger, startChatServer, type ChatServer } from '../../server/index.js';

/** This machine's address on its network, to connect from somewhere that is not loopback. */
function externalAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((candidate) => candidate?.family === 'IPv4' && !candidate.internal)?.address;
  if (address === undefined) throw new Error('this test needs a non-loopback IPv4 interface');
  return address;
}

describe('TLS on the chat port', () => {
  let dataDir: string;
  let server: ChatServer;
  let trusting: Agent;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'parley-tls-'));
    server = await startChatServer({
      port: 0,
      host: '0.0.0.0',
      dataDir,
      logger: silentLogger,
      tls: 'self-signed',
    });
    trusting = new Agent({ connect: { ca: server.tls?.cert ?? '' } });
  });
  afterAll(async () => {
    await trusting?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes a self-signed certificate for localhost and 127.0.0.1 in the data dir, its key readable by the owner only', () => {
    expect(server.tls?.created).toBe(true);
    const certificate = new X509Certificate(server.tls?.cert ?? '');
    expect(certificate.checkHost('localhost')).toBe('localhost');
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(statSync(join(dataDir, 'tls', 'localhost-key.pem')).mode & 0o777).toBe(0o600);
  });

  it('keeps the certificate across restarts, so a browser told to trust it keeps trusting it', async () => {
    const again = await localhostCertificate(dataDir);
    expect(again.created).toBe(false);
    expect(again.cert).toBe(server.tls?.cert);
  });

  it('serves https on the port to a client that trusts the certificate', async () => {
    const response = await undiciFetch(`https://localhost:${server.port}/healthz`, { dispatcher: trusting });
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('serves wss on the same port', async () => {
    const socket = new WebSocket(`wss://localhost:${server.port}/`, { ca: server.tls?.cert });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const pong = new Promise<string>((resolve) => socket.once('message', (data) => resolve(data.toString())));
    socket.send(JSON.stringify({ action: 'ping', ack: 'true' }));
    expect(JSON.parse(await pong)).toEqual({ action: 'pong' });
    socket.close();
  });

  it('keeps plain http open to this machine', async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/healthz`);
    expect(response.status).toBe(200);
  });

  it('refuses plain http from another machine, which must use TLS', async () => {
    await expect(fetch(`http://${externalAddress()}:${server.port}/healthz`)).rejects.toThrow();
    // The certificate names localhost only, so this client checks the channel, not the name.
    const anyName = new Agent({ connect: { rejectUnauthorized: false } });
    const overTls = await undiciFetch(`https://${externalAddress()}:${server.port}/healthz`, {
      dispatcher: anyName,
    });
    expect(overTls.status).toBe(200);
    await anyName.close();
  });
});
