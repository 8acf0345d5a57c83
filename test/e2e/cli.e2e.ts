import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { LaunchedBrowser } from '../../src/browser/launcher';
import type { CommandResponse } from '../../src/protocol/commands';
import { ChromiumLauncher } from '../../src/platform/node/chromium-launcher';
import { pollUntil } from '../../src/shared/time';
import { BrowserClient, launchTestBrowser, PANEL_URL } from './harness/browser';
import { FixtureServer } from './harness/fixture-server';
import { PanelPage } from './harness/panel';

const BIN = resolve(import.meta.dirname, '../../bin/tabpilot.mjs');

/** The tabpilot CLI as a user runs it: JSON lines on stdin and stdout, logs on stderr. */
class CliProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly responses: CommandResponse[] = [];
  stderr = '';

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [BIN, ...args], { stdio: 'pipe' });
    createInterface({ input: this.child.stdout }).on('line', (line) =>
      this.responses.push(JSON.parse(line) as CommandResponse),
    );
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
  }

  write(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  async request(id: number, action: string, params: Record<string, unknown> = {}): Promise<CommandResponse> {
    this.write(JSON.stringify({ id, action, params }));
    return this.response(id);
  }

  response(id: number | null): Promise<CommandResponse> {
    return pollUntil(() => this.responses.find((response) => response.id === id), {
      timeoutMs: 30_000,
      intervalMs: 20,
      onTimeout: () => new Error(`no response ${id}; stderr:\n${this.stderr}`),
    });
  }

  async end(): Promise<number | null> {
    const exited = new Promise<number | null>((done) => this.child.once('exit', (code) => done(code)));
    this.child.stdin.end();
    return exited;
  }
}

describe('tabpilot connect', () => {
  const server = new FixtureServer();
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    await server.start();
    browser = await launchTestBrowser();
  });

  afterAll(async () => {
    await browser?.kill();
    await server.stop();
  });

  it('attaches to a Chromium started by the test through its http endpoint and serves commands', async () => {
    const port = new URL(browser.cdpUrl).port;
    const cli = new CliProcess(['connect', '--cdp-url', `http://127.0.0.1:${port}`]);
    const navigated = await cli.request(1, 'navigate', { url: server.url('/a.html') });
    expect(navigated).toMatchObject({ ok: true, result: { url: server.url('/a.html') } });
    cli.write('this is not json');
    expect(await cli.response(null)).toMatchObject({ ok: false, error: { code: 'INVALID_JSON' } });
    expect(await cli.request(2, 'no_such_action')).toMatchObject({ ok: false, error: { code: 'UNKNOWN_ACTION' } });
    expect(await cli.request(3, 'navigate', { url: 12 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMS' },
    });
    const tabs = await cli.request(4, 'tabs');
    expect(tabs).toMatchObject({ ok: true });
    expect(JSON.stringify(tabs)).toContain('Page A');
    const described = await cli.request(5, 'describe');
    expect((described as { result: { actions: Array<{ name: string }> } }).result.actions.map((a) => a.name)).toContain(
      'navigate',
    );
    expect(await cli.end()).toBe(0);
    // Connecting does not own the browser's life: it is still up after the CLI leaves.
    expect(() => process.kill(browser.pid ?? 0, 0)).not.toThrow();
  });

  it('refuses a bad config file, naming the field, before doing anything', async () => {
    const cli = new CliProcess([
      'connect',
      '--cdp-url',
      'http://127.0.0.1:1',
      '--config',
      resolve(import.meta.dirname, 'fixtures/bad-config.json'),
    ]);
    const code = await new Promise<number | null>((done) => cli.child.once('exit', done));
    expect(code).toBe(2);
    expect(cli.stderr).toMatch(/reconnect\.max_attemps: unknown field/);
  });
});

