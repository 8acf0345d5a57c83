import { spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type TabpilotConfigInput } from '../../src/agent/tabpilot-config';
import type { BrowserSession } from '../../src/browser/session';
import { composeNodeSession } from '../../src/entries/node/compose';
import type { CommandResponse } from '../../src/protocol/commands';
import { pollUntil } from '../../src/shared/time';
import type { ClientConnection } from '../../src/tools/command-server';
import { Browserless } from './harness/browserless';
import { McpTestClient } from './harness/mcp';
import { FixtureServer } from './harness/fixture-server';

const BIN = resolve(import.meta.dirname, '../../bin/tabpilot.mjs');
const TOKEN = 'tabpilot-e2e-s3cret';

let requestId = 0;

/** One tabpilot session in this process, as the MCP server or a script would hold it: its own bus, its own browser. */
class PoolClient {
  readonly session: BrowserSession;
  readonly #client: ClientConnection;
  /** Settles when start() does; `started` says whether it has yet. */
  readonly starting: Promise<unknown>;
  started = false;

  constructor(cdpUrl: string, config: TabpilotConfigInput = {}, name = 'pool') {
    const { session, server } = composeNodeSession({ config: parseConfig(config), cdpUrl, name });
    this.session = session;
    this.#client = server.connect({ id: name, kind: 'test' }, { send: () => undefined });
    this.starting = session.start().then(
      (result) => {
        this.started = true;
        return result;
      },
      (error: unknown) => {
        this.started = true;
        return error;
      },
    );
  }

  send(action: string, params: Record<string, unknown> = {}): Promise<CommandResponse> {
    return this.#client.handle({ id: ++requestId, action, params });
  }

  async ok<T = Record<string, unknown>>(action: string, params: Record<string, unknown> = {}): Promise<T> {
    const response = await this.send(action, params);
    if (!response.ok) {
      throw new Error(`${action} failed: ${response.error.code}: ${response.error.message}`);
    }
    return response.result as T;
  }

  /**
   * Which browser is on the other end (its default context's id, the same over every connection to one
   * browser), asked through tabpilot's own root session.
   */
  async browserId(): Promise<string> {
    return (await this.session.targets.root.send('Target.getBrowserContexts')).defaultBrowserContextId ?? '';
  }

  historyOf(type: string): Array<{ payload: unknown }> {
    return this.session.bus.history().filter((view) => view.type === type);
  }

  async close(): Promise<void> {
    await this.starting;
    await this.session.stop().catch(() => undefined);
  }
}

/**
 * tabpilot against a real browser pool: the open-source browserless server on loopback, driving the system
 * Chromium, two browsers at a time and two connections queued, a token required. Covers the token in an
 * http:// URL, a queue longer than the old fixed 15 s handshake, a full pool (HTTP 429), a pool that ends a
 * session, a page-level endpoint, and several sessions in one process.
 */
