import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of the browser's DevTools port, so a test can cut tabpilot's WebSocket while the
 * browser stays up (a network drop, as a remote browser sees it). New connections still go through.
 */
export class TcpProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #port = 0;
  #targetPort: number;

  constructor(targetPort: number) {
    this.#targetPort = targetPort;
    this.#server = createServer((client) => {
      const upstream = connect(this.#targetPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
    return this.#port;
  }

  get port(): number {
    return this.#port;
  }

  /** Sends new connections to another port: another browser behind the same address (a restart, a pool). */
  retarget(targetPort: number): void {
    this.#targetPort = targetPort;
  }

  /** Drops every open connection at once; the listener keeps accepting new ones. */
  cut(): number {
    const count = this.#sockets.size;
    for (const socket of this.#sockets) {
      socket.destroy();
    }
    return count;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
