import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** The brief's flags, as perf-facts.md measured Playwright with. */
export const BRIEF_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Twins {
  playwright: Browser;
  /** tabpilot's own browser: Playwright's exact command line, with its own profile and a DevTools port. */
  tabpilotCdpUrl: string;
  commandLine: string[];
  close(): Promise<void>;
}

/** The parent of a process, from /proc/<pid>/stat (the field after the command name in parentheses). */
function parentOf(pid: string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

function playwrightCommandLine(): string[] {
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    let args: string[];
    try {
      // Only the browser this process launched: other people's Playwright browsers run on a shared machine.
      if (parentOf(pid) !== process.pid) {
        continue;
      }
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .filter((arg) => arg !== '');
    } catch {
      // The process ended while we looked.
      continue;
    }
    if (
      args.some((arg) => arg.includes('playwright_chromiumdev_profile')) &&
      !args.some((arg) => arg.startsWith('--type='))
    ) {
      return args;
    }
  }
  throw new Error("cannot find Playwright's browser process");
}

/**
 * Two browsers with one command line: Playwright launches its own, and tabpilot's is started with the
 * very same arguments (read from /proc), its own profile, and a DevTools port instead of Playwright's
 * pipe. Each measured tab then has exactly one automation client, and the two browsers compare.
 */
export async function launchTwins(): Promise<Twins> {
  const playwright = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: false, args: BRIEF_FLAGS });
  const [binary, ...args] = playwrightCommandLine();
  const profile = mkdtempSync(join(tmpdir(), 'tabpilot-twin-'));
  const twinArgs = args.map((arg) =>
    arg.startsWith('--user-data-dir=')
      ? `--user-data-dir=${profile}`
      : arg === '--remote-debugging-pipe'
        ? '--remote-debugging-port=0'
        : arg,
  );
  const child: ChildProcess = spawn(binary ?? '/usr/lib/chromium/chromium', twinArgs, {
    stdio: ['ignore', 'ignore', 'pipe'],
    // Its own process group, so closing ends the renderers and helpers too, before the profile goes.
    detached: true,
  });
  const cdpUrl = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`twin browser did not start:\n${text}`)), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  child.stderr?.resume();
  return {
    playwright,
    tabpilotCdpUrl: cdpUrl,
    commandLine: [binary ?? '', ...twinArgs],
    close: async () => {
      await playwright.close();
      const exited =
        child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
      if (child.pid !== undefined) {
        process.kill(-child.pid, 'SIGTERM');
      }
      await exited;
      await waitForGroupToEnd(child.pid);
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/** Waits (up to 5 s) until no process of the group is left, since helpers may still write to the profile. */
async function waitForGroupToEnd(pgid: number | undefined): Promise<void> {
  if (pgid === undefined) {
    return;
  }
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      process.kill(-pgid, 0);
    } catch {
      // ESRCH: the group is empty.
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.kill(-pgid, 'SIGKILL');
}
