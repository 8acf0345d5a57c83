import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { extname, join, normalize } from 'node:path';
import { pollUntil } from '../../../src/shared/time';

/**
 * The loopback server the end-to-end tests load pages from. One port, two sites: `localhost` and
 * `127.0.0.1` are different sites, so with --site-per-process an iframe from the other is out of process.
 * It records every request and when each slow response finished, so tests can check timing from the
 * server's side without another automation client on the page.
 */
export interface RequestRecord {
  path: string;
  /** The query string, with its `?` ('' when none). */
  query: string;
  method: string;
  host: string;
  startedAt: number;
  finishedAt: number | undefined;
}

type Route = (req: IncomingMessage, res: ServerResponse, url: URL, record: RequestRecord) => void;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

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
  /** Folders served under a path prefix (built test pages), by prefix. */
  readonly #folders = new Map<string, string>();
  /** Keys the test has released, and the responses waiting for a key it has not. */
  readonly #released = new Set<string>();
  readonly #holding = new Map<string, Array<() => void>>();
  #port = 0;
  readonly #listenHost: string;

  /** `listenHost` '::' also takes IPv6 loopback ([::1]) and every 127.x address. */
  constructor(options: { listenHost?: string } = {}) {
    this.#listenHost = options.listenHost ?? '127.0.0.1';
    this.#server = createServer((req, res) => this.#handle(req, res));
    // A WebSocket handshake is a request too: recorded (so a test can see it arrived), then refused.
    this.#server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
      this.#record(req);
      socket.destroy();
    });
    this.#defaultRoutes();
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, this.#listenHost, resolve));
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

  /** Serves the files of `dir` under `prefix` (`/widgets/` + `mui.html` is `dir/mui.html`). */
  serveFolder(prefix: string, dir: string): void {
    this.#folders.set(prefix, dir);
  }

  #serveFile(res: ServerResponse, dir: string, relative: string): void {
    const file = normalize(join(dir, relative));
    if (!file.startsWith(normalize(dir))) {
      html(res, page('Forbidden', '<h1>403</h1>'), 403);
      return;
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, {
          'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        });
        res.end(body);
      },
      () => html(res, page('Not found', '<h1>404</h1>'), 404),
    );
  }

  /** The latest request for a path (and, when given, whose query holds `query`), if any. */
  last(path: string, query = ''): RequestRecord | undefined {
    return [...this.requests].reverse().find((record) => record.path === path && record.query.includes(query));
  }

  /** Waits (bounded) until a request for `path` whose query holds `query` has arrived. */
  arrival(path: string, query = '', timeoutMs = 10_000): Promise<RequestRecord> {
    return pollUntil(() => this.last(path, query), {
      timeoutMs,
      intervalMs: 20,
      onTimeout: () =>
        new Error(`no request for ${path}${query === '' ? '' : ` with ${query}`} within ${timeoutMs} ms`),
    });
  }

  /**
   * Lets the responses held for `key` go (the routes that take a `hold` or `gate` key wait for it), and
   * any that ask for it later. A page then waits for a signal the test gives instead of racing a timer.
   */
  release(key: string): void {
    this.#released.add(key);
    for (const go of this.#holding.get(key) ?? []) {
      go();
    }
    this.#holding.delete(key);
  }

  /** Runs `respond` once the test releases `key`. */
  #whenReleased(key: string, respond: () => void): void {
    if (this.#released.has(key)) {
      respond();
      return;
    }
    this.#holding.set(key, [...(this.#holding.get(key) ?? []), respond]);
  }

  #record(req: IncomingMessage): { url: URL; record: RequestRecord } {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    const record: RequestRecord = {
      path: url.pathname,
      query: url.search,
      method: req.method ?? 'GET',
      host: req.headers.host ?? '',
      startedAt: Date.now(),
      finishedAt: undefined,
    };
    this.requests.push(record);
    return { url, record };
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const { url, record } = this.#record(req);
    res.on('finish', () => {
      record.finishedAt = Date.now();
    });
    const route = this.#routes.get(url.pathname);
    const folder = [...this.#folders].find(([prefix]) => url.pathname.startsWith(prefix));
    if (route === undefined && folder !== undefined) {
      this.#serveFile(res, folder[1], url.pathname.slice(folder[0].length));
      return;
    }
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
    // An image that takes `ms` to arrive, or (with `hold`) that arrives when the test releases that key:
    // it holds the load event, not DOMContentLoaded.
    this.route('/slow-image', (_req, res, url) => {
      const send = (): void => {
        res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' });
        res.end('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
      };
      const hold = url.searchParams.get('hold');
      if (hold !== null) {
        this.#whenReleased(hold, send);
        return;
      }
      setTimeout(send, Number(url.searchParams.get('ms') ?? '1500'));
    });
    this.route('/slow-load.html', (_req, res, url) => {
      const hold = url.searchParams.get('hold');
      const image =
        hold === null
          ? `/slow-image?ms=${url.searchParams.get('ms') ?? '1500'}`
          : `/slow-image?hold=${encodeURIComponent(hold)}`;
      html(res, page('Slow load', `<h1>Slow load</h1><img src="${image}">`));
    });
    // An HTML document whose body keeps streaming after its head, until the test releases `hold`:
    // commit comes long before load.
    this.route('/stream.html', (_req, res, url) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.write(`<!doctype html><html><head><title>Streaming</title></head><body><h1>start</h1>${' '.repeat(2048)}`);
      this.#whenReleased(url.searchParams.get('hold') ?? '', () => res.end('<p>end</p></body></html>'));
    });
    // Loads fast with a request to /gate in flight (a fetch does not hold the load event), and fetches
    // /late once the test releases the gate: network idle comes only after that.
    this.route('/late-fetch.html', (_req, res, url) => {
      const gate = encodeURIComponent(url.searchParams.get('gate') ?? '');
      html(
        res,
        page(
          'Late fetch',
          '<h1>Late fetch</h1>',
          `<script>fetch('/gate?key=${gate}').then((r) => r.text()).then(() => fetch('/late?key=${gate}')).then((r) => r.text());</script>`,
        ),
      );
    });
    this.route('/gate', (_req, res, url) => {
      this.#whenReleased(url.searchParams.get('key') ?? '', () => {
        res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
        res.end('open');
      });
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
          `<script>addEventListener('load', () => { window.popup = window.open(${JSON.stringify(target)}, '_blank'); });</script>`,
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
