import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error -- the generator is the project's shared .mjs (copied verbatim), without types
import { generatePages } from './pages/gen-pages.mjs';

/**
 * Serves the benchmark pages (bench/pages/gen-pages.mjs, seed 42: the pages the targets were measured
 * on) from loopback: top pages on 127.0.0.1, cross-site iframes on 127.0.0.2, each with its own port.
 */
export class PageServer {
  readonly #dir: string;
  readonly #servers: Server[] = [];
  #portA = 0;
  #portB = 0;

  /** Per page, the strings a complete perception must contain (from the generator's manifest). */
  readonly markers: Record<string, string[]>;

  constructor() {
    this.#dir = mkdtempSync(join(tmpdir(), 'tabpilot-bench-pages-'));
    const generate = generatePages as (options: { seed: number; outDir: string }) => {
      markers: Record<string, string[]>;
    };
    this.markers = generate({ seed: 42, outDir: this.#dir }).markers;
  }

  async start(): Promise<void> {
    this.#portA = await this.#listen('127.0.0.1');
    this.#portB = await this.#listen('127.0.0.2');
  }

  /** Serves one more page (a name of letters, digits, `-` and `_`) beside the generated ones. */
  addPage(name: string, html: string): void {
    if (!/^[\w-]+$/.test(name)) {
      throw new Error(`not a page name: ${name}`);
    }
    writeFileSync(join(this.#dir, `${name}.html`), html);
  }

  url(page: string): string {
    return `http://127.0.0.1:${this.#portA}/${page}.html`;
  }

  async stop(): Promise<void> {
    await Promise.all(this.#servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    rmSync(this.#dir, { recursive: true, force: true });
  }

  async #listen(host: string): Promise<number> {
    const server = createServer((req, res) => {
      const name = (req.url ?? '/').split('?')[0]?.replace(/^\//, '') ?? '';
      if (!/^[\w-]+\.html$/.test(name)) {
        res.writeHead(404).end();
        return;
      }
      try {
        const body = readFileSync(join(this.#dir, name), 'utf8').replaceAll(
          '{{ORIGIN_B}}',
          `http://127.0.0.2:${this.#portB}`,
        );
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    this.#servers.push(server);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return (server.address() as AddressInfo).port;
  }
}
