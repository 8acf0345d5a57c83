import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LaunchedBrowser } from '../../../src/browser/launcher';
import type { CdpSession } from '../../../src/cdp/session';
import { ChromiumLauncher } from '../../../src/platform/node/chromium-launcher';
import { listRecords, type FoundRecord } from '../../../src/platform/node/native/discovery';
import { HostClient } from '../../../src/platform/node/native/host-client';
import { statePaths } from '../../../src/platform/node/native/state-dir';
import type { ClientName } from '../../../src/protocol/native-messages';
import { pollUntil } from '../../../src/shared/time';
import { BrowserClient, EXTENSION_DIR, evaluate, extensionFlags, repositoryRoot, TEST_FLAGS } from './browser';

// Found from the repository root, so the benchmark's bundle of this file finds them too.
export const BIN = resolve(repositoryRoot(), 'bin/tabpilot.mjs');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the tabpilot command as a person would, with the test's own state folder. */
export function runCli(
  args: readonly string[],
  options: { stateDir: string; input?: string; env?: NodeJS.ProcessEnv },
): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...options.env, TABPILOT_STATE_DIR: options.stateDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('exit', (code) => done({ code, stdout, stderr }));
    // A command that answers without reading its input (help, a usage error) may have exited before the
    // input is written: the write then fails EPIPE, which says nothing about the run (a loaded CI run saw it).
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') {
        fail(error);
      }
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Turns consent off in a test profile (a dedicated profile may pre-allow, as `npm start`'s does): the
 * tests that are not about consent connect many client names, and nobody is there to click Allow.
 * test/e2e/native-consent.e2e.ts runs with the person's default instead.
 */
export async function allowEveryProgram(worker: CdpSession): Promise<void> {
  await evaluate(
    worker,
    `globalThis.tabpilot.settings.save({ ...globalThis.tabpilot.settings.config, native_clients: { ...globalThis.tabpilot.settings.config.native_clients, approve_new_clients: false } })`,
  );
}

/**
 * Chromium with the built extension and the host installed in its test profile's
 * NativeMessagingHosts folder by the real installer, with a state folder of its own: the extension
 * starts the real host, which publishes its socket there.
 */
export class NativeChain {
  readonly browser: LaunchedBrowser;
  readonly client: BrowserClient;
  readonly userDataDir: string;
  readonly stateDir: string;
  readonly #root: string;
  #worker: CdpSession;

  private constructor(root: string, browser: LaunchedBrowser, client: BrowserClient, worker: CdpSession) {
    this.#root = root;
    this.browser = browser;
    this.client = client;
    this.#worker = worker;
    this.userDataDir = join(root, 'profile');
    this.stateDir = join(root, 'state');
  }

  /**
   * `downloadsDir`: the profile's downloads folder (where the extension's saves land, under tabpilot/).
   * `headless: false, infobar: true`: a headed window that shows Chrome's debugging bar (headed tests of its Cancel).
   * `consent: true` keeps the person's default (every program held until allowed in the panel); the
   * other tests' profiles allow every program explicitly, as a dedicated test profile may, so their
   * many client names need no one to click Allow.
   */
  static async start(
    options: {
      install?: boolean;
      extension?: boolean;
      downloadsDir?: string;
      headless?: boolean;
      infobar?: boolean;
      args?: string[];
      consent?: boolean;
    } = {},
  ): Promise<NativeChain> {
    const root = mkdtempSync(join(tmpdir(), 'tabpilot-native-'));
    const userDataDir = join(root, 'profile');
    const stateDir = join(root, 'state');
    if (options.downloadsDir !== undefined) {
      mkdirSync(join(userDataDir, 'Default'), { recursive: true });
      writeFileSync(
        join(userDataDir, 'Default/Preferences'),
        JSON.stringify({
          download: { default_directory: options.downloadsDir, prompt_for_download: false, directory_upgrade: true },
        }),
      );
    }
    if (options.install !== false) {
      const installed = await runCli(['install-host', '--user-data-dir', userDataDir, '--state-dir', stateDir], {
        stateDir,
      });
      if (installed.code !== 0) {
        throw new Error(`install-host failed: ${installed.stderr}`);
      }
    }
    const browser = await new ChromiumLauncher().launch({
      headless: options.headless ?? true,
      executablePath: null,
      userDataDir,
      remoteDebuggingPort: 0,
      args: [
        ...TEST_FLAGS,
        ...(options.extension === false ? [] : extensionFlags(EXTENSION_DIR, [], options.infobar !== true)),
        ...(options.args ?? []),
      ],
    });
    const client = await BrowserClient.connect(browser.cdpUrl);
    const worker = options.extension === false ? (undefined as unknown as CdpSession) : await client.serviceWorker();
    if (options.extension !== false && options.consent !== true) {
      await allowEveryProgram(worker);
    }
    return new NativeChain(root, browser, client, worker);
  }

  get worker(): CdpSession {
    return this.#worker;
  }

  inWorker<T = unknown>(expression: string): Promise<T> {
    return evaluate<T>(this.#worker, expression);
  }

  /** The live host (the newest one, or one other than `not`), once its record is there. */
  async host(options: { not?: number; timeoutMs?: number } = {}): Promise<FoundRecord> {
    return pollUntil(
      () =>
        listRecords(statePaths(this.stateDir).run).live.find(
          (found) => found.record.pid !== options.not && found.record.profile_id !== null,
        ),
      {
        timeoutMs: options.timeoutMs ?? 20_000,
        intervalMs: 50,
        onTimeout: () =>
          new Error(
            `no native host${options.not === undefined ? '' : ` other than ${options.not}`} published a record in ${this.stateDir}`,
          ),
      },
    );
  }

  connect(client: ClientName, reconnectMs = 0): Promise<HostClient> {
    return HostClient.connect({ client, stateDir: this.stateDir, reconnectMs });
  }

  cli(args: readonly string[], input?: string): Promise<CliRun> {
    return runCli(args, { stateDir: this.stateDir, ...(input === undefined ? {} : { input }) });
  }

  /** Stops the worker as Chrome does when idle, then wakes a new one with an extension page. */
  async restartWorker(panelUrl: string): Promise<void> {
    await this.inWorker('globalThis.__e2eOldWorker = true');
    await this.client.root.send('Target.closeTarget', { targetId: this.#worker.targetId });
    const panel = await this.client.createTab(panelUrl);
    this.#worker = await pollUntil(
      async () => {
        const worker = await this.client.serviceWorker().catch(() => undefined);
        if (worker === undefined) {
          return undefined;
        }
        return (await evaluate(worker, 'globalThis.__e2eOldWorker === true').catch(() => true)) ? undefined : worker;
      },
      { timeoutMs: 20_000, intervalMs: 200, onTimeout: () => new Error('no new worker started') },
    );
    await this.client.root.send('Target.closeTarget', { targetId: panel });
  }

  async close(): Promise<void> {
    this.client.close();
    await this.browser.kill();
    rmSync(this.#root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}