describe('tabpilot launch', () => {
  it('launches Chromium, serves commands, and kills it and its temporary profile when stdin closes', async () => {
    const cli = new CliProcess(['launch', '--headless']);
    expect(await cli.request(1, 'navigate', { url: 'data:text/html,<title>launched</title>' })).toMatchObject({
      ok: true,
    });
    const pid = Number(/launched Chromium \{"pid":(\d+)/.exec(cli.stderr)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(await cli.end()).toBe(0);
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('takes its Chromium down with it when the CLI itself is killed with SIGKILL', async () => {
    // A profile of the test's own: a killed CLI cannot remove a temporary one.
    const profile = mkdtempSync(join(tmpdir(), 'tabpilot-cli-kill-'));
    onTestFinished(() => rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
    const cli = new CliProcess(['launch', '--headless', '--user-data-dir', profile]);
    expect(await cli.request(1, 'tabs')).toMatchObject({ ok: true });
    const pid = Number(/launched Chromium \{"pid":(\d+)/.exec(cli.stderr)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid, 0)).not.toThrow();
    const exited = new Promise((done) => cli.child.once('exit', done));
    cli.child.kill('SIGKILL');
    await exited;
    // No cleanup code ran: the browser's end of its DevTools pipe closed, and that is what stops it.
    await pollUntil(
      () => {
        try {
          process.kill(-pid, 0);
          return undefined;
        } catch {
          return true;
        }
      },
      { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error(`Chromium ${pid} outlived its killed CLI`) },
    );
  });

  it('removes the temporary profile on kill', async () => {
    const launched = await new ChromiumLauncher().launch({
      headless: true,
      executablePath: null,
      userDataDir: null,
      remoteDebuggingPort: 0,
      args: [],
    });
    expect(launched.temporaryProfile).toBe(true);
    expect(existsSync(launched.userDataDir)).toBe(true);
    await launched.kill();
    expect(existsSync(launched.userDataDir)).toBe(false);
  });
});

describe('npm start without a display', () => {
  const START = resolve(import.meta.dirname, '../../dist/node/start.js');
  const server = new FixtureServer();

  beforeAll(async () => {
    await server.start();
  });

  afterAll(async () => {
    await server.stop();
  });

  it('runs headless in the profile it is given, prints a way in that works, and takes Chromium with it on Ctrl-C', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'tabpilot-start-'));
    onTestFinished(() => rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
    // What `npm start` runs once it has built: no display, a profile of the test's own, any free port.
    const start = spawn(process.execPath, [START], {
      stdio: 'pipe',
      env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '', TABPILOT_PROFILE: profile, TABPILOT_DEVTOOLS_PORT: '0' },
    });
    let stdout = '';
    let stderr = '';
    start.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    start.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => start.once('exit', done));
    onTestFinished(() => {
      if (start.exitCode === null) {
        start.kill('SIGKILL');
      }
    });
    await pollUntil(() => (stdout.includes('Press Ctrl-C to quit.') ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 50,
      onTimeout: () => new Error(`npm start printed no instructions:\n${stdout}\n${stderr}`),
    });
    expect(stdout).toContain(`profile ${profile}.`);
    expect(stdout).toContain('No display here, so Chromium runs headless');
    const pid = Number(/Chromium \(pid (\d+)\)/.exec(stdout)?.[1]);
    const devtools = /DevTools endpoint: (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1] ?? '';
    const panelUrl = /Panel page: (chrome-extension:\/\/\S+)/.exec(stdout)?.[1] ?? '';
    expect(pid).toBeGreaterThan(0);
    expect(panelUrl).toBe(PANEL_URL);
    expect(stdout).toContain(`tabpilot connect --cdp-url ${devtools}`);
    expect(existsSync(join(profile, 'Default'))).toBe(true);

    // The endpoint answers, and the steps printed lead to a controlled web page.
    const version = (await (await fetch(`${devtools}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    const client = await BrowserClient.connect(version.webSocketDebuggerUrl);
    try {
      const webPage = await client.createTab(server.url('/a.html'));
      const panelTarget = await client.createTab(panelUrl);
      const panel = await PanelPage.connect(client, panelTarget);
      // The panel is the current tab: Attach current tab says what to do instead.
      await panel.click('#attach');
      const refused = await panel.response('output');
      expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      expect(JSON.stringify(refused)).toContain('"tabs\\" with all, then \\"attach\\"');
      await panel.view('actions');
      await panel.select('#action-select', 'tabs');
      await panel.setChecked('[data-field="all"] input[type="checkbox"]', true);
      await panel.click('#run-action');
      const listed = await panel.response('action-output');
      const tabs = listed.ok ? (listed.result as { tabs: Array<{ tab_id: string; url: string }> }).tabs : [];
      const tabId = tabs.find((tab) => tab.url === server.url('/a.html'))?.tab_id;
      expect(tabId).toBeDefined();
      expect(webPage.toLowerCase().endsWith((tabId ?? '-').toLowerCase())).toBe(true);
      await panel.select('#action-select', 'attach');
      await panel.type('[data-field="tab_id"] input', tabId ?? '');
      await panel.click('#run-action');
      expect(await panel.response('action-output', listed)).toMatchObject({
        ok: true,
        result: { url: server.url('/a.html'), controlled: true },
      });
      await panel.waitForText('#debugger-state', 'Debugger attached to 1 tab');
    } finally {
      client.close();
    }

    start.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(() => process.kill(pid, 0)).toThrow();
    await expect(fetch(`${devtools}/json/version`)).rejects.toThrow();
  });
});
