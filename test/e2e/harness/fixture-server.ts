import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The loopback server the end-to-end tests load pages from. One port, two sites: `localhost` and
 * `127.0.0.1` are different sites, so with --site-per-process an iframe from the other is out of process.
 * It records every request and when each slow response finished, so tests can check timing from the
 * server's side without another automation client on the page.
 */
export interface RequestRecord {
  path: string;
  host: string;
  startedAt: number;
  finishedAt: number | undefined;
}

type Route = (req: IncomingMessage, res: ServerResponse, url: URL, record: RequestRecord) => void;

export function html(res: ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(body);
}

export function page(title: string, body = '', head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

export class FixtureServer {
  readonly requests: RequestRecord[] = [];
  readonly #server: Server;
  readonly #routes = new Map<string, Route>();
  #port = 0;

  constructor() {
    this.#server = createServer((req, res) => this.#handle(req, res));
    this.#defaultRoutes();
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  get port(): number {
    return this.#port;
  }

  /** The first site. */
  url(path: string): string {
    return `http://localhost:${this.#port}${path}`;
  }

  /** The second site (cross-site to `url`). */
  crossUrl(path: string): string {
    return `http://127.0.0.1:${this.#port}${path}`;
  }

  route(path: string, handler: Route): void {
    this.#routes.set(path, handler);
  }

  /** The latest request for a path, if any. */
  last(path: string): RequestRecord | undefined {
    return [...this.requests].reverse().find((record) => record.path === path);
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    const record: RequestRecord = {
      path: url.pathname,
      host: req.headers.host ?? '',
      startedAt: Date.now(),
      finishedAt: undefined,
    };
    this.requests.push(record);
    res.on('finish', () => {
      record.finishedAt = Date.now();
    });
    const route = this.#routes.get(url.pathname);
    if (route === undefined) {
      html(res, page('Not found', '<h1>404</h1>'), 404);
      return;
    }
    route(req, res, url, record);
  }

  #defaultRoutes(): void {
    this.route('/favicon.ico', (_req, res) => {
      res.writeHead(204);
      res.end();
    });
    for (const name of ['a', 'b', 'c']) {
      this.route(`/${name}.html`, (_req, res) =>
        html(res, page(`Page ${name.toUpperCase()}`, `<h1>Page ${name.toUpperCase()}</h1>`)),
      );
    }
    // An image that takes `ms` to arrive: holds the load event, not DOMContentLoaded.
    this.route('/slow-image', (_req, res, url) => {
      const ms = Number(url.searchParams.get('ms') ?? '1500');
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' });
        res.end('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
      }, ms);
    });
    this.route('/slow-load.html', (_req, res, url) => {
      const ms = url.searchParams.get('ms') ?? '1500';
      html(res, page('Slow load', `<h1>Slow load</h1><img src="/slow-image?ms=${ms}">`));
    });
    // An HTML document whose body keeps streaming for `ms` after its head: commit comes long before load.
    this.route('/stream.html', (_req, res, url) => {
      const ms = Number(url.searchParams.get('ms') ?? '1500');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.write(`<!doctype html><html><head><title>Streaming</title></head><body><h1>start</h1>${' '.repeat(2048)}`);
      setTimeout(() => res.end('<p>end</p></body></html>'), ms);
    });
    // Loads fast, then fetches /late after `delay` ms: network idle comes well after load.
    this.route('/late-fetch.html', (_req, res, url) => {
      const delay = url.searchParams.get('delay') ?? '1000';
      html(
        res,
        page(
          'Late fetch',
          '<h1>Late fetch</h1>',
          `<script>addEventListener('load', () => setTimeout(() => fetch('/late').then((r) => r.text()), ${delay}));</script>`,
        ),
      );
    });
    this.route('/late', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      res.end('late');
    });
    this.route('/opener.html', (_req, res, url) => {
      const target = url.searchParams.get('target') ?? '/popup.html';
      html(
        res,
        page(
          'Opener',
          '<h1>Opener</h1>',
          `<script>addEventListener('load', () => window.open(${JSON.stringify(target)}, '_blank'));</script>`,
        ),
      );
    });
    this.route('/blank-link.html', (_req, res) => {
      html(
        res,
        page(
          'Blank link',
          '<a id="out" href="/c.html" target="_blank" style="display:block;width:200px;height:50px">out</a>',
        ),
      );
    });
    this.route('/popup.html', (_req, res) => html(res, page('Popup', '<h1>Popup</h1>')));
    this.route('/child.html', (_req, res) => html(res, page('Child frame', '<p id="marker">child marker 42</p>')));
    this.route('/frames.html', (_req, res) => {
      const child = `http://127.0.0.1:${this.#port}/child.html`;
      html(res, page('Frames', `<h1>Frames</h1><iframe id="oopif" src="${child}" width="400" height="200"></iframe>`));
    });
  }
}
