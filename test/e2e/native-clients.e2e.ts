import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostClient } from '../../src/platform/node/native/host-client';
import type { CommandResponse } from '../../src/protocol/commands';
import { pollUntil } from '../../src/shared/time';
import { FixtureServer } from './harness/fixture-server';
import { decodePng } from './harness/image';
import { NativeChain, runCli } from './harness/native';
import { PanelPage } from './harness/panel';

/**
 * Native messaging end to end: real Chromium, the built extension, the host installed in the test
 * profile by `tabpilot install-host`, the host Chrome starts, and clients on its socket. Nothing is
 * mocked: the CLI is spawned as a person runs it.
 */

interface TabsResult {
  tabs: Array<{ tab_id: string; url: string; title: string; owner: string | null; focused: boolean }>;
  focused_tab_id: string | null;
}

function ok<T>(response: CommandResponse): T {
  if (!response.ok) {
    throw new Error(`${response.error.code}: ${response.error.message}`);
  }
  return response.result as T;
}

function indexOf(stateText: string, pattern: RegExp): number {
  const line = stateText.split('\n').find((candidate) => pattern.test(candidate));
  const index = /\[(\d+)\]/.exec(line ?? '')?.[1];
  if (index === undefined) {
    throw new Error(`no element matching ${pattern} in:\n${stateText}`);
  }
  return Number(index);
}

