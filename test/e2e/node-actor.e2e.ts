import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Actor, type Page } from '../actor/index';
import type { StateSummary as BrowserStateSummary } from '../../src/tools/actions';
import { isTabpilotError } from '../../src/shared/errors';
import { pollUntil } from '../../src/shared/time';
// @ts-expect-error -- the benchmark pages' generator is the project's shared .mjs, without types
import { generatePages } from '../../bench/pages/gen-pages.mjs';
import { addActionPages } from './harness/action-pages';
import { NodeDriver } from './harness/drivers';
import { FixtureServer } from './harness/fixture-server';

/** The benchmark's occlusion page with a log of the trusted clicks that reached each button. */
function occlusionPage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tabpilot-occlusion-'));
  try {
    (generatePages as (options: { seed: number; outDir: string }) => void)({ seed: 42, outDir: dir });
    const html = readFileSync(join(dir, 'occlusion.html'), 'utf8');
    const log = `<pre id="click-log" style="position:fixed;left:0;bottom:0;z-index:200;background:#ff0">clicked:</pre>
<script>document.addEventListener('click', (e) => { const b = e.target.closest('button'); if (e.isTrusted && b) document.getElementById('click-log').textContent += ' ' + b.id; }, true);</script>`;
    return html.replace('</body>', `${log}</body>`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The actor API (Page / Element / Mouse) over a Node session, and what only the Node transport can show:
 * uploads by path on the browser's machine, and a browser that says it runs on a Mac.
 */
describe('actor API and Node-only actions', () => {
  let driver: NodeDriver;
  let actor: Actor;
  let page: Page;
  const server = new FixtureServer();
  addActionPages(server);
  const occlusion = occlusionPage();
  server.route('/bench/occlusion.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(occlusion);
  });

  beforeAll(async () => {
    await server.start();
    driver = await NodeDriver.start();
    actor = new Actor(driver.session);
    page = await actor.currentPage();
  });

  afterAll(async () => {
    await driver?.close();
    await server.stop();
  });

  it("agrees with every button's data-expect-occluded on the benchmark's occlusion page", async () => {
    await page.goto(server.url('/bench/occlusion.html'));
    const buttons = await page.querySelectorAll('button[data-expect-occluded]');
    expect(buttons.length).toBe(44);
    const reached: string[] = [];
    for (const button of buttons) {
      const { attributes } = await button.info();
      const id = attributes['id'] ?? '';
      const expected = attributes['data-expect-occluded'];
      const outcome = await button.click().then(
        () => 'clicked',
        (error: unknown) => (isTabpilotError(error) ? `${error.code} ${error.message}` : String(error)),
      );
      if (expected === 'true') {
        expect(outcome, id).toMatch(/^ELEMENT_OCCLUDED .*covered by <div(#drawer-backdrop|\.glass)>/);
      } else {
        // 'false', and 'partial': a point of the uncovered half is used.
        expect(outcome, id).toBe('clicked');
        reached.push(id);
      }
    }
    const state = await driver.ok<BrowserStateSummary>('state', { viewport_expansion: -1 });
    const log = /clicked:([^\n]*)/.exec(state.text)?.[1]?.trim().split(' ') ?? [];
    expect(log).toEqual(reached);
  });

  it('queries, fills, checks and reads elements; presses keys; clicks with the mouse', async () => {
    await page.goto(server.url('/act/form.html'));
    const name = await page.querySelector('#name');
    expect(await name?.getAttribute('value')).toBe('Old name');
    expect(await name?.fill('Grace Hopper')).toMatchObject({ actual_value: 'Grace Hopper', value_matches: true });
    expect(await name?.evaluate('function () { return this.value.toUpperCase(); }')).toBe('GRACE HOPPER');
    const keys = await page.querySelector('#keys');
    await keys?.click();
    await page.type('abc');
    await page.press('ControlOrMeta+a Backspace');
    await page.type('z');
    expect(await keys?.evaluate('function () { return this.value; }')).toBe('z');
    expect(await page.title()).toBe('Form');
    expect(await page.querySelectorAll('nothing-like-this')).toEqual([]);
    await expect(page.querySelector('##bad')).rejects.toMatchObject({ code: 'INVALID_PARAMS' });

    await page.goto(server.url('/act/buttons.html'));
    const agree = await page.querySelector('#agree');
    await agree?.check();
    await agree?.check();
    expect(await agree?.evaluate('function () { return this.checked; }')).toBe(true);
    const box = await (await page.querySelector('#inc'))?.boundingBox();
    expect(box).not.toBeNull();
    await page.mouse.click((box?.x ?? 0) + 5, (box?.y ?? 0) + 5);
    // A zero-size element cannot be reached by the mouse: clicked by script, and said so.
    expect(await (await page.querySelector('#tiny'))?.click()).toMatchObject({ method: 'script' });
    const state = await driver.ok<BrowserStateSummary>('state');
    expect(state.text).toContain('clicks: 1');
    expect(state.text).toContain('tiny clicks: 1');
    const byIndex = await page.elementByIndex(state.elements.find((e) => e.name === 'Double click me')?.index ?? 0);
    expect((await byIndex.screenshot()).length).toBeGreaterThan(100);
    await byIndex.click({ clickCount: 2 });
    expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('double clicks: 1');
    // A handle from a state is released by the next state: it must be found again.
    await expect(byIndex.click()).rejects.toMatchObject({ code: 'ELEMENT_NOT_FOUND' });
    expect(await page.goBack()).toMatchObject({ url: server.url('/act/form.html') });
    // The actor navigates on its own path, and it refuses javascript: URLs too.
    await expect(page.goto("javascript:document.title='ran'")).rejects.toMatchObject({ code: 'URL_BLOCKED' });
    expect(await page.title()).toBe('Form');
  });

  it('selects, scrolls, drags and finds text through the actor', async () => {
    await page.goto(server.url('/act/select.html'));
    await (await page.querySelector('#fruit'))?.selectOption('Apple');
    await (await page.querySelector('#colour-box'))?.selectOption('blue');
    let text = (await driver.ok<BrowserStateSummary>('state')).text;
    expect(text).toContain('fruit: a');
    expect(text).toContain('colour: blue');

    await page.goto(server.url('/act/scroll.html'));
    expect(await (await page.querySelector('#box'))?.scroll('down', { amount: 150 })).toMatchObject({ moved_y: 150 });
    expect(await page.scroll('right', { amount: 40 })).toMatchObject({ moved_x: 40, container: 'page' });
    expect(await page.findText("O'Brien")).toMatchObject({ found: true, frame: 'page' });

    await page.goto(server.url('/act/pointer.html'));
    const card = await page.querySelector('#card');
    const zone = await page.querySelector('#zone');
    expect(card && zone && (await card.dragTo(zone))).toMatchObject({ method: 'html5' });
    text = (await driver.ok<BrowserStateSummary>('state')).text;
    expect(text).toContain('dropped: card');
  });

  it('uploads a file by its path only from the directories in upload_paths, and refuses a path with no file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabpilot-upload-'));
    const outside = mkdtempSync(join(tmpdir(), 'tabpilot-outside-'));
    try {
      const path = join(dir, 'report.txt');
      writeFileSync(path, 'from the disk');
      writeFileSync(join(outside, 'secret.txt'), 'not for the page');
      await driver.ok('navigate', { url: server.url('/act/upload.html') });
      const state = await driver.ok<BrowserStateSummary>('state');
      const input = state.elements.find((element) => element.attributes['id'] === 'file')?.index;
      // browser-use's upload_file keeps to available_file_paths; by default tabpilot allows no path at all.
      expect(await driver.send('upload_file', { index: input, path })).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: expect.stringContaining('upload_paths') },
      });
      await driver.setConfig({ upload_paths: [dir] });
      expect(await driver.send('upload_file', { index: input, path: join(outside, 'secret.txt') })).toMatchObject({
        error: { code: 'FORBIDDEN' },
      });
      const climbing = `${dir}/../${basename(outside)}/secret.txt`;
      expect(await driver.send('upload_file', { index: input, path: climbing })).toMatchObject({
        error: { code: 'INVALID_PARAMS' },
      });
      expect(await driver.ok('upload_file', { index: input, path })).toMatchObject({
        method: 'path',
        files: [{ name: 'report.txt', size: 13 }],
      });
      // The page reads the file asynchronously: wait for its report.
      await pollUntil(
        async () =>
          (await driver.ok<BrowserStateSummary>('state')).text.includes(
            'file: name=report.txt size=13 type=text/plain content=from the disk',
          )
            ? true
            : undefined,
        { timeoutMs: 5000, intervalMs: 50, onTimeout: () => new Error('the page never showed the uploaded file') },
      );
      const missing = await driver.send('upload_file', { index: input, path: join(dir, 'nope.txt') });
      expect(missing).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
      // Nothing from outside reached the page.
      expect((await driver.ok<BrowserStateSummary>('state')).text).not.toContain('secret.txt');
    } finally {
      await driver.setConfig({ upload_paths: [] });
      rmSync(dir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("uses Meta for ControlOrMeta when the browser reports a Mac, and runs the Mac's editing command", async () => {
    const mac = await actor.newPage();
    // Through tabpilot's own session of that tab: the page now reports navigator.platform = MacIntel.
    await mac.session.send('Emulation.setUserAgentOverride', {
      userAgent:
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36',
      platform: 'MacIntel',
    });
    await mac.goto(server.url('/act/form.html'));
    await driver.ok('switch', { tab_id: mac.tabId, activate: true });
    const state = await driver.ok<BrowserStateSummary>('state');
    await driver.ok('input', {
      index: state.elements.find((e) => e.attributes['id'] === 'keys')?.index,
      text: 'hello',
    });
    expect(await driver.ok('send_keys', { keys: 'ControlOrMeta+a' })).toMatchObject({
      sent: ['Meta+a'],
      platform: 'mac',
    });
    // Meta+A selected everything only through the editing command: the next key replaces it all.
    await driver.ok('send_keys', { keys: 'x' });
    const after = await driver.ok<BrowserStateSummary>('state');
    expect(after.text).toContain('Meta+Meta Meta+a');
    expect(after.elements.find((e) => e.attributes['id'] === 'keys')?.attributes['value']).toBe('x');
    await actor.closePage(mac);
  });
});