describe('tabpilot on a browser pool (browserless)', () => {
  const fixtures = new FixtureServer();
  const pool = new Browserless({ token: TOKEN, concurrent: 2, queued: 2, timeoutMs: 120_000 });
  const clients: PoolClient[] = [];
  const held: ServerResponse[] = [];

  function client(cdpUrl: string, config: TabpilotConfigInput = {}, name = `pool-${clients.length + 1}`): PoolClient {
    const made = new PoolClient(cdpUrl, config, name);
    clients.push(made);
    return made;
  }

  beforeAll(async () => {
    await fixtures.start();
    // A page whose response the test holds, to keep one session busy while another works.
    fixtures.route('/held.html', (_req, res) => {
      held.push(res);
    });
    // On a machine without it, this installs browserless first (about a minute and a half).
    await pool.start();
  }, 300_000);

  afterAll(async () => {
    for (const res of held) {
      res.end();
    }
    await Promise.all(clients.map((made) => made.close()));
    await pool.stop();
    await fixtures.stop();
  }, 60_000);

  it('connects through an http:// URL with its token (the CLI, as a user types it), and refuses a missing token at once', async () => {
    const cli = spawn(process.execPath, [BIN, 'connect', '--cdp-url', pool.http('/')], { stdio: 'pipe' });
    const lines: string[] = [];
    let stderr = '';
    createInterface({ input: cli.stdout }).on('line', (line) => lines.push(line));
    cli.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((done) => cli.once('exit', (code) => done(code)));
    cli.stdin.end(
      [
        JSON.stringify({ id: 1, action: 'navigate', params: { url: fixtures.url('/a.html') } }),
        JSON.stringify({ id: 2, action: 'tabs' }),
      ].join('\n') + '\n',
    );
    expect(await exited).toBe(0);
    const answers = lines.map((line) => JSON.parse(line) as CommandResponse);
    expect(answers.map((answer) => answer.ok)).toEqual([true, true]);
    expect(JSON.stringify(answers[1])).toContain('Page A');
    // The token stays out of logs and answers.
    expect(stderr).toContain('token=***');
    expect(stderr + lines.join('\n')).not.toContain(TOKEN);

    const anonymous = client(pool.http('/', false));
    const refused = await anonymous.starting;
    expect(refused).toMatchObject({ code: 'FORBIDDEN' });
    expect((refused as Error).message).toMatch(/HTTP 401.*check the token/);
  });

  it('serves MCP from a pool: tabpilot mcp --cdp-url with the http:// URL and its token navigates and reads', async () => {
    const mcp = await new McpTestClient(['--cdp-url', pool.http('/')], 'pool-mcp').connect();
    try {
      const opened = await mcp.ok('navigate', { url: fixtures.url('/a.html') });
      expect(opened.text).toContain(fixtures.url('/a.html'));
      const state = await mcp.ok('state');
      expect(state.text).toContain('Page A');
      // The token stays out of what the server logs and answers.
      expect(mcp.stderr + opened.text + state.text).not.toContain(TOKEN);
    } finally {
      await mcp.close();
    }
    // The pool frees the server's browser once its connection ends; the next tests count the pool's browsers.
    await pollUntil(async () => ((await pool.pressure()).running === 0 ? true : undefined), {
      timeoutMs: 20_000,
      onTimeout: () => new Error("the pool kept the MCP server's browser after it quit"),
    });
  });

  it('drives four sessions on a pool of two from one process: queued past 15 s, a full pool retried and refused, one browser and one bus each', async () => {
    const config = { connect: { timeout_ms: 90_000, backoff_ms: [300] } };
    const first = client(pool.ws('/'), config);
    const second = client(pool.http('/'), config);
    await Promise.all([first.starting, second.starting]);
    expect([first.session.connectionState, second.session.connectionState]).toEqual(['connected', 'connected']);

    // The pool is busy: the next two wait in its queue (the WebSocket upgrade is answered when a browser frees).
    const third = client(pool.ws('/'), config);
    const fourth = client(pool.ws('/'), config);
    await pollUntil(async () => ((await pool.pressure()).queued === 2 ? true : undefined), {
      timeoutMs: 20_000,
      onTimeout: () => new Error('the third and fourth sessions were not queued'),
    });
    const queuedSince = performance.now();

    // Queue and running slots are all taken: the pool answers 429. A short budget ends in a clear error...
    const refused = await client(pool.ws('/'), { connect: { timeout_ms: 3000, backoff_ms: [250, 500] } }).starting;
    expect(refused).toMatchObject({ code: 'DISCONNECTED', details: { reason: 'pool_full', status: 429 } });
    expect((refused as Error).message).toMatch(/browser pool at ws:\/\/127\.0\.0\.1:\d+\/\?token=\*\*\* is full/);
    // ...a long one keeps retrying with backoff until the pool has room.
    const patient = client(pool.ws('/'), { connect: { timeout_ms: 90_000, backoff_ms: [300] } });

    // Two sessions, two buses: one waits on a page that does not answer while the other works.
    const holding = first.send('navigate', { url: fixtures.url('/held.html') });
    await pollUntil(() => (held.length > 0 ? true : undefined), {
      timeoutMs: 15_000,
      onTimeout: () => new Error('the held page was never requested'),
    });
    let holdingDone = false;
    void holding.then(() => {
      holdingDone = true;
    });
    await second.ok('navigate', { url: fixtures.url('/b.html') });
    const state = await second.ok<{ title: string }>('state');
    expect(state.title).toBe('Page B');
    expect(holdingDone).toBe(false);
    held.shift()?.end('<!doctype html><title>Held</title><h1>Held</h1>');
    expect(await holding).toMatchObject({ ok: true });

    // tabpilot used to give up on a handshake after a fixed 15 s; a queued session now waits within its budget.
    const queuedFor = performance.now() - queuedSince;
    await new Promise((done) => setTimeout(done, Math.max(0, 16_000 - queuedFor)));
    expect(third.started || fourth.started || patient.started).toBe(false);

    // Each browser the pool frees goes to the next in line.
    const firstBrowser = await first.browserId();
    await first.close();
    expect(await third.starting).toEqual({ cdp_url: expect.stringContaining('token=***') as unknown });
    const secondBrowser = await second.browserId();
    await second.close();
    await fourth.starting;
    const thirdBrowser = await third.browserId();
    await third.close();
    await patient.starting;
    expect(patient.session.connectionState).toBe('connected');

    for (const later of [fourth, patient]) {
      await later.ok('navigate', { url: fixtures.url('/c.html') });
      expect((await later.ok<{ title: string }>('state')).title).toBe('Page C');
    }
    const browsers = [firstBrowser, secondBrowser, thirdBrowser, await fourth.browserId(), await patient.browserId()];
    expect(new Set(browsers).size).toBe(5);
    await fourth.close();
    await patient.close();
  }, 120_000);

  it("does not pretend to reconnect when the pool's own session timeout ends the browser", async () => {
    // `timeout` in the URL is browserless's per-session limit: it ends this browser 10 s after the pool
    // took the connection (launching the browser counts, which can take seconds on a loaded machine).
    const shortLived = client(pool.ws('/', 'timeout=10000'));
    await shortLived.starting;
    expect(shortLived.session.connectionState).toBe('connected');
    await pollUntil(() => (shortLived.session.connectionState === 'disconnected' ? true : undefined), {
      timeoutMs: 30_000,
      onTimeout: () => new Error(`still ${shortLived.session.connectionState} after the pool's timeout`),
    });
    const lost = shortLived.historyOf('BrowserErrorEvent').map((view) => JSON.stringify(view.payload));
    expect(lost.some((text) => text.includes('ConnectionLost') && text.includes('new browser per connection'))).toBe(
      true,
    );
    expect(shortLived.historyOf('BrowserReconnectingEvent')).toHaveLength(0);
    const answer = await shortLived.send('navigate', { url: fixtures.url('/b.html') });
    expect(answer).toMatchObject({ ok: false, error: { code: 'DISCONNECTED' } });
    expect(!answer.ok && answer.error.message).toMatch(/send attach to get a new browser/);
    await shortLived.close();
  }, 60_000);

  it('gets a new browser on attach after the pool ended one, and says so: an event, TAB_NOT_FOUND for old tabs, the next state', async () => {
    const agent = client(pool.http('/'));
    await agent.starting;
    const before = await agent.ok<{ tab_id: string }>('navigate', { url: fixtures.url('/a.html') });
    const other = await agent.ok<{ tab_id: string }>('navigate', { url: fixtures.url('/b.html'), new_tab: true });
    const lostBrowser = await agent.browserId();
    const focused = agent.session.targets.focusedTargetId ?? '';
    const mine = (await pool.sessions()).find((session) => session.pageIds.includes(focused));
    expect(mine).toBeDefined();
    await pool.kill(mine?.id ?? '');
    await pollUntil(() => (agent.session.connectionState === 'disconnected' ? true : undefined), {
      timeoutMs: 20_000,
      onTimeout: () => new Error('the killed browser was not noticed'),
    });

    await agent.ok('attach');
    expect(await agent.browserId()).not.toBe(lostBrowser);
    const replaced = agent.historyOf('BrowserReplacedEvent');
    expect(replaced).toHaveLength(1);
    const payload = replaced[0]?.payload as { lost_target_ids: string[]; cdp_url: string };
    expect(payload.cdp_url).not.toContain(TOKEN);
    // A browser that is shut down closes its pages before its socket goes: each old tab was either
    // announced closed then, or is listed as lost with the browser.
    const closed = agent
      .historyOf('TabClosedEvent')
      .map((view) => agent.session.tabIdOf((view.payload as { target_id: string }).target_id));
    const lost = payload.lost_target_ids.map((targetId) => agent.session.tabIdOf(targetId));
    for (const tab of [before.tab_id, other.tab_id]) {
      expect([...closed, ...lost]).toContain(tab);
    }

    for (const tab of [before.tab_id, other.tab_id]) {
      expect(await agent.send('switch', { tab_id: tab })).toMatchObject({
        ok: false,
        error: { code: 'TAB_NOT_FOUND' },
      });
    }
    const state = await agent.ok<{ browser_errors: string[]; tab_id: string }>('state');
    expect(state.browser_errors.join('\n')).toMatch(/The browser was replaced/);
    // It names the tabs lost with the browser (those announced closed before were said then).
    for (const tab of lost) {
      expect(state.browser_errors.join('\n')).toContain(tab);
    }
    if (lost.length === 0) {
      expect(state.browser_errors.join('\n')).toMatch(/Its tabs are gone/);
    }
    expect([before.tab_id, other.tab_id]).not.toContain(state.tab_id);
    await agent.ok('navigate', { url: fixtures.url('/c.html') });
    expect((await agent.ok<{ browser_errors: string[]; title: string }>('state')).browser_errors).toEqual([]);

    // A page-level endpoint of that browser (as /json/list lists it) is refused before any connection.
    const [pageUrl] = await pool.pageEndpoints();
    expect(pageUrl).toMatch(/\/devtools\/page\//);
    const pageClient = client(`${pageUrl}?token=${TOKEN}`);
    const error = await pageClient.starting;
    expect(error).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'cdp_url' } });
    expect((error as Error).message).toMatch(/endpoint of one page, not of a browser.*browser's endpoint/);
    await agent.close();
  }, 60_000);
});
