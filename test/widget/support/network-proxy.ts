import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP hop between the client and the chat service, to give tests the network's failure modes:
 * `freeze` stops forwarding bytes without closing anything (a dead Wi-Fi), `cut` drops every
 * connection (a lost network), `thaw` lets traffic and new connections through again. With
 * `uploadBytesPerSecond`, what clients send goes on at that pace (a slow uplink), in tenths of a second.
 */
export class NetworkProxy {
  #server: Server | undefined;
  #pairs = new Set<[Socket, Socket]>();
  #frozen = false;
  #port = 0;

  constructor(
    private readonly targetPort: number,
    private readonly uploadBytesPerSecond?: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  async start(): Promise<this> {
    this.#server = createServer((client) => {
      const upstream = connect(this.targetPort, '127.0.0.1');
      const pair: [Socket, Socket] = [client, upstream];
      this.#pairs.add(pair);
      const forward = (from: Socket, to: Socket) =>
        from.on('data', (chunk) => {
          if (!this.#frozen) to.write(chunk);
        });
      if (this.uploadBytesPerSecond === undefined) forward(client, upstream);
      else this.#paced(client, upstream, Math.max(1, Math.round(this.uploadBytesPerSecond / 10)));
      forward(upstream, client);
      const close = () => {
        this.#pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      for (const socket of pair) socket.on('close', close).on('error', close);
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  /** Forwards at most `slice` bytes every tenth of a second, holding the sender back meanwhile. */
  #paced(from: Socket, to: Socket, slice: number): void {
    from.on('data', (chunk) => {
      from.pause();
      const send = (offset: number) => {
        if (to.destroyed) return;
        if (!this.#frozen) to.write(chunk.subarray(offset, offset + slice));
        if (offset + slice < chunk.length) setTimeout(() => send(offset + slice), 100);
        else from.resume();
      };
      send(0);
    });
  }

  freeze(): void {
    this.#frozen = true;
  }

  thaw(): void {
    this.#frozen = false;
  }

  cut(): void {
    for (const [client, upstream] of this.#pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.#pairs.clear();
  }

  async stop(): Promise<void> {
    this.cut();
    const server = this.#server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
