import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { LaunchedBrowser } from '../../../src/browser/launcher';
import { CdpConnection } from '../../../src/cdp/connection';
import { CdpSession } from '../../../src/cdp/session';
import { ChromiumLauncher } from '../../../src/platform/node/chromium-launcher';
import { WebSocketTransport } from '../../../src/platform/node/ws-transport';
import { pollUntil } from '../../../src/shared/time';

export const EXTENSION_ID = 'dakiagajobemlckhchkemohalbompofb';
/** The repository root, found from here whether this runs from source (tests) or bundled (bench). */
export function repositoryRoot(): string {
  let dir = import.meta.dirname;
  while (dir !== dirname(dir)) {
    const manifest = resolve(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'tabpilot') {
      return dir;
    }
    dir = dirname(dir);
  }
  throw new Error('cannot find the tabpilot repository root');
}

export const EXTENSION_DIR = resolve(repositoryRoot(), 'dist/extension');
export const PANEL_URL = `chrome-extension://${EXTENSION_ID}/src/entries/extension/sidepanel.html`;

/** Every test browser isolates sites so the fixture's two hosts give out-of-process iframes. */
export const TEST_FLAGS = ['--site-per-process', '--window-size=1280,800'];

/**
 * Loads the built extension (and any other unpacked extensions a test needs beside it, such as a
 * fixture that tries to talk to ours). `silent: false` keeps the debugging infobar (headed tests).
 */
export function extensionFlags(dir = EXTENSION_DIR, others: readonly string[] = [], silent = true): string[] {
  if (!existsSync(resolve(dir, 'manifest.json'))) {
    throw new Error(`The extension is not built (${dir}): run npm run build first`);
  }
  const all = [dir, ...others].join(',');
  return [
    `--disable-extensions-except=${all}`,
    `--load-extension=${all}`,
    ...(silent ? ['--silent-debugger-extension-api'] : []),
  ];
}

export async function launchTestBrowser(
  options: {
    extension?: boolean;
    otherExtensions?: readonly string[];
    /** Show the "started debugging this browser" infobar (headed tests of its Cancel). */
    infobar?: boolean;
    headless?: boolean;
    args?: string[];
    /**
     * The person's downloads folder: the profile is made with it as the default download directory (as a
     * person sets it in the settings), so chrome.downloads saves land in a folder the test reads.
     */
    downloadsDir?: string;
  } = {},
): Promise<LaunchedBrowser> {
  const profile = options.downloadsDir === undefined ? undefined : profileWithDownloads(options.downloadsDir);
  const launched = await new ChromiumLauncher().launch({
    headless: options.headless ?? true,
    executablePath: null,
    userDataDir: profile ?? null,
    remoteDebuggingPort: 0,
    args: [
      ...TEST_FLAGS,
      ...(options.extension === true
        ? extensionFlags(EXTENSION_DIR, options.otherExtensions ?? [], options.infobar !== true)
        : []),
      ...(options.args ?? []),
    ],
  });
  if (profile === undefined) {
    return launched;
  }
  return {
    ...launched,
    kill: async () => {
      await launched.kill();
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

function profileWithDownloads(downloadsDir: string): string {
  const profile = mkdtempSync(resolve(tmpdir(), 'tabpilot-profile-'));
  mkdirSync(resolve(profile, 'Default'), { recursive: true });
  writeFileSync(
    resolve(profile, 'Default/Preferences'),
    JSON.stringify({
      download: { default_directory: downloadsDir, prompt_for_download: false, directory_upgrade: true },
    }),
  );
  return profile;
}

/**
 * The tests' own CDP client at the browser level. It never attaches to a test page (the page keeps a
 * single automation client, the one under test); it creates tabs, finds targets, and attaches only to
 * the extension's service worker and pages.
 */
export class BrowserClient {
  readonly connection: CdpConnection;
  readonly root: CdpSession;

  private constructor(connection: CdpConnection) {
    this.connection = connection;
    this.root = new CdpSession(connection, '', 'browser');
  }

  static async connect(wsUrl: string): Promise<BrowserClient> {
    return new BrowserClient(new CdpConnection(await WebSocketTransport.connect(wsUrl), { timeoutMs: 30_000 }));
  }

  close(): void {
    this.connection.close('test done');
  }

  async targets(): Promise<Array<{ targetId: string; type: string; url: string; title: string }>> {
    return (await this.root.send('Target.getTargets')).targetInfos;
  }

  /** Opens a tab without attaching to it. */
  async createTab(url: string): Promise<string> {
    return (await this.root.send('Target.createTarget', { url })).targetId;
  }

  async pageTargets(): Promise<Array<{ targetId: string; url: string }>> {
    return (await this.targets()).filter((target) => target.type === 'page');
  }

  async attach(targetId: string): Promise<CdpSession> {
    const { sessionId } = await this.root.send('Target.attachToTarget', { targetId, flatten: true });
    return new CdpSession(this.connection, sessionId, targetId);
  }

  async serviceWorkerTarget(extensionId = EXTENSION_ID, timeoutMs = 15_000): Promise<string> {
    return pollUntil(
      async () =>
        (await this.targets()).find(
          (target) => target.type === 'service_worker' && target.url.startsWith(`chrome-extension://${extensionId}/`),
        )?.targetId,
      { timeoutMs, intervalMs: 100, onTimeout: () => new Error('the extension service worker did not start') },
    );
  }

  /** Attaches to the extension's worker and waits until its composition root is ready. */
  async serviceWorker(extensionId = EXTENSION_ID): Promise<CdpSession> {
    const targetId = await this.serviceWorkerTarget(extensionId);
    const session = await this.attach(targetId);
    await pollUntil(
      async () => ((await evaluate(session, "typeof globalThis.tabpilot === 'object'")) === true ? true : undefined),
      {
        timeoutMs: 15_000,
        intervalMs: 100,
        onTimeout: () => new Error('the worker never exposed globalThis.tabpilot'),
      },
    );
    await evaluate(session, 'globalThis.tabpilot.ready');
    return session;
  }
}

/** Runtime.evaluate with await and by-value result; a page exception becomes a thrown Error. */
export async function evaluate<T = unknown>(session: CdpSession, expression: string): Promise<T> {
  const response = await session.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
  if (response.exceptionDetails !== undefined) {
    throw new Error(
      `evaluate failed: ${response.exceptionDetails.exception?.description ?? response.exceptionDetails.text}`,
    );
  }
  return response.result.value as T;
}
