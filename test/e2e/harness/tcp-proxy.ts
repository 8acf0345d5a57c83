import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with a new connection: `pass` pipes it to the browser; `hold` keeps it waiting,
 * unanswered, until the mode changes (a browser that is slow to come back); `refuse` closes it at once
 * (a browser that is gone).
 */
export type ProxyMode = 'pass' | 'hold' | 'refuse';

/**
 * A TCP proxy in front of the browser's DevTools port, so a test can cut tabpilot's WebSocket while the
 * browser stays up (a network drop, as a remote browser sees it), and decide what new connections meet.
 */
export class TcpProxy {
  readonly #server: Server;
  #targetPort: number;
  readonly #sockets = new Set<Socket>();
  readonly #held: Socket[] = [];
  #mode: ProxyMode = 'pass';
  #port = 0;
  /** Connections refused so far (each a reconnect attempt that found no browser). */
  refused = 0;

  constructor(targetPort: number) {
    this.#targetPort = targetPort;
    this.#server = createServer((client) => this.#accept(client));
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

  /** Sets what new connections meet; leaving `hold` lets the held ones through (or refuses them). */
  setMode(mode: ProxyMode): void {
    this.#mode = mode;
    if (mode !== 'hold') {
      for (const client of this.#held.splice(0)) {
        this.#accept(client);
      }
    }
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
    this.setMode('refuse');
    this.cut();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: Socket): void {
    if (client.destroyed) {
      return;
    }
    if (this.#mode === 'refuse') {
      this.refused++;
      client.destroy();
      return;
    }
    if (this.#mode === 'hold') {
      // Not read until released: what the client sent waits in the socket.
      client.pause();
      client.on('error', () => client.destroy());
      this.#held.push(client);
      return;
    }
    const upstream = connect(this.#targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }
}
