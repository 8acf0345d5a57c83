import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { BrowserLauncher, LaunchOptions, LaunchedBrowser } from '../../browser/launcher';
import { TabpilotError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { silentLogger } from '../../shared/logger';
import { withGuardExtension, writeGuardExtension } from './guard-extension';
import { pipeEndpoint, PipeTransport, type DevToolsPipe } from './pipe-transport';

const EXECUTABLE_CANDIDATES: Record<string, readonly string[]> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/lib/chromium/chromium',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
  ],
  darwin: [
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
    '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
  ],
  win32: [
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
  ],
};

/**
 * Flags for an automated Chromium: quiet start (no first-run UI, no background traffic, which this
 * kind of machine refuses anyway), popups allowed so window.open and target=_blank open tabs.
 */
export const BASE_FLAGS: readonly string[] = [
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--disable-popup-blocking',
  '--disable-default-apps',
  '--password-store=basic',
  '--use-mock-keychain',
];

const DEVTOOLS_LINE = /DevTools listening on (ws:\/\/\S+)/;
const LAUNCH_TIMEOUT_MS = 30_000;
const KILL_GRACE_MS = 5_000;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    // Missing or not executable: the next candidate is tried.
    return false;
  }
}

/** TABPILOT_CHROME, then CHROME_PATH, then the usual install paths. */
export function findChromium(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): string {
  for (const variable of ['TABPILOT_CHROME', 'CHROME_PATH'] as const) {
    const value = env[variable];
    if (value !== undefined && value !== '') {
      if (!isExecutable(value)) {
        throw new TabpilotError('NOT_ATTACHED', `${variable}=${value} is not an executable file`);
      }
      return value;
    }
  }
  const found = (EXECUTABLE_CANDIDATES[platform] ?? []).find(isExecutable);
  if (found === undefined) {
    throw new TabpilotError(
      'NOT_ATTACHED',
      platform === 'linux'
        ? 'No Chromium found. Install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set TABPILOT_CHROME to its path.'
        : 'No Chrome or Chromium found. Install Chrome or set TABPILOT_CHROME to its path.',
    );
  }
  return found;
}

/** Headless when asked, else when there is no display to show a window on (Linux without DISPLAY). */
export function shouldRunHeadless(
  requested: boolean | null,
  env: NodeJS.ProcessEnv = process.env,
  platform: string = process.platform,
): boolean {
  if (requested !== null) {
    return requested;
  }
  return platform === 'linux' && (env['DISPLAY'] ?? '') === '' && (env['WAYLAND_DISPLAY'] ?? '') === '';
}

export function chromiumArgs(options: LaunchOptions & { userDataDir: string; headless: boolean }): string[] {
  const args = [
    ...BASE_FLAGS,
    `--user-data-dir=${options.userDataDir}`,
    // DevTools on fds 3 and 4: the transport unless a port is asked for. Chromium exits when the pipe
    // closes, so the browser goes with this process however it ends, SIGKILL included.
    '--remote-debugging-pipe',
  ];
  if (options.remoteDebuggingPort !== null) {
    args.push(`--remote-debugging-port=${options.remoteDebuggingPort}`);
  }
  if (options.headless) {
    args.push('--headless=new', '--disable-gpu', '--hide-scrollbars', '--mute-audio');
  }
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    // Chromium refuses to start as root with its sandbox on.
    args.push('--no-sandbox');
  }
  args.push(...options.args, 'about:blank');
  return args;
}

/** Launches Chromium as a child process and reads its DevTools endpoint from stderr. */
export class ChromiumLauncher implements BrowserLauncher {
  readonly #log: Logger;
  /** The DevTools pipes of the browsers launched without a port, by the endpoint each announced. */
  readonly #pipes = new Map<string, DevToolsPipe>();

  constructor(logger: Logger = silentLogger) {
    this.#log = logger;
  }

