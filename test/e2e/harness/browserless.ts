import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findChromium } from '../../../src/platform/node/chromium-launcher';
import { pollUntil } from '../../../src/shared/time';

const ENSURE_SCRIPT = resolve(import.meta.dirname, '../../../scripts/ensure-browserless.mjs');
/** Debian's wrapper script execs this; linking the real binary keeps the wrapper out of the process tree. */
const DEBIAN_CHROMIUM = '/usr/lib/chromium/chromium';

export interface BrowserlessOptions {
  token: string;
  /** Browsers running at once (CONCURRENT). */
  concurrent: number;
  /** Connections waiting for a browser (QUEUED); one more is refused with HTTP 429. */
  queued: number;
  /** A session's life in ms before the pool ends it (TIMEOUT); a connection's `?timeout=` overrides it. */
  timeoutMs: number;
}

export interface PoolSession {
  /** The pool's id of the browser (what /kill takes). */
  id: string;
  /** Page target ids of that browser. */
  pageIds: string[];
}

/**
 * The real open-source browserless server on loopback, driving the system Chromium: installed once per
 * machine by scripts/ensure-browserless.mjs, started here with only its chromium and management routes,
 * in a fresh temporary folder (its data, downloads, metrics and logs), on a free port.
 */
export class Browserless {
  readonly options: BrowserlessOptions;
  readonly #folder: string;
  #child: ChildProcess | undefined;
  #port = 0;

  constructor(options: BrowserlessOptions) {
    this.options = options;
    this.#folder = mkdtempSync(join(tmpdir(), 'tabpilot-browserless-'));
  }

  async start(): Promise<void> {
    const packageDir = installBrowserless();
    const routes = join(this.#folder, 'routes');
    mkdirSync(routes);
    for (const name of ['chromium', 'management']) {
      symlinkSync(join(packageDir, 'build', 'routes', name), join(routes, name));
    }
    // browserless refuses to launch into a DATA_DIR or DOWNLOAD_DIR that does not exist.
    for (const name of ['data', 'downloads']) {
      mkdirSync(join(this.#folder, name));
    }
    this.#port = await freePort();
    const log = createWriteStream(join(this.#folder, 'browserless.log'));
    const child = spawn(process.execPath, ['build/index.js'], {
      cwd: packageDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(this.#port),
        TOKEN: this.options.token,
        CONCURRENT: String(this.options.concurrent),
        QUEUED: String(this.options.queued),
        TIMEOUT: String(this.options.timeoutMs),
        ROUTES: routes,
        PLAYWRIGHT_BROWSERS_PATH: playwrightBrowsers(packageDir, join(this.#folder, 'browsers')),
        DATA_DIR: join(this.#folder, 'data'),
        DOWNLOAD_DIR: join(this.#folder, 'downloads'),
        METRICS_JSON_PATH: join(this.#folder, 'metrics.json'),
        DEBUG: 'browserless*,-**:trace,-**:verbose',
      },
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.#child = child;
    await pollUntil(
      async () => {
        if (child.exitCode !== null) {
          throw new Error(`browserless exited (${child.exitCode}); see ${join(this.#folder, 'browserless.log')}`);
        }
        const answer = await fetch(this.http('/pressure')).catch(() => undefined);
        return answer?.ok === true ? true : undefined;
      },
      {
        timeoutMs: 45_000,
        intervalMs: 100,
        onTimeout: () => new Error(`browserless did not start; see ${join(this.#folder, 'browserless.log')}`),
      },
    );
  }

  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      // SIGTERM lets it close its browsers and remove their profiles.
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
      if (!stopped) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    rmSync(this.#folder, { recursive: true, force: true });
  }

  get port(): number {
    return this.#port;
  }

  /** An http:// URL on the server, with the token unless `token` is false. */
  http(path: string, token = true): string {
    return `http://127.0.0.1:${this.#port}${path}${token ? `${path.includes('?') ? '&' : '?'}token=${this.options.token}` : ''}`;
  }

  ws(path = '/', query = ''): string {
    return `ws://127.0.0.1:${this.#port}${path}?token=${this.options.token}${query === '' ? '' : `&${query}`}`;
  }

  /** Browsers running and connections waiting, as the pool counts them. */
  async pressure(): Promise<{ running: number; queued: number }> {
    const answer = (await (await fetch(this.http('/pressure'))).json()) as {
      pressure: { running: number; queued: number };
    };
    return { running: answer.pressure.running, queued: answer.pressure.queued };
  }

  /** The pool's running browsers and their pages. */
  async sessions(): Promise<PoolSession[]> {
    const rows = (await (await fetch(this.http('/sessions'))).json()) as Array<{
      browserId: string;
      type: string;
      id: string;
    }>;
    const byBrowser = new Map<string, PoolSession>();
    for (const row of rows) {
      const session = byBrowser.get(row.browserId) ?? { id: row.browserId, pageIds: [] };
      if (row.type === 'page') {
        session.pageIds.push(row.id);
      }
      byBrowser.set(row.browserId, session);
    }
    return [...byBrowser.values()];
  }

  /** Ends a browser session from the pool's side (its management route), as an operator or a reaper does. */
  async kill(browserId: string): Promise<void> {
    const answer = await fetch(this.http(`/kill/${browserId}`));
    if (!answer.ok) {
      throw new Error(`/kill/${browserId} answered HTTP ${answer.status}`);
    }
  }

  /** The pool's page-level WebSocket URLs (/json/list), as a user would copy one. */
  async pageEndpoints(): Promise<string[]> {
    const list = (await (await fetch(this.http('/json/list'))).json()) as Array<{
      type: string;
      webSocketDebuggerUrl: string;
    }>;
    return list.filter((entry) => entry.type === 'page').map((entry) => entry.webSocketDebuggerUrl);
  }
}

/** The installed package folder (installing it first on a machine that has none). */
function installBrowserless(): string {
  const result = spawnSync(process.execPath, [ENSURE_SCRIPT], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const dir = result.stdout.trim().split('\n').at(-1) ?? '';
  if (result.status !== 0 || !existsSync(join(dir, 'build', 'index.js'))) {
    throw new Error(`scripts/ensure-browserless.mjs failed (exit ${result.status})`);
  }
  return dir;
}

/**
 * A PLAYWRIGHT_BROWSERS_PATH where the Chromium build its bundled playwright-core expects is the system's
 * Chromium (browser downloads are not possible here, and the system's is the one the tests trust).
 */
function playwrightBrowsers(packageDir: string, folder: string): string {
  const manifest = JSON.parse(
    readFileSync(join(packageDir, 'node_modules', 'playwright-core', 'browsers.json'), 'utf8'),
  ) as { browsers: Array<{ name: string; revision: string }> };
  const revision = manifest.browsers.find((browser) => browser.name === 'chromium')?.revision;
  if (revision === undefined) {
    throw new Error("browserless's playwright-core names no chromium revision");
  }
  const binDir = join(folder, `chromium-${revision}`, 'chrome-linux64');
  mkdirSync(binDir, { recursive: true });
  symlinkSync(existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : findChromium(), join(binDir, 'chrome'));
  return folder;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
