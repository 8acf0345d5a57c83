import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { LaunchedBrowser } from '../../src/browser/launcher';
import { ChromiumLauncher } from '../../src/platform/node/chromium-launcher';
import { pollUntil } from '../../src/shared/time';
import { launchTestBrowser } from './harness/browser';
import { CliProcess } from './harness/cli-process';
import { FixtureServer } from './harness/fixture-server';

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

describe('the URL policy from --config', () => {
  const server = new FixtureServer();
  let browser: LaunchedBrowser;
  const dir = mkdtempSync(join(tmpdir(), 'tabpilot-policy-config-'));
  const configFile = (name: string, config: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(config));
    return path;
  };

  beforeAll(async () => {
    await server.start();
    browser = await launchTestBrowser();
  });

  afterAll(async () => {
    await browser?.kill();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a malformed domain pattern and an unknown permission at start, naming the entry', async () => {
    for (const [config, message] of [
      [
        { prohibited_domains: ['evil.example', 'evil.example/login'] },
        /prohibited_domains\.1: malformed domain pattern/,
      ],
      [{ allowed_domains: ['exa mple.com'] }, /allowed_domains\.0: malformed domain pattern.*white space/],
      [{ permissions: ['clipboard'] }, /permissions\.0: unknown permission "clipboard"/],
      [{ allowed_schemes: ['javascript'] }, /allowed_schemes\.0: javascript: is never allowed/],
    ] as const) {
      const cli = new CliProcess([
        'connect',
        '--cdp-url',
        'http://127.0.0.1:1',
        '--config',
        configFile('bad.json', config),
      ]);
      const code = await new Promise<number | null>((done) => cli.child.once('exit', done));
      expect(code, JSON.stringify(config)).toBe(2);
      expect(cli.stderr).toMatch(message);
    }
  });

  it('holds the policy the config file sets: navigate to a prohibited host is refused and never sent', async () => {
    const port = new URL(browser.cdpUrl).port;
    const config = configFile('policy.json', { prohibited_domains: ['127.0.0.1'] });
    const cli = new CliProcess(['connect', '--cdp-url', `http://127.0.0.1:${port}`, '--config', config]);
    const seen = server.requests.length;
    expect(await cli.request(1, 'navigate', { url: server.crossUrl('/a.html') })).toMatchObject({
      ok: false,
      error: { code: 'URL_BLOCKED', details: { rule: 'prohibited_domains', pattern: '127.0.0.1' } },
    });
    expect(await cli.request(2, 'navigate', { url: server.url('/a.html') })).toMatchObject({ ok: true });
    const hosts = server.requests.slice(seen).map((record) => record.host);
    expect(hosts).toContain(`localhost:${server.port}`);
    expect(hosts.filter((host) => host.startsWith('127.0.0.1'))).toEqual([]);
    expect(await cli.end()).toBe(0);
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