  /**
   * A transport over the pipe of a browser this launcher started (`endpoint` as launch announced it).
   * The browser gone, its pipe is too: DISCONNECTED, since a pipe cannot be dialled again.
   */
  openPipe(endpoint: string): PipeTransport {
    const pipe = this.#pipes.get(endpoint);
    if (pipe === undefined) {
      throw new TabpilotError(
        'DISCONNECTED',
        `The browser at ${endpoint} is gone: its DevTools pipe cannot be reopened; send attach to launch another`,
      );
    }
    return new PipeTransport(pipe);
  }

  async launch(options: LaunchOptions): Promise<LaunchedBrowser> {
    const executablePath = options.executablePath ?? findChromium();
    const headless = shouldRunHeadless(options.headless);
    const temporaryProfile =
      options.userDataDir === null ? mkdtempSync(join(tmpdir(), 'tabpilot-profile-')) : undefined;
    const userDataDir = options.userDataDir ?? temporaryProfile ?? '';
    const guard = options.guardWebSockets === true ? writeGuardExtension() : undefined;
    const args = chromiumArgs({
      ...options,
      args: guard === undefined ? options.args : withGuardExtension(options.args, guard),
      userDataDir,
      headless,
    });
    this.#log.debug('spawning Chromium', { executablePath, args });
    const child = spawn(executablePath, args, {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    const removeProfile = (): void => {
      // Helpers may still be flushing into the profile for a moment after the group is gone.
      for (const dir of [temporaryProfile, guard]) {
        if (dir !== undefined) {
          rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
        }
      }
    };
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // Should this process end without stopping the session (process.exit, an uncaught error), the
    // browser it launched goes with it instead of running on, detached, with its profile.
    const killOnExit = (): void => signalGroup(child, 'SIGKILL');
    process.once('exit', killOnExit);
    void exited.then(() => process.off('exit', killOnExit));
    const pipe = devToolsPipe(child);
    let cdpUrl: string;
    try {
      if (options.remoteDebuggingPort === null) {
        await waitForPipe(child, pipe);
        cdpUrl = pipeEndpoint(child.pid);
        this.#pipes.set(cdpUrl, pipe);
        void exited.then(() => this.#pipes.delete(cdpUrl));
      } else {
        cdpUrl = await readDevToolsUrl(child);
      }
    } catch (error) {
      await terminate(child, exited);
      removeProfile();
      throw error;
    }
    let killed: Promise<void> | undefined;
    return {
      cdpUrl,
      pid: child.pid,
      executablePath,
      headless,
      userDataDir,
      temporaryProfile: temporaryProfile !== undefined,
      exited,
      kill: () => {
        killed ??= terminate(child, exited).then(removeProfile);
        return killed;
      },
    };
  }
}

/** The parent's ends of the child's fds 3 (the browser reads) and 4 (the browser writes). */
function devToolsPipe(child: ChildProcess): DevToolsPipe {
  const toBrowser = child.stdio[3];
  const fromBrowser = child.stdio[4];
  if (!(toBrowser instanceof Writable) || !(fromBrowser instanceof Readable)) {
    throw new TabpilotError('INTERNAL', 'Chromium was started without its DevTools pipe');
  }
  return { toBrowser, fromBrowser };
}

/** An id for the readiness question, apart from any the session's connection will use. */
const READY_ID = 1_999_999_999;

/**
 * Asks the browser over the pipe who it is: the answer means it is up. Without a port Chromium prints
 * no endpoint line, so its exit or the timeout, with the end of its stderr, is what a failure says.
 */
function waitForPipe(child: ChildProcess, pipe: DevToolsPipe): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    let answer = Buffer.alloc(0);
    const timer = setTimeout(
      () =>
        finish(
          new TabpilotError(
            'TIMEOUT',
            `Chromium did not answer on its DevTools pipe within ${LAUNCH_TIMEOUT_MS} ms:\n${stderr.slice(-2000)}`,
          ),
        ),
      LAUNCH_TIMEOUT_MS,
    );
    const onStderr = (chunk: Buffer): void => {
      stderr += chunk.toString();
    };
    const onData = (chunk: Buffer): void => {
      answer = Buffer.concat([answer, chunk]);
      // Nothing else is asked before this answer, so the first message is it.
      if (answer.includes(0)) {
        finish(undefined);
      }
    };
    const onExit = (code: number | null): void =>
      finish(
        new TabpilotError(
          'NOT_ATTACHED',
          `Chromium exited (code ${code}) before it was ready:\n${stderr.slice(-2000)}`,
        ),
      );
    const onError = (error: Error): void =>
      finish(new TabpilotError('NOT_ATTACHED', `Cannot start Chromium: ${error.message}`, { cause: error }));
    function finish(error: Error | undefined): void {
      clearTimeout(timer);
      child.stderr?.off('data', onStderr);
      pipe.fromBrowser.off('data', onData);
      // Paused, so nothing that comes before the transport listens is lost.
      pipe.fromBrowser.pause();
      child.off('exit', onExit);
      child.off('error', onError);
      child.stderr?.resume();
      if (error === undefined) {
        resolve();
      } else {
        reject(error);
      }
    }
    child.stderr?.on('data', onStderr);
    pipe.fromBrowser.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
    pipe.toBrowser.write(`${JSON.stringify({ id: READY_ID, method: 'Browser.getVersion' })}\0`);
  });
}

function readDevToolsUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(
      () =>
        finish(
          new TabpilotError(
            'TIMEOUT',
            `Chromium printed no DevTools endpoint within ${LAUNCH_TIMEOUT_MS} ms:\n${stderr.slice(-2000)}`,
          ),
        ),
      LAUNCH_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer): void => {
      stderr += chunk.toString();
      const match = DEVTOOLS_LINE.exec(stderr);
      if (match?.[1] !== undefined) {
        finish(match[1]);
      }
    };
    const onExit = (code: number | null): void =>
      finish(
        new TabpilotError(
          'NOT_ATTACHED',
          `Chromium exited (code ${code}) before it was ready:\n${stderr.slice(-2000)}`,
        ),
      );
    const onError = (error: Error): void =>
      finish(new TabpilotError('NOT_ATTACHED', `Cannot start Chromium: ${error.message}`, { cause: error }));
    function finish(result: string | Error): void {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      // Keep draining stderr so a chatty browser never blocks on a full pipe.
      child.stderr?.resume();
      if (typeof result === 'string') {
        resolve(result);
      } else {
        reject(result);
      }
    }
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

async function terminate(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    signalGroup(child, 'SIGTERM');
    let grace: NodeJS.Timeout | undefined;
    const graceful = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((r) => (grace = setTimeout(() => r(false), KILL_GRACE_MS))),
    ]);
    // A browser that went in time leaves no timer behind to hold a library user's process 5 s longer.
    clearTimeout(grace);
    if (!graceful) {
      signalGroup(child, 'SIGKILL');
      await exited;
    }
  }
  await reapGroup(child);
}

/**
 * The browser's helpers (the network service, renderers) outlive the main process by a second or so
 * and keep writing into the profile: wait for the whole group, then force what is left.
 */
async function reapGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || process.platform === 'win32') {
    return;
  }
  const deadline = Date.now() + KILL_GRACE_MS;
  while (groupAlive(child.pid)) {
    if (Date.now() > deadline) {
      signalGroup(child, 'SIGKILL');
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    // ESRCH: no process is left in the group.
    return false;
  }
}

/** Signals the whole process group (renderers and helpers too), falling back to the main process. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) {
    return;
  }
  try {
    process.kill(process.platform === 'win32' ? child.pid : -child.pid, signal);
  } catch {
    // No such group (already gone, or not a group leader on this platform): signal the process itself.
    child.kill(signal);
  }
}
