import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import {
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import type { TlsCertificate } from './certificate.js';

/** The first byte of every TLS connection: a handshake record. */
const TLS_HANDSHAKE = 0x16;

const isLoopback = (address: string | undefined): boolean =>
  address !== undefined &&
  (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));

export interface Listener {
  /** The HTTP servers behind the port (plain, and TLS when enabled), for WebSocket upgrades. */
  servers: Server[];
  port: number;
  close(): Promise<void>;
}

/**
 * Listens on one port. With a certificate, a connection that opens with a TLS handshake is served
 * over https/wss and any other is served plain, but only from this machine: the SDK needs TLS,
 * while a local page or widget may keep using http://localhost.
 */
export async function listen(
  handler: RequestListener,
  options: { host: string; port: number; tls?: TlsCertificate | undefined },
): Promise<Listener> {
  const plain = createHttpServer(handler);
  const open = new Set<Socket>();
  const secure = options.tls === undefined ? undefined : createHttpsServer({ ...options.tls }, handler);
  const front: NetServer | Server =
    secure === undefined
      ? plain
      : createNetServer({ pauseOnConnect: true }, (socket: Socket) => {
          open.add(socket);
          socket.once('close', () => open.delete(socket));
          socket.once('readable', () => {
            const head: Buffer | null = socket.read(1);
            if (head === null) {
              socket.destroy();
              return;
            }
            socket.unshift(head);
            if (head[0] === TLS_HANDSHAKE) secure.emit('connection', socket);
            else if (isLoopback(socket.remoteAddress)) plain.emit('connection', socket);
            else socket.destroy();
          });
          socket.on('error', () => socket.destroy());
        });
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(options.port, options.host, () => resolve());
  });
  const servers = secure === undefined ? [plain] : [plain, secure];
  return {
    servers,
    port: (front.address() as AddressInfo).port,
    close: async () => {
      const closed = new Promise<void>((resolve) => front.close(() => resolve()));
      for (const server of servers) server.closeAllConnections();
      // Sockets the servers no longer track (upgraded, or mid-handshake) would hold the port open.
      for (const socket of open) socket.destroy();
      if (secure !== undefined) {
        // Connections handed to the servers are theirs to end; the front only stops accepting.
        plain.close();
        secure.close();
      }
      await closed;
    },
  };
}
