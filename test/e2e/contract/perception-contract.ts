import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil, sleep } from '../../../src/shared/time';
import type { StateSummary as BrowserStateSummary } from '../../../src/tools/actions';
import type { Driver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';
import { decodePng } from '../harness/image';
import { addPerceptionPages } from '../harness/perception-pages';

/**
 * Perception over both transports: what a state shows (and leaves out) on local fixture pages, across
 * frames and shadow roots, and that indexes stay put while the page does.
 */
export function definePerceptionContract(name: string, start: () => Promise<Driver>): void {
  describe(`perception contract over ${name}`, () => {
    let driver: Driver;
    let tab: string;
    const server = new FixtureServer();
    addPerceptionPages(server);

    beforeAll(async () => {
      await server.start();
      driver = await start();
      tab = await driver.openTab(server.url('/a.html'));
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    async function stateOf(url: string, params: Record<string, unknown> = {}): Promise<BrowserStateSummary> {
      await driver.ok('navigate', { url });
      return driver.ok<BrowserStateSummary>('state', params);
    }

    function element(state: BrowserStateSummary, text: string): BrowserStateSummary['elements'][number] | undefined {
      return state.elements.find((entry) => entry.name.includes(text));
    }

    it('shows visible controls with their live values and leaves hidden and far-away ones out', async () => {
      const state = await stateOf(server.url('/p/visibility.html'));
      expect(state.text.startsWith('[Start of page]')).toBe(true);
      expect(state.text).toContain('Visible heading');
      expect(element(state, 'Shown button')).toBeDefined();
      for (const hidden of [
        'Display none button',
        'Visibility hidden button',
        'Opacity zero button',
        'Inside hidden parent',
        'secret-token',
      ]) {
        expect(state.text, hidden).not.toContain(hidden);
      }
      // 9000 px down is beyond the viewport and its 1000 px margin; the whole page shows it.
      expect(state.text).not.toContain('Far below button');
      expect(state.text).toMatch(/pages below - scroll down to see more/);
      const whole = await driver.ok<BrowserStateSummary>('state', { viewport_expansion: -1 });
      expect(whole.text).toContain('Far below button');
      expect(whole.text.trimEnd().endsWith('[End of page]')).toBe(true);

      const email = state.elements.find((entry) => entry.attributes['id'] === 'email');
      expect(email).toMatchObject({ tag: 'input', role: 'textbox', name: 'Email address' });
      expect(email?.attributes['value']).toBe('a@b.test');
      const password = state.elements.find((entry) => entry.attributes['id'] === 'pw');
      expect(password?.attributes['value']).toBeUndefined();
      expect(state.text).not.toContain('hunter2');
      expect(state.elements.find((entry) => entry.attributes['id'] === 'agree')).toMatchObject({
        name: 'I agree',
        attributes: { checked: 'true' },
      });
      // A label around a control names it by its own text, not the control's options or content.
      expect(state.elements.find((entry) => entry.attributes['id'] === 'size')).toMatchObject({
        name: 'Size',
        attributes: { value: 'Medium' },
      });
      expect(state.elements.find((entry) => entry.attributes['id'] === 'comment')?.name).toBe('Comment');
      expect(state.elements.find((entry) => entry.name === 'Read the docs')?.attributes['href']).toBe(
        '/docs/start?x=1',
      );
      // A textarea's content shows once, as its value.
      expect(state.text.match(/typed notes/g)).toHaveLength(1);
    });

    it('indexes every control once, numbers them from 1, and reports geometry', async () => {
      const state = await stateOf(server.url('/p/visibility.html'));
      const indexes = state.elements.map((entry) => entry.index);
      expect(new Set(indexes).size).toBe(indexes.length);
      for (const entry of state.elements) {
        expect(state.text).toContain(`[${entry.index}]<${entry.tag}`);
        expect(entry.box.width).toBeGreaterThan(0);
      }
      expect(state.page_info.viewport_width).toBeGreaterThan(0);
      expect(state.page_info.page_height).toBeGreaterThan(9000);
      expect(state.tab_id).toBe(tab);
      expect(state.tabs.map((entry) => entry.tab_id)).toContain(tab);
    });

    it('shows nested scroll containers with how much is hidden in each direction', async () => {
      const state = await stateOf(server.url('/p/scroll.html'));
      expect(state.text).toMatch(/\|SCROLL\|<div id=outer \/> \(0\.0 pages above, \d+\.\d pages below\)/);
      expect(state.text).toMatch(/\t\|SCROLL\|<div id=inner \/> \(0\.0 pages above, \d+\.\d pages below\)/);
      expect(state.text).toMatch(/\|SCROLL\|<div id=wide \/> \(0\.0 pages left, \d+\.\d pages right\)/);
      // Content scrolled out of a container is out of view.
      expect(state.text).toContain('Inner line 1');
      expect(state.text).not.toContain('Inner line 30');
    });

    it('indexes in a whole-page state the controls a scroll box shows, and one placed outside it, not those scrolled out', async () => {
      const state = await stateOf(server.url('/p/scroll-controls.html'), { viewport_expansion: -1 });
      const indexed = (name: string): boolean => state.elements.some((entry) => entry.name === name);
      expect(indexed('Row button 1')).toBe(true);
      // Fixed inside the box, drawn outside it: a click there reaches it.
      expect(indexed('Escaped menu item')).toBe(true);
      // Scrolled out of the box, where a click lands on the page below: shown as text, without an index.
      expect(indexed('Row button 20')).toBe(false);
      expect(state.text).toContain('Row button 20');
    });

    it('counts the page the same whether the state shows its view or all of it: hidden content far below is not counted', async () => {
      const view = await stateOf(server.url('/p/far-hidden.html'));
      expect(view.text).toContain('Near link');
      expect(view.text).not.toContain('Far link 1');
      const whole = await driver.ok<BrowserStateSummary>('state', { viewport_expansion: -1, max_chars: 0 });
      expect(whole.text).toContain('Far link 2');
      for (const hidden of ['in closed details', 'until found', 'in display none']) {
        expect(whole.text).not.toContain(hidden);
      }
      // The near link and the two far ones are rendered; the view asked the far hidden ones too.
      const counts = ({ interactive: _indexed, ...rest }: BrowserStateSummary['page_stats']) => rest;
      expect(whole.page_stats.links).toBe(3);
      expect(counts(view.page_stats)).toEqual(counts(whole.page_stats));
    });

    it('stitches same-origin and cross-origin iframes into one state, with page coordinates', async () => {
      const state = await stateOf(server.url('/p/frames.html'));
      expect(state.text).toContain('|IFRAME|<iframe id=same');
      expect(state.text).toContain('|IFRAME|<iframe id=cross');
      expect(state.text).toContain('Frame text same');
      expect(state.text).toContain('Frame text cross');
      const same = element(state, 'Button in same frame');
      const cross = element(state, 'Button in cross frame');
      expect(same).toBeDefined();
      expect(cross).toBeDefined();
      // The cross-origin frame sits to the right of the first one: its button's x is in page coordinates.
      expect(cross?.box.x ?? 0).toBeGreaterThan((same?.box.x ?? 0) + 300);
    });

    it("runs tabpilot's code in one isolated world per frame, the control indicator's included", async () => {
      const contexts = await driver.followContexts();
      try {
        await stateOf(server.url('/p/frames.html'));
        // The indicator showed at the document's start and renews every 2 s: let it renew once here.
        await sleep(2_500);
        const worlds = new Map<string, string[]>();
        for (const { frame_id, name } of await contexts.live()) {
          if (/tabpilot/i.test(name)) {
            worlds.set(frame_id, [...(worlds.get(frame_id) ?? []), name]);
          }
        }
        // The top frame, the same-origin frame and the cross-origin one (its own session), each looked into.
        expect(worlds.size).toBe(3);
        expect([...worlds.values()]).toEqual([['__tabpilot'], ['__tabpilot'], ['__tabpilot']]);
      } finally {
        await contexts.stop();
      }
    });

    it('shows open and closed shadow roots, nested ones included', async () => {
      const state = await stateOf(server.url('/p/shadow.html'));
      // Shadow content reads as its host's content (the boundary is not printed): open and closed alike.
      expect(state.text).toContain('Open shadow text');
      expect(state.text).toContain('Closed shadow text');
      expect(state.text).not.toContain('Shadow End');
      for (const name of [
        'Open shadow button',
        'Closed shadow button',
        'Nested closed button',
        'Link in a closed div root',
      ]) {
        expect(element(state, name), name).toBeDefined();
      }
    });

    it('places slotted light DOM where its slot renders it, and walks display:contents wrappers', async () => {
      const state = await stateOf(server.url('/p/shadow.html'));
      const slotted = element(state, 'Slotted button');
      expect(slotted).toBeDefined();
      expect(element(state, 'Button in a contents wrapper')).toBeDefined();
      // Inside the named group the slot sits in, between the shadow root's header and footer, once.
      expect(state.text).toMatch(
        /Card header\n<div role=group aria-label=Card body \/>\n\t\[\d+\]<button \/> Slotted button\nCard fallback\nCard footer/,
      );
      expect(state.text.split('Slotted button').length).toBe(2);
    });

    it('shows disabled controls marked disabled and without an index', async () => {
      const state = await stateOf(server.url('/p/disabled.html'));
      expect(state.text).toContain('\n<button disabled /> Disabled submit\n');
      expect(state.text).toContain('\n<input placeholder=Inside a disabled fieldset disabled />\n');
      expect(state.text).toContain('\n<a href=/x disabled /> Disabled link\n');
      for (const name of ['Disabled submit', 'Inside a disabled fieldset', 'Disabled link']) {
        expect(element(state, name), name).toBeUndefined();
      }
      expect(element(state, 'Enabled button')).toBeDefined();
    });

    it('indexes the label of a checkbox or radio the page hides behind its own styling, with its state', async () => {
      const state = await stateOf(server.url('/p/custom-controls.html'));
      const labels = ['Send me news', 'I accept the terms', 'Pro plan'].map((name) => {
        const found = element(state, name);
        expect(found, name).toMatchObject({ tag: 'label' });
        return found?.index;
      });
      // A painted checkbox keeps the index itself: its label gets none (one click target, not two).
      expect(state.elements.filter((entry) => entry.name === 'Plain box').map((entry) => entry.tag)).toEqual(['input']);
      expect(state.text).toContain('news=false terms=false plan-pro=false');
      for (const index of labels) {
        await driver.ok('click', { index });
      }
      const after = await driver.ok<BrowserStateSummary>('state');
      expect(after.text).toContain('news=true terms=true plan-pro=true');
      expect(after.text).toMatch(/\[\d+\]<label checked \/> Send me news\n/);
      expect(after.elements.map((entry) => entry.tag).filter((tag) => tag === 'input')).toHaveLength(1);
    });

    it('indexes nothing inert: an inert subtree, and the page behind a modal dialog, far parts included', async () => {
      const inert = await stateOf(server.url('/p/inert.html'));
      expect(inert.text).toContain('Inert text');
      expect(element(inert, 'Inert button')).toBeUndefined();
      expect(element(inert, 'Inert link')).toBeUndefined();
      expect(element(inert, 'Live button')).toBeDefined();
      const modal = await stateOf(server.url('/p/modal.html'), { viewport_expansion: -1 });
      expect(modal.text).toContain('Modal text');
      expect(element(modal, 'Modal button')).toBeDefined();
      expect(element(modal, 'Button behind the modal')).toBeUndefined();
      expect(element(modal, 'Button far below the modal')).toBeUndefined();
    });

    it('does not index a button an overlay covers', async () => {
      const state = await stateOf(server.url('/p/overlay.html'));
      expect(state.text).toContain('Covered button');
      expect(element(state, 'Covered button')).toBeUndefined();
      expect(element(state, 'Free button')).toBeDefined();
    });

    it('keeps indexes while the page stays, and marks elements new since the last state', async () => {
      const { tab_id: dynamicTab } = await driver.ok<{ tab_id: string }>('navigate', {
        url: server.url('/p/dynamic.html'),
      });
      const first = await driver.ok<BrowserStateSummary>('state');
      expect(first.elements.every((entry) => !entry.is_new)).toBe(true);
      // The page adds its late button when the test says so, after the first state (not on a timer).
      await driver.evaluateInTab(dynamicTab, 'addLateButton()');
      const second = await driver.ok<BrowserStateSummary>('state');
      for (const name of ['First button', 'Second button']) {
        expect(element(second, name)?.index).toBe(element(first, name)?.index);
        expect(element(second, name)?.is_new).toBe(false);
      }
      const late = element(second, 'Late button');
      expect(late?.is_new).toBe(true);
      expect(second.text).toContain(`*[${late?.index}]<button`);
    });

    it('answers only what changed since the last state with changes_only, and the whole page after a navigation', async () => {
      const { tab_id: menuTab } = await driver.ok<{ tab_id: string }>('navigate', { url: server.url('/p/menu.html') });
      const full = await driver.ok<BrowserStateSummary>('state', { changes_only: true });
      // An earlier test's page was in this tab: another document, so the whole state.
      expect(full.changes).toMatchObject({ full: true, added: [], removed: [], changed: [] });
      expect(full.changes?.reason).toMatch(/replaced|no earlier state/);
      expect(full.text).toContain('Open menu');
      expect(element(full, 'Alpha item')).toBeUndefined();
      await driver.ok('click', { index: element(full, 'Open menu')?.index });

      const opened = await driver.ok<BrowserStateSummary>('state', { changes_only: true });
      const items = ['Alpha item', 'Beta item', 'Gamma item'].map((name) => element(opened, name)?.index);
      expect(opened.changes).toEqual({ full: false, reason: null, added: items, removed: [], changed: [] });
      expect(opened.elements.map((entry) => entry.index)).toEqual(items);
      for (const index of items) {
        expect(opened.text).toMatch(new RegExp(`^\\[${index}\\]<button />`, 'm'));
      }
      expect(opened.text).not.toContain('Open menu');

      await driver.ok('click', { index: element(full, 'Do nothing')?.index });
      const idle = await driver.ok<BrowserStateSummary>('state', { changes_only: true });
      expect(idle.changes).toEqual({ full: false, reason: null, added: [], removed: [], changed: [] });
      expect(idle.text).toBe('No change since your last state of this page.');

      // An index from the changes is one click takes: the item closes the menu.
      await driver.ok('click', { index: items[1] });
      const query = full.elements.find((entry) => entry.attributes['id'] === 'query')?.index;
      await driver.ok('input', { index: query, text: 'typed' });
      const picked = await driver.ok<BrowserStateSummary>('state', { changes_only: true });
      expect(picked.changes).toMatchObject({ full: false, added: [], removed: items });
      expect(picked.changes?.changed).toEqual([query]);
      expect(picked.text).toContain('typed');
      expect(picked.text).toContain(`Removed: ${items.join(' ')}`);

      // A hash change keeps the document: still changes.
      await driver.evaluateInTab(menuTab, "location.hash = 'section'");
      const hashed = await driver.ok<BrowserStateSummary>('state', { changes_only: true });
      expect(hashed.changes).toMatchObject({ full: false, added: [], removed: [] });

      await driver.ok('navigate', { url: server.url('/p/menu.html?again') });
      const replaced = await driver.ok<BrowserStateSummary>('state', { changes_only: true });
      expect(replaced.changes).toMatchObject({ full: true, reason: 'the page was replaced: its indexes start anew' });
      expect(replaced.text).toContain('Open menu');
      expect(await driver.send('state', { changes_only: true, include_dom: false })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAMS' },
      });
    });

    it('answers ELEMENT_NOT_FOUND for an index the latest state does not have', async () => {
      await stateOf(server.url('/p/dynamic.html'));
      expect(await driver.send('highlight', { index: 99999 })).toMatchObject({
        ok: false,
        error: { code: 'ELEMENT_NOT_FOUND' },
      });
    });

    it('keeps the text within its character budget, the same text the whole page gives up to the cut, and stops reading there', async () => {
      const whole = await stateOf(server.url('/p/list.html'), { max_chars: 0, viewport_expansion: -1 });
      expect(whole.truncated).toBe(false);
      const state = await driver.ok<BrowserStateSummary>('state', { max_chars: 600, viewport_expansion: -1 });
      expect(state.truncated).toBe(true);
      expect(state.text.length).toBeLessThan(900);
      // The walk stopped once its lines filled the budget: it read a few of the 300 items, not the page.
      expect(state.text).toMatch(/\(truncated at 600 characters: more of the page follows; scroll/);
      expect(state.page_stats.elements).toBeLessThan(whole.page_stats.elements / 4);
      const kept = state.text.split('\n').slice(0, -1);
      expect(kept.length).toBeGreaterThan(10);
      expect(whole.text.split('\n').slice(0, kept.length)).toEqual(kept);
      expect(state.elements).toEqual(whole.elements.slice(0, state.elements.length));
      // A budget the lines fill only with their indexes and attributes: the whole page is read, and counted.
      const near = await driver.ok<BrowserStateSummary>('state', {
        max_chars: whole.text.length - 20,
        viewport_expansion: -1,
      });
      expect(near.page_stats.elements).toBe(whole.page_stats.elements);
      expect(near.text).toMatch(/\(truncated at \d+ characters: \d+ more lines with \d+ more elements/);
    });

    it('comes back non-actionable with state_error when the page does not answer in time', async () => {
      await driver.setConfig({ timeouts: { BrowserStateRequestEvent: 1000 } });
      try {
        await driver.ok('navigate', { url: server.url('/p/busy.html') });
        await driver.ok('wait', { seconds: 0.3 });
        const state = await driver.ok<BrowserStateSummary>('state');
        expect(state.state_error).toMatch(/did not answer in time/);
        expect(state.elements).toEqual([]);
      } finally {
        await driver.setConfig({ timeouts: {} });
      }
      await driver.ok('wait', { seconds: 4 });
      const recovered = await driver.ok<BrowserStateSummary>('state');
      expect(recovered.state_error).toBeNull();
      expect(recovered.text).toContain('busy page');
    });

    it('takes screenshots: viewport, full page, clip, png and jpeg', async () => {
      await driver.ok('navigate', { url: server.url('/p/list.html') });
      const png = await driver.ok<{ data: string; format: string; width: number; height: number }>('screenshot');
      const bytes = Buffer.from(png.data, 'base64');
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
      expect(bytes.readUInt32BE(16)).toBeGreaterThan(100);
      const full = await driver.ok<{ height: number }>('screenshot', { full_page: true, format: 'jpeg', quality: 50 });
      expect(full.height).toBeGreaterThan(png.height * 2);
      const clip = await driver.ok<{ data: string }>('screenshot', { clip: { x: 0, y: 0, width: 120, height: 60 } });
      const clipBytes = Buffer.from(clip.data, 'base64');
      expect(clipBytes.readUInt32BE(16)).toBe(120);
      expect(clipBytes.readUInt32BE(20)).toBe(60);
      // Bounded, the browser scales the image itself: the long side and the pixel count stay within.
      const bounded = await driver.ok<{ data: string; width: number; image_width: number; image_height: number }>(
        'screenshot',
        { max_side: 400, max_pixels: 60_000 },
      );
      const boundedBytes = Buffer.from(bounded.data, 'base64');
      const [boundedWidth, boundedHeight] = [boundedBytes.readUInt32BE(16), boundedBytes.readUInt32BE(20)];
      expect([boundedWidth, boundedHeight]).toEqual([bounded.image_width, bounded.image_height]);
      expect(Math.max(boundedWidth, boundedHeight)).toBeLessThanOrEqual(400);
      expect(boundedWidth * boundedHeight).toBeLessThanOrEqual(60_000);
      expect(boundedWidth / boundedHeight).toBeCloseTo(png.width / png.height, 1);
      const withShot = await driver.ok<BrowserStateSummary>('state', { include_screenshot: true });
      expect(withShot.screenshot_format).toBe('jpeg');
      expect(Buffer.from(withShot.screenshot ?? '', 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    });

    it('takes the screenshot of a background tab that navigated there', async () => {
      const behind = await driver.openTab(server.url('/p/list.html'));
      const front = await driver.openTab(server.url('/p/visibility.html'));
      // The page moves on while its tab is behind another (an agent's tab after a click that navigates).
      await driver.evaluateInTab(behind, `location.assign(${JSON.stringify(server.url('/p/extract.html'))})`);
      await pollUntil(
        async () => {
          const where = await driver
            .evaluateInTab<string>(behind, 'location.pathname + " " + document.readyState')
            .catch(() => '');
          return where === '/p/extract.html complete' ? true : undefined;
        },
        { timeoutMs: 10_000, onTimeout: () => new Error('the background tab never showed its new page') },
      );
      expect(await driver.evaluateInTab(behind, 'document.visibilityState')).toBe('hidden');
      for (let shot = 0; shot < 3; shot++) {
        const picture = await driver.ok<{ data: string; format: string }>('screenshot', {
          tab_id: behind,
          format: 'jpeg',
        });
        expect(Buffer.from(picture.data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      }
      // The picture is of the whole viewport, not of a frame drawn for a nudge beside it.
      const png = await driver.ok<{ data: string; image_width: number; image_height: number }>('screenshot', {
        tab_id: behind,
      });
      const image = decodePng(Buffer.from(png.data, 'base64'));
      expect(png.image_width).toBeGreaterThan(100);
      expect({ width: image.width, height: image.height }).toEqual({
        width: png.image_width,
        height: png.image_height,
      });
      await driver.ok('close', { tab_id: behind });
      await driver.ok('close', { tab_id: front });
    });

    it('extracts the page as markdown without a model', async () => {
      await driver.ok('navigate', { url: server.url('/p/visibility.html') });
      const result = await driver.ok<{ markdown: string; total_chars: number; next_start_char: number | null }>(
        'extract',
        {},
      );
      expect(result.markdown).toContain('# Visible heading');
      expect(result.markdown).toContain(`[Read the docs](${server.url('/docs/start?x=1')})`);
      expect(result.markdown).not.toContain('Display none button');
      expect(result.markdown).not.toContain('hunter2');
      expect(result.next_start_char).toBeNull();
      const chunk = await driver.ok<{ markdown: string; start_from_char: number }>('extract', { start_from_char: 10 });
      expect(chunk.markdown).toBe(result.markdown.slice(10));
    });

    it('keeps what a table cell holds and the space between inline elements in the markdown', async () => {
      await driver.ok('navigate', { url: server.url('/p/extract.html') });
      const { markdown } = await driver.ok<{ markdown: string }>('extract', {});
      // Words of two inline elements apart only by whitespace stay apart.
      expect(markdown).toContain('Action 1: haven Action 2: jetty');
      // A cell keeps its link, code and emphasis; a pipe in a cell is escaped.
      expect(markdown).toContain(`| Basic | [Details](${server.url('/plans/basic')}) and \`5 GB\` |`);
      expect(markdown).toContain('| Pro \\| Team | **50 GB** |');
      // GFM has no caption: it stands above the table.
      expect(markdown).toMatch(/Storage per plan\n\n\| Basic \|/);
    });

    it('searches the page text and queries elements by CSS selector', async () => {
      await driver.ok('navigate', { url: server.url('/p/list.html') });
      const found = await driver.ok<{ matches: Array<{ match: string; context: string }>; total: number }>(
        'search_page',
        {
          pattern: 'Item number 3',
          max_results: 5,
        },
      );
      expect(found.total).toBe(12);
      expect(found.matches).toHaveLength(5);
      const regex = await driver.ok<{ total: number }>('search_page', { pattern: 'number 29\\b', regex: true });
      expect(regex.total).toBe(1);
      expect(await driver.send('search_page', { pattern: '(', regex: true })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAMS' },
      });
      await driver.ok('state');
      const links = await driver.ok<{
        total: number;
        elements: Array<{ tag: string; attributes: Record<string, string>; text?: string; index: number | null }>;
      }>('find_elements', { selector: 'li > a', attributes: ['href'], max_results: 3 });
      expect(links.total).toBe(300);
      expect(links.elements[0]).toMatchObject({
        tag: 'a',
        attributes: { href: server.url('/item/1') },
        text: 'Item number 1',
      });
      expect(links.elements[0]?.index).toBeGreaterThan(0);
      expect(await driver.send('find_elements', { selector: '##' })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAMS' },
      });
    });

    it('runs scripts only when the config allows it', async () => {
      await driver.ok('navigate', { url: server.url('/p/list.html') });
      expect(await driver.send('evaluate', { code: 'document.title' })).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN' },
      });
      await driver.setConfig({ allow_evaluate: true });
      try {
        expect(await driver.ok('evaluate', { code: 'document.title' })).toEqual({ value: 'Long list' });
        expect(await driver.ok('evaluate', { code: 'await Promise.resolve(6 * 7)' })).toEqual({ value: 42 });
        expect(await driver.send('evaluate', { code: 'throw new Error("nope")' })).toMatchObject({
          ok: false,
          error: { code: 'INVALID_PARAMS' },
        });
      } finally {
        await driver.setConfig({ allow_evaluate: false });
      }
    });

    it('saves a PDF and a screenshot as files that read back, only inside the output folder', async () => {
      await driver.ok('navigate', { url: server.url('/p/list.html') });
      const name = `tabpilot-e2e-${driver.kind}-${Date.now()}`;
      const saved: string[] = [];
      // Node writes under output_dir; the extension under Downloads/tabpilot whatever output_dir says.
      await driver.setConfig({ output_dir: tmpdir() });
      try {
        const pdf = await driver.ok<{ path: string; bytes: number }>('save_as_pdf', { file_name: `${name}.pdf` });
        saved.push(pdf.path);
        const pdfBytes = readFileSync(pdf.path);
        expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');
        expect(pdfBytes.length).toBe(pdf.bytes);
        const shot = await driver.ok<{ path: string }>('screenshot', { file_name: `${name}.png` });
        saved.push(shot.path);
        expect(readFileSync(shot.path).subarray(1, 4).toString()).toBe('PNG');
        // A page cannot talk the model into writing elsewhere: absolute names and parent steps are refused.
        for (const [action, fileName] of [
          ['screenshot', `${tmpdir()}/${name}-abs.png`],
          ['screenshot', `../${name}-up.png`],
          ['save_as_pdf', `shots/../../${name}-up.pdf`],
        ] as const) {
          expect(await driver.send(action, { file_name: fileName }), fileName).toMatchObject({
            ok: false,
            error: { code: 'INVALID_PARAMS', details: { field: 'file_name' } },
          });
        }
      } finally {
        await driver.setConfig({ output_dir: '.' });
        for (const path of saved) {
          rmSync(path, { force: true });
        }
      }
    });

    it('outlines an element for a person and clears it', async () => {
      const state = await stateOf(server.url('/p/visibility.html'));
      const shown = element(state, 'Shown button');
      await driver.ok('highlight', { index: shown?.index });
      expect(await driver.evaluateInTab(tab, "!!document.getElementById('__tabpilot-highlight')")).toBe(true);
      await driver.ok('highlight', {});
      expect(await driver.evaluateInTab(tab, "!!document.getElementById('__tabpilot-highlight')")).toBe(false);
    });
  });
}
