import { mkdirSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandResponse } from '../../src/protocol/commands';
import { pollUntil } from '../../src/shared/time';
import { ExtensionDriver } from './harness/drivers';
import { FixtureServer } from './harness/fixture-server';
import { decodePng, encodePng, pixelAt, type Rgb } from './harness/image';
import { PanelPage, SIDE_PANEL_WIDTH } from './harness/panel';
import { addFormPage, elementIndex } from './harness/panel-fixtures';

const OUT_DIR = resolve(import.meta.dirname, '../../test-results');

/**
 * The side panel read as a person reads it, with the built extension in real Chromium: who runs what
 * in which tab (another client, an MCP client named claude-code, works in the worker through the real
 * command server next to the panel), results in words, the timeline in words, controls that cannot
 * act disabled with the reason, and Stop on screen however far the panel scrolls.
 */
describe('side panel for people', () => {
  const server = new FixtureServer();
  addFormPage(server);
  /** Requests for /held.html get no answer (not even headers, so the tab keeps its page) until the test lets them. */
  const held: ServerResponse[] = [];
  server.route('/held.html', (_req, res) => {
    held.push(res);
  });
  const releaseHeld = (): void => {
    for (const res of held.splice(0)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end('<!doctype html><html><head><title>Held</title></head><body><h1>Held</h1></body></html>');
    }
  };
  let driver: ExtensionDriver;
  let panel: PanelPage;

  /** A request from claude-code, started in the worker; `await claudeAnswer(key)` gets its answer. */
  const claudeStart = (key: string, action: string, params: Record<string, unknown>): Promise<unknown> =>
    driver.inWorker(
      `void (globalThis.__claudeAnswers[${JSON.stringify(key)}] = globalThis.__claude.handle(${JSON.stringify({ id: key, action, params })}))`,
    );
  const claudeAnswer = (key: string): Promise<CommandResponse> =>
    driver.inWorker<CommandResponse>(`globalThis.__claudeAnswers[${JSON.stringify(key)}]`);
  const claude = async (action: string, params: Record<string, unknown> = {}): Promise<CommandResponse> => {
    const key = `k${Math.random().toString(36).slice(2)}`;
    await claudeStart(key, action, params);
    return claudeAnswer(key);
  };
  /** What the toolbar button shows, as Chrome has it. */
  const badge = (): Promise<{ text: string; title: string }> =>
    driver.inWorker(
      `Promise.all([chrome.action.getBadgeText({}), chrome.action.getTitle({})]).then(([text, title]) => ({ text, title }))`,
    );
  const waitForBadge = (text: string): Promise<{ text: string; title: string }> =>
    pollUntil(
      async () => {
        const shown = await badge();
        return shown.text === text ? shown : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error(`the toolbar badge never read "${text}"`) },
    );
  const saveShot = async (name: string): Promise<void> => {
    writeFileSync(resolve(OUT_DIR, `side-panel-${name}.png`), encodePng(await panel.screenshot()));
  };

  beforeAll(async () => {
    await server.start();
    mkdirSync(OUT_DIR, { recursive: true });
    driver = await ExtensionDriver.start();
    await driver.client.createTab(server.url('/a.html'));
    panel = await PanelPage.open(driver.client);
    await driver.inWorker(`(() => {
      globalThis.__claude = globalThis.tabpilot.server.connect({ id: 'claude-code', kind: 'mcp' }, { send() {} });
      globalThis.__claudeAnswers = {};
    })()`);
  });

  afterAll(async () => {
    releaseHeld();
    await driver?.close();
    await server.stop();
  });

  it('disables what cannot act while no tab is controlled, and says why; the toolbar badge counts the controlled tabs', async () => {
    await panel.waitForText('#now', 'Idle: no tab is controlled');
    await panel.view('page');
    await panel.waitFor(`document.getElementById('refresh-state')`, 'the page view');
    expect(await panel.eval<boolean>(`document.getElementById('refresh-state').disabled`)).toBe(true);
    expect(await panel.text('#refresh-blocked')).toContain('attach a tab first');
    expect(await panel.eval(`document.getElementById('refresh-state').getAttribute('aria-describedby')`)).toBe(
      'refresh-blocked',
    );
    await panel.view('actions');
    await panel.select('#action-select', 'click');
    await panel.waitFor(`document.getElementById('run-action').disabled`, 'Run click to be disabled');
    expect(await panel.text('#run-blocked')).toContain('No tab is controlled, so click has nothing to act in');
    // An action that needs no tab stays available.
    await panel.select('#action-select', 'tabs');
    await panel.waitFor(`!document.getElementById('run-action').disabled`, 'Run tabs to be enabled');
    expect(await panel.exists('#run-blocked')).toBe(false);

    expect((await badge()).text).toBe('');
    await panel.click('#attach');
    await panel.waitForText('#tabs', 'Page A');
    expect((await waitForBadge('1')).title).toBe('tabpilot: controlling 1 tab');
    await panel.select('#action-select', 'click');
    await panel.waitFor(`!document.getElementById('run-action').disabled`, 'Run click to be enabled once a tab is');
    await panel.view('page');
    expect(await panel.eval<boolean>(`document.getElementById('refresh-state').disabled`)).toBe(false);
    expect(await panel.exists('#refresh-blocked')).toBe(false);
  });

  it('says in a bar that stays on screen who runs what in which tab, and each tab says who holds it and what it does', async () => {
    const tabId = await panel.eval<string>(`document.querySelector('#tabs li').dataset.tabId`);
    await panel.waitForText('#tabs li .tab-owner', 'last used by the panel');
    expect(await claude('attach', { tab_id: tabId })).toMatchObject({ ok: true });
    await panel.waitForText('#tabs li .tab-owner', 'held by claude-code');

    await claudeStart('held', 'navigate', { url: server.crossUrl('/held.html'), timeout_ms: 60_000 });
    const heldUrl = server.crossUrl('/held.html').replace('http://', '');
    const now = await panel.waitForText('#now', 'mcp:claude-code is navigating to');
    expect(now).toBe(`mcp:claude-code is navigating to ${heldUrl} in tab "Page A"`);
    expect(await panel.eval('document.getElementById("now").dataset.running')).toBe('1');
    expect(await panel.text(`#tabs li[data-tab-id="${tabId}"] .tab-doing`)).toBe(`now navigating to ${heldUrl}`);
    await saveShot('running');

    // A short panel, scrolled to the bottom: the bar with Stop and the running action is still in view, on top.
    await panel.session.send('Emulation.setDeviceMetricsOverride', {
      width: SIDE_PANEL_WIDTH,
      height: 260,
      deviceScaleFactor: 1,
      mobile: false,
    });
    await panel.view('timeline');
    await panel.waitFor(
      'document.documentElement.scrollHeight > window.innerHeight * 2',
      'the panel to be taller than its window',
    );
    await panel.eval('window.scrollTo(0, document.documentElement.scrollHeight)');
    await panel.waitFor('window.scrollY > window.innerHeight', 'the panel to scroll');
    for (const selector of ['#stop', '#now']) {
      const onTop = await panel.eval<boolean>(`(() => {
        const node = document.querySelector(${JSON.stringify(selector)});
        const r = node.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return r.top >= 0 && r.bottom <= window.innerHeight && (hit === node || node.contains(hit));
      })()`);
      expect(onTop, `${selector} is on screen and on top when scrolled`).toBe(true);
    }
    await saveShot('scrolled');
    await panel.session.send('Emulation.setDeviceMetricsOverride', {
      width: SIDE_PANEL_WIDTH,
      height: 800,
      deviceScaleFactor: 1,
      mobile: false,
    });
    await panel.eval('window.scrollTo(0, 0)');

    releaseHeld();
    expect(await claudeAnswer('held')).toMatchObject({ ok: true });
    await panel.waitForText('#now', 'Idle: 1 tab controlled, nothing running');
    await panel.waitForText(`#tabs li[data-tab-id="${tabId}"] .tab-control`, 'held by claude-code · idle');
  });

  it('says each result in one line with the JSON folded, shows a screenshot as a picture, and an error with what to do next', async () => {
    await panel.view('actions');
    await panel.select('#action-select', 'navigate');
    await panel.type('[data-field="url"] input', server.crossUrl('/panel-form.html'));
    await panel.click('#run-action');
    expect(await panel.response('action-output')).toMatchObject({ ok: true });
    const formUrl = server.crossUrl('/panel-form.html').replace('http://', '');
    expect(await panel.text('#action-output-summary')).toMatch(
      new RegExp(`^✓ Navigated to ${formUrl.replace(/[.]/g, '\\.')} in \\d+ ms$`),
    );
    expect(await panel.eval<boolean>(`document.querySelector('#action-output-view details').open`)).toBe(false);

    await panel.view('page');
    await panel.click('#refresh-state');
    const go = await elementIndex(panel, '"Go"');
    await panel.view('actions');
    await panel.select('#action-select', 'click');
    let before = await panel.shown('action-output');
    await panel.type('[data-field="index"] input', String(go));
    await panel.click('#run-action');
    expect(await panel.response('action-output', before)).toMatchObject({ ok: true, result: { clicked: true } });
    expect(await panel.text('#action-output-summary')).toMatch(new RegExp(`^✓ Clicked \\[${go}\\].* in \\d+ ms$`));

    await panel.select('#action-select', 'screenshot');
    before = await panel.shown('action-output');
    await panel.click('#run-action');
    const shot = await panel.response('action-output', before);
    expect(shot).toMatchObject({ ok: true, result: { format: 'png' } });
    const size = shot.ok ? (shot.result as { width: number; height: number }) : { width: 0, height: 0 };
    await panel.waitFor(
      `document.getElementById('action-output-image')?.complete && document.getElementById('action-output-image').naturalWidth > 0`,
      'the screenshot picture to decode',
    );
    expect(
      await panel.eval<{ width: number; height: number }>(
        `(() => { const img = document.getElementById('action-output-image'); return { width: img.naturalWidth, height: img.naturalHeight }; })()`,
      ),
    ).toEqual({ width: size.width, height: size.height });
    expect(await panel.text('#action-output-summary')).toMatch(
      new RegExp(`^✓ Took a ${size.width}×${size.height} screenshot in \\d+ ms$`),
    );
    const json = await panel.text('#action-output');
    expect(json).toContain('kB image, shown above');
    expect(json.length).toBeLessThan(2000);
    await saveShot('screenshot-result');

    await panel.select('#action-select', 'click');
    before = await panel.shown('action-output');
    await panel.type('[data-field="index"] input', '9999');
    await panel.click('#run-action');
    expect(await panel.response('action-output', before)).toMatchObject({
      ok: false,
      error: { code: 'ELEMENT_NOT_FOUND' },
    });
    expect(await panel.text('#action-output-summary .next-step')).toContain('read the page again');

    await panel.select('#action-select', 'navigate');
    await panel.type('[data-field="url"] input', server.url('/b.html'));
    await panel.type('[data-field="timeout_ms"] input', '0');
    before = await panel.shown('action-output');
    await panel.click('#run-action');
    expect(await panel.response('action-output', before)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMS', details: { field: 'timeout_ms' } },
    });
    const refused = await panel.text('#action-output-summary');
    expect(refused).toContain('(field timeout_ms)');
    expect(refused).toContain('Correct the marked field and run it again.');
    expect(await panel.exists('.field-error[data-field="timeout_ms"]')).toBe(true);
  });

  it('writes the timeline in words with time and client, folds caused events, marks failures failed and keeps refused commands', async () => {
    await panel.view('timeline');
    const heldUrl = server.crossUrl('/held.html').replace('http://', '');
    const heldRow = `[...document.querySelectorAll('#timeline > .tl-node[data-type="NavigateToUrlEvent"]')].find((node) => node.querySelector(':scope > .tl-row .tl-name').textContent.startsWith('Navigated to ${heldUrl}'))`;
    await panel.waitFor(heldRow, 'the held navigation in words');
    // The tab is named as it is called now (it went on to the form page since).
    const tabTitle = await panel.text('#tabs li .tab-title');
    expect(tabTitle).toBe('Panel form');
    expect(await panel.eval(`${heldRow}.querySelector(':scope > .tl-row .tl-name').textContent`)).toBe(
      `Navigated to ${heldUrl} in tab "${tabTitle}"`,
    );
    expect(await panel.eval(`${heldRow}.querySelector(':scope > .tl-row .tl-source').textContent`)).toBe('mcp');
    expect(await panel.eval(`${heldRow}.querySelector(':scope > .tl-row .tl-clock').textContent`)).toMatch(
      /^\d\d:\d\d:\d\d$/,
    );
    // Its navigation events are folded under it until asked for.
    expect(await panel.eval(`${heldRow}.querySelector(':scope > .tl-children').hidden`)).toBe(true);
    expect(await panel.eval(`${heldRow}.querySelector(':scope > .tl-fold').textContent`)).toMatch(
      /▸ \d+ caused events?/,
    );
    await panel.eval(`${heldRow}.querySelector(':scope > .tl-fold').click()`);
    await panel.waitFor(`!${heldRow}.querySelector(':scope > .tl-children').hidden`, 'the caused events to unfold');
    expect(await panel.eval(`${heldRow}.querySelector(':scope > .tl-fold').getAttribute('aria-expanded')`)).toBe(
      'true',
    );
    await panel.eval(`${heldRow}.querySelector(':scope > .tl-row').click()`);
    expect(await panel.eval(`${heldRow}.querySelector(':scope > .tl-details .tl-client').textContent`)).toBe(
      'mcp:claude-code',
    );

    const failedClick = `document.querySelector('#timeline > .tl-node[data-type="ClickElementEvent"][data-outcome="failed"]')`;
    await panel.waitFor(failedClick, 'the failed click');
    expect(await panel.eval(`${failedClick}.querySelector(':scope > .tl-row .tl-name').textContent`)).toMatch(
      /^Clicking \[9999\] in tab ".*": failed$/,
    );
    await panel.eval(`${failedClick}.querySelector(':scope > .tl-row').click()`);
    const details = await panel.eval<string>(`${failedClick}.querySelector(':scope > .tl-details').textContent`);
    expect(details).toContain('· failed ·');
    expect(details).toContain('ELEMENT_NOT_FOUND');
    expect(details).not.toMatch(/· completed ·/);
    const okClick = `document.querySelector('#timeline > .tl-node[data-type="ClickElementEvent"][data-outcome="completed"] > .tl-row .tl-name')`;
    expect(await panel.eval(`${okClick}.textContent`)).toMatch(/^Clicked \[\d+\].* in tab "Panel form"$/);

    await panel.waitForText('#timeline', 'Refused navigate: INVALID_PARAMS (field timeout_ms)');
    expect(
      await panel.eval(
        `[...document.querySelectorAll('#timeline > .tl-note')].find((node) => node.textContent.includes('Refused navigate')).querySelector('.tl-source').textContent`,
      ),
    ).toBe('panel');

    await panel.click('#timeline-export');
    expect(await panel.waitForText('#timeline-exported', 'Exported ')).toMatch(
      /^Exported \d+ entries as tabpilot-timeline-.*\.jsonl \(in Downloads\)\.$/,
    );
    await saveShot('timeline');
  });

  it('marks the page it read as stale once the tab shows another page', async () => {
    await panel.view('page');
    await panel.click('#refresh-state');
    await panel.waitForText('#page-title', 'Panel form');
    expect(await panel.exists('#page-stale')).toBe(false);
    expect(await claude('navigate', { url: server.url('/b.html') })).toMatchObject({ ok: true });
    expect(await panel.waitForText('#page-stale', 'The tab now shows Page B')).toContain('Refresh to read it');
    await panel.click('#refresh-state');
    await panel.waitForText('#page-title', 'Page B');
    await panel.waitFor(`!document.getElementById('page-stale')`, 'the stale mark to go');
  });

  it('reaches the element rows by keyboard: Tab to a row, arrows between rows, Enter chooses, focus highlights it in the page', async () => {
    expect(await claude('navigate', { url: server.url('/panel-form.html') })).toMatchObject({ ok: true });
    await panel.view('page');
    await panel.click('#refresh-state');
    await panel.waitForText('#page-title', 'Panel form');
    await panel.waitFor(`document.querySelectorAll('#elements li[role="option"]').length >= 2`, 'two element rows');
    expect(await panel.eval(`document.getElementById('elements').getAttribute('role')`)).toBe('listbox');
    const first = await panel.eval<number>(`Number(document.querySelector('#elements li').dataset.index)`);
    const second = await panel.eval<number>(`Number(document.querySelectorAll('#elements li')[1].dataset.index)`);
    // Real key presses, from the refresh button on: Tab moves through the controls to the first row.
    await panel.session.send('Page.bringToFront');
    await panel.eval(`document.getElementById('refresh-state').focus()`);
    const press = async (key: string, code: string, keyCode: number): Promise<void> => {
      await panel.session.send('Input.dispatchKeyEvent', {
        type: 'rawKeyDown',
        key,
        code,
        windowsVirtualKeyCode: keyCode,
      });
      await panel.session.send('Input.dispatchKeyEvent', { type: 'keyUp', key, code, windowsVirtualKeyCode: keyCode });
    };
    await pollUntil(
      async () => {
        if (await panel.eval<boolean>(`document.activeElement?.matches('#elements li')`)) {
          return true;
        }
        await press('Tab', 'Tab', 9);
        return undefined;
      },
      { timeoutMs: 10_000, intervalMs: 10, onTimeout: () => new Error('Tab never reached an element row') },
    );
    expect(await panel.eval<number>(`Number(document.activeElement.dataset.index)`)).toBe(first);
    await press('ArrowDown', 'ArrowDown', 40);
    await panel.waitFor(`document.activeElement?.dataset.index === '${second}'`, 'the arrow to move to the next row');
    const tabId = await panel.eval<string>(`document.querySelector('#tabs li').dataset.tabId`);
    await pollUntil(
      async () =>
        (await driver.evaluateInTab<boolean>(tabId, `document.getElementById('__tabpilot-highlight') !== null`))
          ? true
          : undefined,
      {
        timeoutMs: 10_000,
        intervalMs: 100,
        onTimeout: () => new Error('the focused row was not highlighted in the page'),
      },
    );
    await press('Enter', 'Enter', 13);
    await panel.waitFor(
      `document.querySelector('#elements li[data-index="${second}"]')?.getAttribute('aria-selected') === 'true'`,
      'Enter to choose the row',
    );
    await panel.waitFor(`document.querySelector('.element-actions')`, 'the element actions to open');
  });

  it("names every control for assistive technology in every view, as Chromium's accessibility tree reports it", async () => {
    const CONTROL_ROLES = new Set([
      'button',
      'checkbox',
      'textbox',
      'combobox',
      'searchbox',
      'spinbutton',
      'tab',
      'link',
      'listbox',
      'radio',
    ]);
    for (const view of ['page', 'flows', 'actions', 'timeline', 'settings'] as const) {
      await panel.view(view);
      const { nodes } = await panel.session.send('Accessibility.getFullAXTree', {});
      const controls = nodes.filter((node) => !node.ignored && CONTROL_ROLES.has(String(node.role?.value ?? '')));
      expect(controls.length, `${view} has controls`).toBeGreaterThan(3);
      const unnamed = controls
        .filter((node) => String(node.name?.value ?? '').trim() === '')
        .map((node) => `${String(node.role?.value)} (backend node ${node.backendDOMNodeId ?? '?'})`);
      expect(unnamed, `unnamed controls in the ${view} view`).toEqual([]);
    }
  });

  it('ships its icons at 16, 32, 48 and 128 px, and the toolbar button uses them: a white pointer on blue', async () => {
    const manifest = await driver.inWorker<{
      icons: Record<string, string>;
      action: { default_icon: Record<string, string> };
    }>('chrome.runtime.getManifest()');
    expect(Object.keys(manifest.icons).sort((a, b) => Number(a) - Number(b))).toEqual(['16', '32', '48', '128']);
    expect(
      Object.values(manifest.action.default_icon).every((path) => Object.values(manifest.icons).includes(path)),
    ).toBe(true);
    for (const [size, path] of Object.entries(manifest.icons)) {
      const base64 = await driver.inWorker<string>(`fetch(chrome.runtime.getURL(${JSON.stringify(path)}))
        .then((response) => response.arrayBuffer())
        .then((buffer) => { let text = ''; for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte); return btoa(text); })`);
      const image = decodePng(Buffer.from(base64, 'base64'));
      expect({ width: image.width, height: image.height }, path).toEqual({ width: Number(size), height: Number(size) });
      const at = (x: number, y: number): Rgb =>
        pixelAt(image, Math.floor(x * image.width), Math.floor(y * image.height));
      const [r, , b] = at(0.85, 0.4);
      expect(b > 150 && r < 60, `${path} is blue beside the pointer`).toBe(true);
      expect(
        at(0.36, 0.45).every((channel) => channel > 200),
        `${path} has the white pointer`,
      ).toBe(true);
      expect(image.data[3], `${path} has transparent corners`).toBeLessThan(64);
    }
  });

  it('clears a result once another client moves its tab to another page, saying so', async () => {
    await panel.view('actions');
    await panel.select('#action-select', 'navigate');
    await panel.type('[data-field="url"] input', server.url('/b.html'));
    const before = await panel.shown('action-output');
    await panel.click('#run-action');
    expect(await panel.response('action-output', before)).toMatchObject({ ok: true });
    await panel.waitForText('#action-output-summary', 'Navigated to');
    expect(await claude('navigate', { url: server.url('/c.html?moved-on') })).toMatchObject({ ok: true });
    const stale = await panel.waitForText('#action-output-stale', 'the page has changed since');
    expect(stale).toMatch(/^✓ Navigated to .*b\.html/);
    expect(await panel.exists('#action-output-view')).toBe(false);
  });

  it('stops a running client from the bar, and the bar and the toolbar badge say so', async () => {
    await claudeStart('held-2', 'navigate', { url: server.crossUrl('/held.html?again'), timeout_ms: 60_000 });
    await panel.waitForText('#now', 'mcp:claude-code is navigating to');
    await panel.click('#stop');
    expect(await claudeAnswer('held-2')).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    await panel.waitForText('#now', 'Stopped. Nothing runs until you attach a tab again.');
    // Stopped, not idle: the toolbar says a stop let go of everything until a tab is attached again.
    expect((await waitForBadge('stop')).title).toBe('tabpilot: stopped, every tab let go; attach a tab to start again');
    await pollUntil(
      async () =>
        (await panel.eval<string>(`document.getElementById('now').dataset.running`)) === '0' ? true : undefined,
      {
        timeoutMs: 10_000,
        onTimeout: () => new Error('the bar still shows a running action'),
      },
    );
  });
});