describe('native messaging: clients through the host into the extension', () => {
  const server = new FixtureServer();
  let chain: NativeChain;

  beforeAll(async () => {
    server.route('/counter.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><title>count 0</title><button id="add" onclick="document.title = `count ${++window.n}`">Add one</button><script>window.n = 0</script>',
      );
    });
    // A page of noise: a full-page PNG of it cannot be compressed, so its screenshot is a multi-megabyte answer.
    server.route('/noise.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>noise</title><style>body{margin:0}</style><canvas id="c" width="1280" height="1600"></canvas><script>
        const c = document.getElementById('c'); const g = c.getContext('2d'); const img = g.createImageData(c.width, c.height);
        let s = 1; for (let i = 0; i < img.data.length; i++) { s = (Math.imul(s, 1103515245) + 12345) >>> 0; img.data[i] = i % 4 === 3 ? 255 : s >>> 24; }
        g.putImageData(img, 0, 0); document.title = 'noise drawn';</script>`);
    });
    server.route('/upload.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><title>no file</title><label for="f">Big file</label><input type="file" id="f" onchange="document.title = `size ${this.files[0].size} last ${this.files[0].name}`">',
      );
    });
    await server.start();
    chain = await NativeChain.start();
    await chain.host();
  });

  afterAll(async () => {
    await chain?.close();
    await server.stop();
  });

  it('a CLI command through the socket acts on a page, and tabs names its owner', async () => {
    const navigated = await chain.cli(['navigate', '--url', server.url('/counter.html')]);
    expect(navigated.code, navigated.stderr).toBe(0);
    expect(navigated.stdout).toMatch(/tab_id: \w+/);
    const state = await chain.cli(['state']);
    expect(state.code, state.stderr).toBe(0);
    const button = indexOf(state.stdout, /<button.*Add one/);
    const clicked = await chain.cli(['click', '--index', String(button), '--outcome']);
    expect(clicked.code, clicked.stderr).toBe(0);
    // --outcome prints what the click did after its answer: the title the counter sets.
    expect(clicked.stdout).toMatch(/\nOutcome: changed \(settled in \d+ ms\)\nTitle: "count 1"/);
    const tabs = JSON.parse((await chain.cli(['tabs', '--json'])).stdout) as CommandResponse;
    const mine = ok<TabsResult>(tabs).tabs.find((tab) => tab.url === server.url('/counter.html'));
    expect(mine).toMatchObject({ title: 'count 1', owner: 'tabpilot', focused: true });
  });

  it('tells an error answer (exit 1) from bad usage (2) and from no host (3, naming tabpilot doctor)', async () => {
    const missing = await chain.cli(['click', '--index', '9999']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('ELEMENT_NOT_FOUND');
    const failed = await chain.cli(['click', '--index', '9999', '--outcome']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/\nOutcome: failed: detached /);
    const json = await chain.cli(['click', '--index', '9999', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'ELEMENT_NOT_FOUND' } });
    expect((await chain.cli(['click', '--index', 'three'])).code).toBe(2);
    const empty = mkdtempSync(join(tmpdir(), 'tabpilot-nohost-'));
    try {
      const started = Date.now();
      const none = await runCli(['tabs'], { stateDir: empty });
      expect(none.code).toBe(3);
      expect(none.stderr).toContain('No tabpilot host is running');
      expect(none.stderr).toContain('tabpilot doctor');
      // "At once": no waiting for a host that is not there (a generous bound for a loaded machine).
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('connect --extension speaks the same JSON lines as connect --cdp-url', async () => {
    const run = await chain.cli(
      ['connect', '--extension'],
      [
        '{"id": 1, "action": "tabs"}',
        'not json',
        '{"id": 2, "action": "fly"}',
        '{"id": "three", "action": "wait", "params": {"seconds": 0}}',
        '',
      ].join('\n'),
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as CommandResponse);
    expect(lines).toHaveLength(4);
    expect(lines.find((line) => line.id === 1)).toMatchObject({ ok: true, result: { tabs: expect.any(Array) } });
    expect(lines.find((line) => line.id === null)).toMatchObject({ ok: false, error: { code: 'INVALID_JSON' } });
    expect(lines.find((line) => line.id === 2)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_ACTION' } });
    expect(lines.find((line) => line.id === 'three')).toMatchObject({ ok: true, result: { waited_seconds: 0 } });
  });

  it('repl runs one command per line and prints each answer', async () => {
    const run = await chain.cli(['repl'], 'tabs\nstate\nclick --index 99999\n.exit\n');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('count 1');
    expect(run.stdout).toContain('[Start of page]');
    expect(run.stderr).toContain('ELEMENT_NOT_FOUND');
  });

  describe('two clients at once', () => {
    let alpha: HostClient;
    let beta: HostClient;
    let alphaTab: string;
    let betaTab: string;

    beforeAll(async () => {
      [alpha, beta] = await Promise.all([chain.connect('mcp:alpha'), chain.connect('mcp:beta')]);
      const [a, b] = await Promise.all([
        alpha.request('navigate', { url: server.url('/a.html') }),
        beta.request('navigate', { url: server.url('/b.html') }),
      ]);
      alphaTab = ok<{ tab_id: string }>(a).tab_id;
      betaTab = ok<{ tab_id: string }>(b).tab_id;
    });

    afterAll(() => {
      alpha?.close();
      beta?.close();
    });

    it('each works in its own new tab; one is refused FORBIDDEN on the other’s tab', async () => {
      expect(alphaTab).not.toBe(betaTab);
      const [alphaState, betaState] = await Promise.all([alpha.request('state'), beta.request('state')]);
      expect(ok<{ url: string }>(alphaState).url).toBe(server.url('/a.html'));
      expect(ok<{ url: string }>(betaState).url).toBe(server.url('/b.html'));
      const refused = await beta.request('refresh', { tab_id: alphaTab });
      expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', details: { owner: 'mcp:alpha' } } });
      const tabs = ok<TabsResult>(await beta.request('tabs'));
      expect(tabs.focused_tab_id).toBe(betaTab);
      expect(tabs.tabs.find((tab) => tab.tab_id === alphaTab)?.owner).toBe('mcp:alpha');
      expect(tabs.tabs.find((tab) => tab.tab_id === betaTab)?.owner).toBe('mcp:beta');
    });

    it('opens each client’s tabs in the background, grouped and labelled with its name', async () => {
      const groups = await chain.inWorker<Array<{ tab: string; title: string | null; active: boolean }>>(`(async () => {
        const session = globalThis.tabpilot.session;
        const out = [];
        for (const tab of ${JSON.stringify([alphaTab, betaTab])}) {
          const chromeTab = await chrome.tabs.get(globalThis.tabpilot.router.tabIdOfTarget(session.tabIds.targetFor(tab)));
          const group = chromeTab.groupId === -1 ? null : await chrome.tabGroups.get(chromeTab.groupId);
          out.push({ tab, title: group ? group.title : null, active: chromeTab.active });
        }
        return out;
      })()`);
      expect(groups).toEqual([
        { tab: alphaTab, title: 'mcp:alpha', active: false },
        { tab: betaTab, title: 'mcp:beta', active: false },
      ]);
    });

    it('the person may act on any client’s tab; the timeline names the client of each event', async () => {
      const person = await chain.inWorker<CommandResponse>(`globalThis.tabpilot.server
        .connect({ id: 'person', kind: 'panel' }, { send: () => undefined })
        .handle({ id: 1, action: 'refresh', params: { tab_id: ${JSON.stringify(alphaTab)} } })`);
      expect(person).toMatchObject({ ok: true });
      const sources = await chain.inWorker<string[]>(
        `globalThis.tabpilot.timeline.entries().filter((entry) => entry.kind === 'event').map((entry) => entry.source)`,
      );
      expect(sources).toContain('native:mcp:alpha');
      expect(sources).toContain('native:mcp:beta');
      expect(sources).toContain('native:tabpilot');
    });

    it('the panel shows the host and each client with its tabs; Disconnect ends that client alone', async () => {
      const panel = await PanelPage.open(chain.client);
      try {
        await panel.waitForText('#native-host', 'Native host running');
        await panel.waitFor(
          `document.querySelector('[data-client="mcp:alpha"] [data-tab-id="${alphaTab}"]')`,
          'alpha’s tab in the panel',
        );
        await panel.waitFor(
          `document.querySelector('[data-client="mcp:beta"] [data-tab-id="${betaTab}"]')`,
          'beta’s tab in the panel',
        );
        const closed = new Promise<void>((resolve) => alpha.onState((state) => state === 'closed' && resolve()));
        await panel.click('[data-client="mcp:alpha"] [data-action="disconnect"]');
        await closed;
        const tabs = ok<TabsResult>(await beta.request('tabs'));
        expect(tabs.tabs.find((tab) => tab.tab_id === alphaTab)?.owner).toBeNull();
        expect(tabs.tabs.find((tab) => tab.tab_id === betaTab)?.owner).toBe('mcp:beta');
        await panel.waitFor(`!document.querySelector('[data-client="mcp:alpha"]')`, 'alpha gone from the panel');
      } finally {
        await chain.client.root.send('Target.closeTarget', { targetId: panel.targetId });
      }
    });
  });

  it('approve_new_clients, turned on in the panel’s Settings: a new client waits for the person, Allow until revoked runs its held requests, Refuse refuses them, an allowed program is not asked again until Disconnect', async () => {
    const gammaEvents = (): Promise<string[]> =>
      chain.inWorker<string[]>(
        `globalThis.tabpilot.session.bus.history().filter((view) => view.source === 'native:mcp:gamma').map((view) => view.type)`,
      );
    const settled = <T>(promise: Promise<T>): { done: () => boolean; promise: Promise<T> } => {
      let done = false;
      void promise.finally(() => (done = true)).catch(() => undefined);
      return { done: () => done, promise };
    };
    const panel = await PanelPage.open(chain.client);
    const opened: HostClient[] = [];
    try {
      await panel.view('settings');
      const approveField = '[data-field="native_clients.approve_new_clients"] input[type="checkbox"]';
      await panel.waitFor(`document.querySelector(${JSON.stringify(approveField)})`, 'the approve_new_clients field');
      await panel.setChecked(approveField, true);
      await panel.click('#save-settings');
      await panel.waitForText('#settings-result', 'Saved and applied');
      expect(await chain.inWorker('globalThis.tabpilot.settings.config.native_clients.approve_new_clients')).toBe(true);

      const gamma = await chain.connect('mcp:gamma');
      opened.push(gamma);
      const notices: string[] = [];
      gamma.onNotice((notice) => notices.push(notice.approval ?? ''));
      const navigating = settled(gamma.request('navigate', { url: server.url('/counter.html') }));
      await panel.waitFor(
        `document.querySelector('[data-client="mcp:gamma"][data-approval="pending"] [data-action="allow"]')`,
        'the Allow button',
      );
      // The client is told too (a notice line; it may come a moment after the panel shows the button).
      await pollUntil(() => (notices.includes('pending') ? true : undefined), {
        timeoutMs: 10_000,
        onTimeout: () => new Error(`no pending notice for the client (got ${notices.join(', ')})`),
      });
      // Held, not run: nothing of gamma's reached the bus, and its navigate has no answer yet.
      expect(await gammaEvents()).toEqual([]);
      expect(navigating.done()).toBe(false);
      // Issue 24: a plain Allow is this connection only; allowing until revoked issues the program a key.
      await panel.click('[data-client="mcp:gamma"] [data-action="allow-always"]');
      const navigated = ok<{ tab_id: string }>(await navigating.promise);
      expect(await gammaEvents()).toContain('NavigateToUrlEvent');
      const owned = ok<TabsResult>(await gamma.request('tabs')).tabs.find((tab) => tab.tab_id === navigated.tab_id);
      expect(owned).toMatchObject({ owner: 'mcp:gamma', url: server.url('/counter.html') });

      // Allowed until revoked: the same program connecting again (its key, the same executable) is not asked.
      gamma.close();
      const again = await chain.connect('mcp:gamma');
      opened.push(again);
      const againNotices: string[] = [];
      again.onNotice((notice) => againNotices.push(notice.approval ?? ''));
      expect(await again.request('tabs')).toMatchObject({ ok: true });
      expect(againNotices).not.toContain('pending');

      // Refused: the held request and every later one are answered FORBIDDEN, and nothing ran.
      const delta = await chain.connect('mcp:delta');
      opened.push(delta);
      const refused = delta.request('navigate', { url: server.url('/counter.html') });
      await panel.waitFor(
        `document.querySelector('[data-client="mcp:delta"] [data-action="refuse"]')`,
        'the Refuse button',
      );
      await panel.click('[data-client="mcp:delta"] [data-action="refuse"]');
      expect(await refused).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: expect.stringContaining('did not allow mcp:delta') },
      });
      expect(await delta.request('tabs')).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      await panel.waitFor(`document.querySelector('[data-client="mcp:delta"][data-approval="denied"]')`, 'refused');
      expect(
        await chain.inWorker<string[]>(
          `globalThis.tabpilot.session.bus.history().filter((view) => view.source === 'native:mcp:delta').map((view) => view.type)`,
        ),
      ).toEqual([]);

      // Disconnect takes the approval back: the next connection under that name waits again.
      const closed = new Promise<void>((resolve) => again.onState((state) => state === 'closed' && resolve()));
      await panel.click('[data-client="mcp:gamma"] [data-action="disconnect"]');
      await closed;
      const third = await chain.connect('mcp:gamma');
      opened.push(third);
      const thirdAnswer = third.request('tabs');
      await panel.waitFor(
        `document.querySelector('[data-client="mcp:gamma"][data-approval="pending"] [data-action="refuse"]')`,
        'gamma asked again after Disconnect',
      );
      await panel.click('[data-client="mcp:gamma"] [data-action="refuse"]');
      expect(await thirdAnswer).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    } finally {
      for (const client of opened) {
        client.close();
      }
      await chain.inWorker(
        `globalThis.tabpilot.settings.save({ ...globalThis.tabpilot.settings.config, native_clients: { enabled: true, approve_new_clients: false } })`,
      );
      await chain.client.root.send('Target.closeTarget', { targetId: panel.targetId });
    }
  });

  it('carries a 5 MB answer out and a 3 MB request in (chunked under Chrome’s 1 MiB limit), whole', async () => {
    const client = await chain.connect('tabpilot:big');
    try {
      ok(await client.request('navigate', { url: server.url('/noise.html') }));
      const shot = ok<{ data: string }>(await client.request('screenshot', { full_page: true, format: 'png' }));
      expect(shot.data.length).toBeGreaterThan(5 * 1024 * 1024);
      // Whole: a PNG cut anywhere would not decode.
      const image = decodePng(Buffer.from(shot.data, 'base64'));
      expect(image.height).toBeGreaterThanOrEqual(1600);
      ok(await client.request('navigate', { url: server.url('/upload.html') }));
      const state = ok<{ text: string }>(await client.request('state'));
      const input = indexOf(state.text, /type=file/);
      const bytes = Buffer.alloc(3 * 1024 * 1024, 7);
      const uploaded = await client.request('upload_file', {
        index: input,
        files: [{ name: 'big.bin', mime_type: 'application/octet-stream', content_base64: bytes.toString('base64') }],
      });
      expect(uploaded, JSON.stringify(uploaded).slice(0, 500)).toMatchObject({ ok: true });
      await pollUntil(
        async () => {
          const tabs = ok<TabsResult>(await client.request('tabs'));
          return tabs.tabs.find((tab) => tab.title === `size ${bytes.length} last big.bin`);
        },
        { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the page never saw the 3 MB file') },
      );
    } finally {
      client.close();
    }
  });

  it('through the real chain, bad lines and bad worker messages get typed errors; the other clients lose nothing', async () => {
    const host = await chain.host();
    const good = await chain.connect('tabpilot:good');
    const socket = connect(host.record.socket);
    const answers: Array<{ ok?: boolean; error?: { code: string }; hello?: unknown }> = [];
    let rest = '';
    socket.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString('utf8')).split('\n');
      rest = parts.pop() ?? '';
      answers.push(...parts.map((part) => JSON.parse(part) as (typeof answers)[number]));
    });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('{"hello": {"client": "mcp:fuzzer"}}\n');
    const BAD = 1500;
    const goodAnswers: Array<Promise<CommandResponse>> = [];
    const badKinds = [
      'not json at all',
      '{"id": 1, "action": 5}',
      '[1, 2, 3]',
      '{"id": {"x": 1}, "action": "tabs"}',
      '{"id": 2, "action": "tabs", "params": [1]}',
      '{"id": 3, "action": "tabs", "extra": true}',
      '"a string"',
    ];
    for (let i = 0; i < BAD; i++) {
      socket.write(`${badKinds[i % badKinds.length]}\n`);
      if (i % 15 === 0) {
        goodAnswers.push(good.request('tabs'));
      }
    }
    socket.write(Buffer.from([0xff, 0xfe, 0x0a]));
    // The worker's own handler, fed what a broken host could send (Chrome delivers only JSON values).
    const refused = await chain.inWorker<number>(`(() => {
      const link = globalThis.tabpilot.native.link;
      const before = link.refused;
      const shapes = [1, 'x', null, [], { type: 'nope' }, { type: 'request', conn: 7 }, { type: 'chunk', id: 'z', index: 5, total: 2, data: '' },
        { type: 'client_connected', conn: 'zz', client: 'bad name!' }, { type: 'request', conn: 'nobody', seq: -4, message: {} }];
      for (let i = 0; i < 2000; i++) link.receive(shapes[i % shapes.length]);
      return link.refused - before;
    })()`);
    expect(refused).toBe(2000);
    for (const answer of await Promise.all(goodAnswers)) {
      expect(answer).toMatchObject({ ok: true, result: { tabs: expect.any(Array) } });
    }
    await pollUntil(() => (answers.length >= BAD + 2 ? true : undefined), {
      timeoutMs: 30_000,
      onTimeout: () => new Error(`${answers.length} of ${BAD + 2} answers to the fuzzer`),
    });
    const [welcome, ...errors] = answers;
    expect(welcome).toHaveProperty('hello');
    expect(errors).toHaveLength(BAD + 1);
    for (const answer of errors) {
      expect(answer.ok).toBe(false);
      expect(['INVALID_JSON', 'INVALID_REQUEST']).toContain(answer.error?.code);
    }
    socket.destroy();
    // The same host and worker still answer.
    expect((await chain.host()).record.pid).toBe(host.record.pid);
    expect(await good.request('tabs')).toMatchObject({ ok: true });
    good.close();
  });
});
