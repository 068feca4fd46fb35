import { connect, createServer, type AddressInfo } from 'node:net';

/** A loopback port free right now, for a server that cannot pick its own (nginx, redis-server). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Resolves once `port` on loopback takes connections. `failure` is asked between attempts and
 * says why the server will never listen (it exited), which rejects instead of waiting on.
 */
export async function untilListening(port: number, failure: () => string | undefined): Promise<void> {
  for (;;) {
    const why = failure();
    if (why !== undefined) throw new Error(why);
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (accepted) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
