import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/security');

/**
 * A loopback HTTPS server for the https:// URLs of the security tests (a self-signed certificate kept
 * with the fixtures; the test browser runs with --ignore-certificate-errors). It records every request
 * that reaches it, as FixtureServer does for http, so a blocked https URL is proven never to arrive.
 * (Chrome may open a speculative connection to a host a page is about to load before any request is
 * made; a connection carries no request, so requests, not sockets, are what is counted.)
 */
export class HttpsWitness {
  readonly requests: Array<{ host: string; path: string; query: string }> = [];
  readonly #server: Server;

  constructor() {
    this.#server = createServer(
      {
        key: readFileSync(resolve(FIXTURES, 'test-tls.key')),
        cert: readFileSync(resolve(FIXTURES, 'test-tls.crt')),
      },
      (req, res) => {
        const url = new URL(req.url ?? '/', 'https://witness');
        this.requests.push({ host: req.headers.host ?? '', path: url.pathname, query: url.search });
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end('<!doctype html><title>https</title><p>https</p>');
      },
    );
  }

  async start(): Promise<void> {
    await new Promise<void>((done) => this.#server.listen(0, '::', done));
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((done) => this.#server.close(() => done()));
  }
}
