import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabpilotConfigInput } from '../../../src/agent/tabpilot-config';
import type { StateSummary as BrowserStateSummary } from '../../../src/tools/actions';
import type { CommandResponse } from '../../../src/protocol/commands';
import { pollUntil } from '../../../src/shared/time';
import { addActionPages } from '../harness/action-pages';
import type { Driver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';

/** What the contract needs beyond the protocol: setting the config, and reading the bus history. */
export interface ActionsHooks {
  configure(driver: Driver, config: TabpilotConfigInput): Promise<void>;
  /** The session's bus history, serialised (to prove what never reaches it). */
  history(driver: Driver): Promise<string>;
}

type Element = BrowserStateSummary['elements'][number];

const SECRET = 'Tr0ub4dor&3-secret-value';

/**
 * The actions contract, run unchanged over both transports: clicks (by index, by coordinates, covered,
 * opening tabs), typing (plain, controlled, special inputs, contenteditable, secrets), keys, scrolling,
 * uploads, dropdowns, hover and drag, background tabs and out-of-process frames. Every result is read
 * back through the protocol (`state`) or the fixture server.
 */
export function defineActionsContract(name: string, start: () => Promise<Driver>, hooks: ActionsHooks): void {
  describe(`actions contract over ${name}`, () => {
    let driver: Driver;
    let tab: string;
    const server = new FixtureServer();
    const pages = addActionPages(server);

    beforeAll(async () => {
      await server.start();
      driver = await start();
      tab = await driver.openTab(server.url('/a.html'));
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    async function open(path: string, params: Record<string, unknown> = {}): Promise<BrowserStateSummary> {
      await driver.ok('navigate', { url: server.url(path) });
      return driver.ok<BrowserStateSummary>('state', params);
    }

    /** An indexed element by its id (form fields keep theirs in the state) or else its accessible name. */
    function byId(state: BrowserStateSummary, key: string): Element {
      const found =
        state.elements.find((element) => element.attributes['id'] === key) ??
        state.elements.find((element) => element.name === key);
      if (found === undefined) {
        throw new Error(`no indexed element "${key}" in:\n${state.text}`);
      }
      return found;
    }

    /** The next state whose text shows `expected` (the page reacts asynchronously, e.g. reading a File). */
    async function stateShowing(expected: string): Promise<BrowserStateSummary> {
      let last = '';
      return pollUntil(
        async () => {
          const state = await driver.ok<BrowserStateSummary>('state');
          last = state.text;
          return state.text.includes(expected) ? state : undefined;
        },
        { timeoutMs: 5000, intervalMs: 50, onTimeout: () => new Error(`no state showed "${expected}" in:\n${last}`) },
      );
    }

    async function failure(action: string, params: Record<string, unknown>): Promise<CommandResponse & { ok: false }> {
      const response = await driver.send(action, params);
      if (response.ok) {
        throw new Error(`${action} succeeded but should have failed: ${JSON.stringify(response.result)}`);
      }
      return response;
    }

    it('clicks a button by index with one trusted mouse click', async () => {
      const state = await open('/act/buttons.html');
      const result = await driver.ok<{ clicked: boolean; method: string; x: number; y: number }>('click', {
        index: byId(state, 'Add one').index,
      });
      expect(result).toMatchObject({ clicked: true, method: 'mouse' });
      const box = byId(state, 'Add one').box;
      expect(result.x).toBeGreaterThanOrEqual(box.x);
      expect(result.x).toBeLessThanOrEqual(box.x + box.width);
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('clicks: 1 (');
    });

    it('honours the mouse button and the click count (browser-use always clicks once, left)', async () => {
      const state = await open('/act/buttons.html');
      await driver.ok('click', { index: byId(state, 'Which button').index, button: 'right' });
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('last button: 2');
      await driver.ok('click', { index: byId(state, 'Which button').index, button: 'middle' });
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('last button: 1');
      await driver.ok('click', { index: byId(state, 'Double click me').index, click_count: 2 });
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('double clicks: 1');
    });

    it('toggles a checkbox and picks a radio, reporting the checked state', async () => {
      const state = await open('/act/buttons.html');
      expect(await driver.ok('click', { index: byId(state, 'agree').index })).toMatchObject({ checked: true });
      expect(await driver.ok('click', { index: byId(state, 'large').index })).toMatchObject({ checked: true });
      const after = await driver.ok<BrowserStateSummary>('state');
      expect(byId(after, 'agree').attributes['checked']).toBe('true');
      expect(byId(after, 'large').attributes['checked']).toBe('true');
      expect(byId(after, 'small').attributes['checked']).toBe('false');
    });

    it('refuses to click a covered button with ELEMENT_OCCLUDED naming the cover; nothing is clicked', async () => {
      const state = await open('/act/buttons.html');
      await driver.ok('click', { index: byId(state, 'Show cookie banner').index });
      const response = await failure('click', { index: byId(state, 'Buy now').index });
      expect(response.error.code).toBe('ELEMENT_OCCLUDED');
      expect(response.error.message).toContain('cookie-banner');
      const after = await driver.ok<BrowserStateSummary>('state');
      expect(after.text).toContain('buy clicks: 0');
      expect(after.text).toContain('banner clicks: 0');
    });

    it('reports the tab a click opened: a target=_blank link and a window.open popup', async () => {
      const state = await open('/act/buttons.html');
      for (const [id, path] of [
        ['Open C in a new tab', '/c.html'],
        ['Open B in a popup', '/b.html'],
      ] as const) {
        const result = await driver.ok<{ opened_tab_id: string | null }>('click', { index: byId(state, id).index });
        expect(result.opened_tab_id, id).not.toBeNull();
        const opened = await pollUntil(
          async () => {
            const listing = await driver.ok<{ tabs: Array<{ tab_id: string; url: string }> }>('tabs');
            return listing.tabs.find((entry) => entry.tab_id === result.opened_tab_id && entry.url.endsWith(path));
          },
          { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error(`the opened tab never showed ${path}`) },
        );
        await driver.ok('close', { tab_id: opened.tab_id });
        await driver.ok('switch', { tab_id: tab });
      }
      const plain = await driver.ok<{ opened_tab_id: string | null }>('click', { index: byId(state, 'Add one').index });
      expect(plain.opened_tab_id).toBeNull();
    });

    it("clicks by coordinates after checking what is there (browser-use's tools force and skip the checks)", async () => {
      const state = await open('/act/buttons.html');
      const box = byId(state, 'Add one').box;
      const result = await driver.ok<{ element: string }>('click', {
        coordinate_x: box.x + box.width / 2,
        coordinate_y: box.y + box.height / 2,
      });
      expect(result.element).toContain('button#inc');
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('clicks: 1');
      expect((await failure('click', { coordinate_x: 5000, coordinate_y: 10 })).error.code).toBe('INVALID_PARAMS');
      const select = byId(await open('/act/select.html'), 'fruit').box;
      const onSelect = await failure('click', { coordinate_x: select.x + 5, coordinate_y: select.y + 5 });
      expect(onSelect.error).toMatchObject({ code: 'INVALID_PARAMS' });
      expect(onSelect.error.message).toContain('dropdown_options');
    });

    it('answers ELEMENT_NOT_FOUND for an unknown index and INVALID_PARAMS for bad parameters', async () => {
      await open('/act/buttons.html');
      expect((await failure('click', { index: 999 })).error.code).toBe('ELEMENT_NOT_FOUND');
      expect((await failure('click', {})).error.code).toBe('INVALID_PARAMS');
      expect((await failure('click', { index: 1, coordinate_x: 3, coordinate_y: 4 })).error.code).toBe(
        'INVALID_PARAMS',
      );
      expect((await failure('input', { index: 1, text: 'x', bogus: true })).error.code).toBe('INVALID_PARAMS');
    });

    it('types into an input (replacing, then appending) and a textarea with real key events', async () => {
      const state = await open('/act/form.html');
      const name = byId(state, 'name').index;
      expect(await driver.ok('input', { index: name, text: 'Ada Lovelace' })).toMatchObject({
        value: 'Ada Lovelace',
        value_matches: true,
        method: 'insert_text',
      });
      await driver.ok('input', { index: name, text: ' Byron', clear: false });
      const bio = byId(state, 'bio').index;
      expect(
        await driver.ok('input', { index: bio, text: 'Line one\nLine "two" & <3', typing: 'key_events' }),
      ).toMatchObject({ value: 'Line one\nLine "two" & <3', value_matches: true, method: 'key_events' });
      const after = await driver.ok<BrowserStateSummary>('state');
      expect(byId(after, 'name').attributes['value']).toBe('Ada Lovelace Byron');
      expect(after.text).toContain('typed: Ada Lovelace Byron');
      expect(byId(after, 'bio').attributes['value']).toBe('Line one Line "two" & <3');
    });

    it('sets date, time, colour and range inputs, and refuses a value the input rejects', async () => {
      const state = await open('/act/form.html');
      const values: Record<string, string> = { when: '2024-03-15', at: '13:45', colour: '#ff8800', volume: '75' };
      for (const [id, text] of Object.entries(values)) {
        expect(await driver.ok('input', { index: byId(state, id).index, text }), id).toMatchObject({
          field: 'value',
          value_matches: true,
        });
      }
      const after = await driver.ok<BrowserStateSummary>('state');
      for (const [id, text] of Object.entries(values)) {
        expect(byId(after, id).attributes['value'], id).toBe(text);
      }
      const wrong = await failure('input', { index: byId(state, 'when').index, text: '15/03/2024' });
      expect(wrong.error.code).toBe('INVALID_PARAMS');
      expect(wrong.error.message).toContain('date');
    });

    it('types into contenteditable and refuses read-only fields and non-text controls', async () => {
      const state = await open('/act/form.html');
      expect(await driver.ok('input', { index: byId(state, 'Editor').index, text: 'Fresh words' })).toMatchObject({
        field: 'contenteditable',
        value: 'Fresh words',
        value_matches: true,
      });
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('editor says: Fresh words');
      expect((await failure('input', { index: byId(state, 'ro').index, text: 'x' })).error.message).toContain(
        'read-only',
      );
      expect((await failure('input', { index: byId(state, 'Send').index, text: 'x' })).error.code).toBe(
        'INVALID_PARAMS',
      );
    });

    it('keeps typed text in a React-like controlled input that re-renders from its state', async () => {
      const state = await open('/act/controlled.html');
      expect(state.text).toContain('state: React old');
      const field = byId(state, 'controlled').index;
      for (const typing of ['insert_text', 'key_events'] as const) {
        const text = `typed by ${typing}`;
        expect(await driver.ok('input', { index: field, text, typing })).toMatchObject({
          value: text,
          value_matches: true,
        });
        // A click elsewhere blurs and re-renders the field from the framework's state.
        await driver.ok('click', { index: byId(state, 'Somewhere else').index });
        const after = await driver.ok<BrowserStateSummary>('state');
        expect(after.text).toContain(`state: ${text}`);
        expect(byId(after, 'controlled').attributes['value']).toBe(text);
      }
    });

    it('sets the value again when the page moved the caret and the text was appended to the old value', async () => {
      const state = await open('/act/controlled.html');
      expect(await driver.ok('input', { index: byId(state, 'sticky').index, text: 'Fresh' })).toMatchObject({
        value: 'Fresh',
        value_matches: true,
        rewritten: true,
      });
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('sticky: Fresh');
    });

    it("presses keys and chords with the browser's platform modifier (browser-use asks the host OS), and types text", async () => {
      const state = await open('/act/form.html');
      await driver.ok('click', { index: byId(state, 'keys').index });
      const sent = await driver.ok<{ sent: string[]; platform: string }>('send_keys', {
        keys: 'ControlOrMeta+a Shift+Tab',
      });
      // The test browser runs on Linux: ControlOrMeta is Control there, whatever the host.
      expect(sent).toEqual({ tab_id: tab, sent: ['Control+a', 'Shift+Tab'], platform: 'other' });
      await driver.ok('click', { index: byId(state, 'keys').index });
      await driver.ok('send_keys', { keys: 'hi there' });
      await driver.ok('send_keys', { keys: 'Enter' });
      const after = await driver.ok<BrowserStateSummary>('state');
      expect(after.text).toContain('keys: Control+Control Control+a Shift+Shift Shift+Tab');
      expect(after.text).toContain('h i Space t h e r e Enter');
      expect(byId(after, 'keys').attributes['value']).toBe('hi there');
    });

    it("scrolls the page in all four directions and reports where it is (browser-use's left and right scroll up)", async () => {
      await open('/act/scroll.html');
      const moves: Array<[string, 'scroll_x' | 'scroll_y', (info: BrowserStateSummary['page_info']) => number]> = [
        ['down', 'scroll_y', (info) => info.viewport_height],
        ['right', 'scroll_x', (info) => info.viewport_width],
        ['up', 'scroll_y', () => 0],
        ['left', 'scroll_x', () => 0],
      ];
      for (const [direction, axis, expected] of moves) {
        const result = await driver.ok<Record<string, number | string | boolean>>('scroll', { direction });
        const info = (await driver.ok<BrowserStateSummary>('state')).page_info;
        expect(info[axis], direction).toBe(expected(info));
        expect(result[axis], direction).toBe(info[axis]);
        expect(result['container']).toBe('page');
      }
      const half = await driver.ok<{ moved_y: number }>('scroll', { down: true, pages: 0.5 });
      const info = (await driver.ok<BrowserStateSummary>('state')).page_info;
      expect(Math.abs(half.moved_y - info.viewport_height / 2)).toBeLessThanOrEqual(1);
    });

    it('scrolls a scroll container in all four directions', async () => {
      const state = await open('/act/scroll.html');
      const box = byId(state, 'Scroll box').index;
      expect(await driver.ok('scroll', { index: box, direction: 'down' })).toMatchObject({
        moved_y: 200,
        moved_x: 0,
        scroll_y: 200,
      });
      expect(await driver.ok('scroll', { index: box, direction: 'right', pages: 2 })).toMatchObject({
        moved_x: 600,
        scroll_x: 600,
      });
      const marked = (await driver.ok<BrowserStateSummary>('state')).text;
      expect(marked).toMatch(
        /\|SCROLL\|\[\d+\]<div[^\n]*\(1\.0 pages above, 3\.0 pages below, 2\.0 pages left, 1\.0 pages right\)/,
      );
      expect(await driver.ok('scroll', { index: box, direction: 'up' })).toMatchObject({ scroll_y: 0 });
      expect(await driver.ok('scroll', { index: box, direction: 'left', pages: 5 })).toMatchObject({
        scroll_x: 0,
        at_end: true,
      });
    });

    it('finds text full of quotes and markup characters (browser-use puts it into XPath unescaped)', async () => {
      await open('/act/scroll.html');
      const needle = `O'Brien said "hi" </text> & [x] \\' ') or 1=1`;
      expect(await driver.ok('find_text', { text: needle })).toMatchObject({ found: true });
      const state = await driver.ok<BrowserStateSummary>('state');
      expect(state.page_info.scroll_y).toBeGreaterThan(1500);
      expect(state.text).toContain(`O'Brien said "hi"`);
      expect(await driver.ok('find_text', { text: 'nowhere to be "found"' })).toMatchObject({ found: false });
    });

    it('waits for a text to show and to go (wait_for_text): in the page, across a new document and in a frame; one that never comes fails TIMEOUT', async () => {
      const later = `<h1>Checkout</h1><p id="busy">Processing payment</p>
<button onclick="setTimeout(() => { document.getElementById('busy').remove(); const done = document.createElement('p'); done.textContent = 'Order confirmed'; document.body.append(done); }, 2000)">Confirm later</button>
<button onclick="setTimeout(() => { location.href = '/act/signup-done.html'; }, 300)">Go on</button>`;
      server.route('/act/wait-text.html', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<!doctype html><title>Wait for text</title>${later}`);
      });
      const state = await open('/act/wait-text.html');
      await driver.ok('click', { index: byId(state, 'Confirm later').index });
      // Not there yet: a short wait says so, and names what it waited for.
      const early = await failure('wait_for_text', { text: 'Order confirmed', timeout: 0.2 });
      expect(early.error).toMatchObject({
        code: 'TIMEOUT',
        message: expect.stringContaining('"Order confirmed" was not shown'),
      });
      const shown = await driver.ok<{ waited_ms: number }>('wait_for_text', { text: 'Order confirmed' });
      expect(shown.waited_ms).toBeGreaterThan(0);
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('Order confirmed');
      expect(await driver.ok('wait_for_text', { text: 'Processing payment', gone: true })).toMatchObject({
        tab_id: tab,
      });
      const stays = await failure('wait_for_text', { text: 'Order confirmed', gone: true, timeout: 0.2 });
      expect(stays.error).toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('was still shown') });
      // The text comes with the next document.
      await driver.ok('click', { index: byId(await driver.ok<BrowserStateSummary>('state'), 'Go on').index });
      await driver.ok('wait_for_text', { text: 'Welcome aboard' });
      expect((await driver.ok<BrowserStateSummary>('state')).url).toContain('/act/signup-done.html');
      // In an out-of-process frame.
      await open('/act/frames.html');
      await driver.ok('wait_for_text', { text: 'Deep inside the frame', timeout: 5 });
      for (const bad of [
        { text: '' },
        { text: 'x', timeout: 61 },
        { text: 'x', timeout: -1 },
        { text: 'x', gone: 'yes' },
      ]) {
        expect((await failure('wait_for_text', bad)).error.code).toBe('INVALID_PARAMS');
      }
    });

    it('uploads files by their bytes; the page reads them back', async () => {
      const state = await open('/act/upload.html');
      const file = { name: 'notes.txt', mime_type: 'text/plain', content_base64: btoa('hello tabpilot') };
      expect(await driver.ok('upload_file', { index: byId(state, 'file').index, files: [file] })).toMatchObject({
        method: 'bytes',
        files: [{ name: 'notes.txt', size: 14, type: 'text/plain' }],
      });
      let after = await stateShowing('file: name=notes.txt size=14 type=text/plain content=hello tabpilot');
      expect(byId(after, 'file').attributes['files']).toBe('notes.txt');
      // A styled button stands for the hidden input next to it.
      await driver.ok('upload_file', {
        index: byId(state, 'Choose a file…').index,
        files: [{ name: 'a.csv', mime_type: 'text/csv', content_base64: btoa('x,y\n1,2') }],
      });
      after = await stateShowing('hidden-file: name=a.csv size=7 type=text/csv content=x,y');
      const two = [file, { ...file, name: 'more.txt' }];
      expect((await failure('upload_file', { index: byId(state, 'file').index, files: two })).error.code).toBe(
        'INVALID_PARAMS',
      );
      await driver.ok('upload_file', { index: byId(state, 'many').index, files: two });
      expect(byId(await driver.ok<BrowserStateSummary>('state'), 'many').attributes['files']).toBe(
        'notes.txt, more.txt',
      );
    });

    it("picks a native select option the way a React app accepts it (browser-use's instance setter is ignored)", async () => {
      const state = await open('/act/select.html');
      const fruit = byId(state, 'fruit').index;
      const listed = await driver.ok<{ type: string; options: Array<{ text: string; disabled: boolean }> }>(
        'dropdown_options',
        { index: fruit },
      );
      expect(listed.type).toBe('select');
      expect(listed.options.map((option) => option.text)).toEqual(['Pick one', 'Apple', 'Banana', 'Cherry']);
      expect(await driver.ok('select_dropdown', { index: fruit, text: 'banana' })).toMatchObject({
        selected: { text: 'Banana', value: 'b' },
      });
      // The page re-renders from its state on any click: the pick must have reached that state.
      await driver.ok('click', { index: byId(state, 'Colour').index });
      const after = await driver.ok<BrowserStateSummary>('state');
      expect(after.text).toContain('fruit: b');
      expect(byId(after, 'fruit').attributes['value']).toBe('Banana');
      const missing = await failure('select_dropdown', { index: fruit, text: 'Durian' });
      expect(missing.error.message).toContain('"Apple"');
      expect((await failure('select_dropdown', { index: fruit, text: 'Cherry' })).error.message).toContain('disabled');
      const clicked = await driver.ok<{ clicked: boolean; options: unknown[] }>('click', { index: fruit });
      expect(clicked.clicked).toBe(false);
      expect(clicked.options).toHaveLength(4);
    });

    it('lists and picks options of an ARIA combobox with trusted clicks', async () => {
      const state = await open('/act/select.html');
      const combobox = byId(state, 'Colour').index;
      const listed = await driver.ok<{ type: string; options: Array<{ text: string; value: string }> }>(
        'dropdown_options',
        { index: combobox },
      );
      expect(listed.type).toBe('listbox');
      expect(listed.options.map((option) => option.value)).toEqual(['red', 'green', 'blue']);
      // Reading the options closes the list again.
      expect(byId(await driver.ok<BrowserStateSummary>('state'), 'Colour').attributes['aria-expanded']).toBe('false');
      expect(await driver.ok('select_dropdown', { index: combobox, text: 'Green' })).toMatchObject({
        type: 'listbox',
        selected: { text: 'Green', value: 'green' },
      });
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('colour: green');
    });

    it('hovers to open a menu, drags a card onto a zone (HTML5) and moves a slider (mouse)', async () => {
      const state = await open('/act/pointer.html');
      expect(state.text).not.toContain('Laptops');
      // The menu's trigger is what the pointer came over (checked, not assumed): nothing was moved again.
      expect(await driver.ok('hover', { index: byId(state, 'Products').index })).toMatchObject({ retried: null });
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('Laptops');
      expect(
        await driver.ok('drag', { index: byId(state, 'card').index, to_index: byId(state, 'zone').index }),
      ).toMatchObject({ method: 'html5', retried: null });
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('dropped: card');
      const slider = byId(state, 'Slider').box;
      expect(
        await driver.ok('drag', {
          index: byId(state, 'Slider').index,
          to_x: slider.x + slider.width * 0.75,
          to_y: slider.y + slider.height / 2,
        }),
      ).toMatchObject({ method: 'mouse' });
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('slider: 75');
    });

    it('clicks and types in a background tab without bringing it forward', async () => {
      const background = await driver.openTab(server.url('/act/buttons.html'));
      const formTab = await driver.openTab(server.url('/act/form.html'));
      const front = await driver.openTab(server.url('/act/reporter.html'));
      const frontBefore = (await driver.ok<BrowserStateSummary>('state', { tab_id: front })).text;
      expect(frontBefore).toContain('visibility: visible');
      const buttons = await driver.ok<BrowserStateSummary>('state', { tab_id: background });
      await driver.ok('click', { index: byId(buttons, 'Add one').index, tab_id: background });
      const form = await driver.ok<BrowserStateSummary>('state', { tab_id: formTab });
      expect(
        await driver.ok('input', { index: byId(form, 'name').index, text: 'quietly', tab_id: formTab }),
      ).toMatchObject({ value: 'quietly', value_matches: true, method: 'insert_text' });
      // Each page reported, at the moment of the event, that it was still hidden. (Chrome's Input domain
      // gives the receiving page input focus, so its document.hasFocus() turns true; the tab stays behind.)
      expect((await driver.ok<BrowserStateSummary>('state', { tab_id: background })).text).toContain(
        'clicks: 1 (visibility: hidden',
      );
      const typed = await driver.ok<BrowserStateSummary>('state', { tab_id: formTab });
      expect(typed.text).toContain('typed: quietly (visibility: hidden');
      expect(byId(typed, 'name').attributes['value']).toBe('quietly');
      // The tab in front saw nothing: no visibility or focus change, the same report as before.
      expect((await driver.ok<BrowserStateSummary>('state', { tab_id: front })).text).toBe(frontBefore);
      for (const id of [background, formTab, front]) {
        await driver.ok('close', { tab_id: id });
      }
      await driver.ok('switch', { tab_id: tab });
    });

    it('hovers and scrolls in a background tab without bringing it forward; a drag there says to switch first', async () => {
      const background = await driver.openTab(server.url('/act/pointer.html'));
      const front = await driver.openTab(server.url('/act/reporter.html'));
      const frontBefore = (await driver.ok<BrowserStateSummary>('state', { tab_id: front })).text;
      const state = await driver.ok<BrowserStateSummary>('state', { tab_id: background });
      // A hidden page gets mouse moves only with a rendered frame: the hover makes it render one.
      await driver.ok('hover', { index: byId(state, 'Products').index, tab_id: background });
      expect((await driver.ok<BrowserStateSummary>('state', { tab_id: background })).text).toContain('Laptops');
      expect(await driver.ok('scroll', { direction: 'down', pages: 0.5, tab_id: background })).toMatchObject({
        moved_y: expect.any(Number) as number,
      });
      expect(
        (await driver.ok<BrowserStateSummary>('state', { tab_id: background })).page_info.scroll_y,
      ).toBeGreaterThan(0);
      const drag = { index: byId(state, 'card').index, to_index: byId(state, 'zone').index, tab_id: background };
      const refused = await driver.send('drag', drag);
      expect(refused).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED' } });
      expect(JSON.stringify(refused)).toMatch(/Switch to the tab first/);
      // The person's tab in front saw nothing: no visibility or focus change, the same report as before.
      expect((await driver.ok<BrowserStateSummary>('state', { tab_id: front })).text).toBe(frontBefore);
      await driver.ok('switch', { tab_id: background });
      const shown = await driver.ok<BrowserStateSummary>('state', { tab_id: background });
      expect(
        await driver.ok('drag', {
          index: byId(shown, 'card').index,
          to_index: byId(shown, 'zone').index,
          tab_id: background,
        }),
      ).toMatchObject({ method: 'html5' });
      expect((await driver.ok<BrowserStateSummary>('state', { tab_id: background })).text).toContain('dropped: card');
      for (const id of [background, front]) {
        await driver.ok('close', { tab_id: id });
      }
      await driver.ok('switch', { tab_id: tab });
    });

    it('clicks, types and finds text inside a cross-origin iframe, after the page scrolled since the state', async () => {
      const state = await open('/act/frames.html');
      const button = state.elements.find((element) => element.name === 'Frame button');
      const input = state.elements.find((element) => element.attributes['id'] === 'frame-input');
      expect(button).toBeDefined();
      expect(input).toBeDefined();
      // The frame moves up by 100 px: the click must use where it is now, not where the state saw it.
      await driver.ok('scroll', { direction: 'down', pages: 0.1 });
      await driver.ok('click', { index: button?.index });
      expect(await driver.ok('input', { index: input?.index, text: 'inside' })).toMatchObject({ value: 'inside' });
      const after = await driver.ok<BrowserStateSummary>('state');
      expect(after.text).toContain('frame clicks: 1');
      expect(after.elements.find((element) => element.attributes['id'] === 'frame-input')?.attributes['value']).toBe(
        'inside',
      );
      // Text only the out-of-process frame holds, below its fold: found there and scrolled into its view.
      const frameScroll = async (): Promise<unknown[]> =>
        (await driver.evaluateInChildren(tab, 'scrollY')).map((child) => child.value);
      expect(await frameScroll()).toEqual([0]);
      expect(await driver.ok('find_text', { text: 'Deep inside the frame' })).toMatchObject({ found: true });
      const [scrolled] = await frameScroll();
      expect(scrolled).toBeGreaterThan(500);
    });

    it('clicks inside a cross-origin frame of a background tab that scrolled since the state (no frame rendered since)', async () => {
      // A hidden page renders no frames, so the browser's picture of where the frame sits is older than the
      // page's layout: input sent to the tab landed on the embedding page's <iframe> and the click said ok.
      const background = await driver.openTab(server.url('/act/frames.html'));
      const front = await driver.openTab(server.url('/act/reporter.html'));
      const state = await driver.ok<BrowserStateSummary>('state', { tab_id: background });
      await driver.ok('scroll', { direction: 'down', pages: 0.1, tab_id: background });
      const click = await driver.ok('click', { index: byId(state, 'Frame button').index, tab_id: background });
      expect((await driver.ok<BrowserStateSummary>('state', { tab_id: background })).text).toContain('frame clicks: 1');
      // The input went to the frame's own session: not routed by what the browser last saw.
      expect(click).toMatchObject({ clicked: true, method: 'mouse' });
      for (const id of [background, front]) {
        await driver.ok('close', { tab_id: id });
      }
      await driver.ok('switch', { tab_id: tab });
    });

    it('checks that the press reached the element: one that moved away is clicked again at its new place, nothing else gets it', async () => {
      const state = await open('/act/runaway.html');
      const click = await driver.ok('click', { index: byId(state, 'Runaway').index });
      // The first press landed on the decoy left behind: it was stopped there and sent again.
      expect(click).toMatchObject({ clicked: true, retried: expect.stringContaining('decoy') as string });
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('clicks: decoy 0, runaway 1');
    });

    it("checks that a drag's press reached its element: a card that moved away is pressed again at its new place and dropped", async () => {
      const state = await open('/act/runaway-card.html');
      const dragged = await driver.ok('drag', {
        index: byId(state, 'runcard').index,
        to_index: byId(state, 'runzone').index,
      });
      // The first press landed on the decoy left behind: it was stopped there before the page saw it.
      expect(dragged).toMatchObject({ method: 'html5', retried: expect.stringContaining('decoy') as string });
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('presses: decoy 0; dropped: card');
    });

    it('answers ELEMENT_OCCLUDED when an overlay opened on hover took the click, and neither got it', async () => {
      const state = await open('/act/hover-overlay.html');
      const refused = await failure('click', { index: byId(state, 'Open details').index });
      expect(refused.error.code).toBe('ELEMENT_OCCLUDED');
      expect(refused.error.message).toMatch(/promo/);
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('clicks: details 0, promo 0');
    });

    it('clicks by index into a cross-origin frame after a reload, a second visit and a late frame; a stale index says take a new state', async () => {
      const frameButton = async (): Promise<number> =>
        byId(await driver.ok<BrowserStateSummary>('state'), 'Frame button').index;
      const clickCounted = async (index: number, count: number): Promise<void> => {
        await driver.ok('click', { index });
        expect((await driver.ok<BrowserStateSummary>('state')).text).toContain(`frame clicks: ${count}`);
      };
      await driver.ok('navigate', { url: server.url('/act/frames.html') });
      await clickCounted(await frameButton(), 1);
      // A reload gives both documents new worlds; the index of the new state names the new frame's button.
      await driver.ok('refresh');
      await clickCounted(await frameButton(), 1);
      await driver.ok('navigate', { url: server.url('/act/frames.html') });
      await clickCounted(await frameButton(), 1);
      // An index of the state before a navigation names nothing in the new document.
      const stale = await frameButton();
      await driver.ok('refresh');
      const refused = await failure('click', { index: stale });
      expect(refused.error).toMatchObject({ code: 'ELEMENT_NOT_FOUND' });
      expect(refused.error.message).toMatch(/take a new state/);
      // A frame added after the page loaded.
      await driver.ok('navigate', { url: server.url('/act/late-frame.html') });
      expect((await driver.ok<BrowserStateSummary>('state')).text).not.toContain('Frame button');
      await driver.evaluateInTab(tab, 'addFrame()');
      const late = await pollUntil(
        async () =>
          (await driver.ok<BrowserStateSummary>('state')).elements.find((e) => e.name === 'Frame button')?.index,
        { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the late frame never showed its button') },
      );
      await clickCounted(late, 1);
    });

    it('answers JavaScript dialogs at once, reports each in the next state only, and dismisses confirm() unless told', async () => {
      const state = await open('/act/dialogs.html');
      await driver.ok('click', { index: byId(state, 'Save').index });
      let after = await driver.ok<BrowserStateSummary>('state');
      expect(after.text).toContain('answers: alert returned undefined');
      expect(after.closed_popup_messages).toEqual(['[alert] Saved! (accepted)']);
      // browser-use repeats every past dialog in every later state; here a dialog is reported once.
      expect((await driver.ok<BrowserStateSummary>('state')).closed_popup_messages).toEqual([]);
      // browser-use accepts confirm(), approving a destructive "Delete?" behind the model's back.
      await driver.ok('click', { index: byId(state, 'Delete everything').index });
      after = await driver.ok<BrowserStateSummary>('state');
      expect(after.text).toContain('answers: confirm returned false');
      expect(after.closed_popup_messages).toEqual(['[confirm] Delete everything? (dismissed)']);
      await hooks.configure(driver, { dialogs: { auto_answer: true, confirm: 'accept' } });
      await driver.ok('click', { index: byId(state, 'Delete everything').index });
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('answers: confirm returned true');
      await hooks.configure(driver, { dialogs: { auto_answer: true, confirm: 'dismiss' } });
      await driver.ok('click', { index: byId(state, 'Rename').index });
      after = await driver.ok<BrowserStateSummary>('state');
      expect(after.text).toContain('answers: prompt returned null');
      expect(after.closed_popup_messages).toEqual(['[prompt] New name? (dismissed)']);
      // An alert in the middle of loading does not stall the navigation.
      const loaded = await open('/act/alert-on-load.html');
      expect(loaded.text).toContain('loaded after the alert');
      expect(loaded.closed_popup_messages).toEqual(['[alert] Welcome (accepted)']);
      expect(await hooks.history(driver)).toContain('"DialogOpenedEvent"');
    });

    it('leaves dialogs open when told: the state shows one, actions are refused naming it, handle_dialog answers it', async () => {
      await hooks.configure(driver, { dialogs: { auto_answer: false, confirm: 'dismiss' } });
      try {
        const state = await open('/act/dialogs.html');
        const none = await failure('handle_dialog', { accept: true });
        expect(none.error.code).toBe('ELEMENT_NOT_FOUND');
        expect(none.error.message).toContain('No JavaScript dialog is open');

        /** Clicks a button whose handler opens a dialog: the click returns although the page is blocked. */
        const openDialog = async (button: string): Promise<BrowserStateSummary> => {
          await driver.ok('click', { index: byId(state, button).index });
          const blocked = await driver.ok<BrowserStateSummary>('state');
          expect(blocked.elements).toEqual([]);
          return blocked;
        };

        let blocked = await openDialog('Save');
        expect(blocked.open_dialog).toMatchObject({ dialog_type: 'alert', message: 'Saved!', default_prompt: null });
        expect(blocked.text).toContain('handle_dialog');
        // Other actions answer at once naming the dialog, reads as well as acts, instead of hanging.
        const refused = await failure('click', { index: byId(state, 'Rename').index });
        expect(refused.error.code).toBe('ELEMENT_OCCLUDED');
        expect(refused.error.message).toContain('alert dialog ("Saved!")');
        const unread = await failure('extract', {});
        expect(unread.error.code).toBe('ELEMENT_OCCLUDED');
        expect(unread.error.message).toContain('"Saved!"');
        expect(await driver.ok('handle_dialog', { accept: true })).toMatchObject({
          dialog_type: 'alert',
          message: 'Saved!',
          accepted: true,
        });
        let after = await stateShowing('answers: alert returned undefined');
        expect(after.open_dialog).toBeNull();
        expect(after.closed_popup_messages).toEqual(['[alert] Saved! (accepted)']);

        blocked = await openDialog('Delete everything');
        expect(blocked.open_dialog).toMatchObject({ dialog_type: 'confirm', message: 'Delete everything?' });
        await driver.ok('handle_dialog', { accept: true });
        await stateShowing('answers: confirm returned true');

        await openDialog('Delete everything');
        expect(await driver.ok('handle_dialog', { accept: false })).toMatchObject({ accepted: false });
        after = await stateShowing('answers: confirm returned false');
        expect(after.closed_popup_messages).toEqual(['[confirm] Delete everything? (dismissed)']);

        blocked = await openDialog('Rename');
        expect(blocked.open_dialog).toMatchObject({
          dialog_type: 'prompt',
          message: 'New name?',
          default_prompt: 'draft',
        });
        const bad = await failure('handle_dialog', { accept: false, prompt_text: 'x' });
        expect(bad.error.code).toBe('INVALID_PARAMS');
        await driver.ok('handle_dialog', { accept: true, prompt_text: 'Final report' });
        await stateShowing('answers: prompt returned Final report');
        // The page is free again: a click goes through as usual.
        await openDialog('Rename');
        await driver.ok('handle_dialog', { accept: false });
        await stateShowing('answers: prompt returned null');
        // A click at a point that opens a dialog happened: it is answered ok, and the dialog waits.
        const save = byId(state, 'Save').box;
        await driver.ok('click', { coordinate_x: save.x + save.width / 2, coordinate_y: save.y + save.height / 2 });
        expect((await driver.ok<BrowserStateSummary>('state')).open_dialog).toMatchObject({ message: 'Saved!' });
        await driver.ok('handle_dialog', { accept: true });
      } finally {
        await hooks.configure(driver, { dialogs: { auto_answer: true, confirm: 'dismiss' } });
      }
    });

    it('fills a secret only on a matching page and never lets its value reach history or results', async () => {
      await hooks.configure(driver, { sensitive_data: { localhost: { password: SECRET } } });
      await driver.ok('subscribe', { events: ['*'] });
      const state = await open('/act/form.html');
      const result = await driver.ok('input', { index: byId(state, 'pw').index, text: '<secret>password</secret>' });
      expect(result).toMatchObject({ value: null, value_matches: true });
      await driver.ok('click', { index: byId(state, 'Send').index });
      await pollUntil(() => (pages.submissions.length > 0 ? true : undefined), {
        timeoutMs: 10_000,
        onTimeout: () => new Error('the form was never posted'),
      });
      expect(new URLSearchParams(pages.submissions.at(-1)).get('pw')).toBe(SECRET);
      // The other site (127.0.0.1) is not covered by the pattern: refused, the value named nowhere.
      await driver.ok('navigate', { url: server.crossUrl('/act/form.html') });
      const other = await driver.ok<BrowserStateSummary>('state');
      const refused = await failure('input', { index: byId(other, 'pw').index, text: '<secret>password</secret>' });
      expect(refused.error.code).toBe('FORBIDDEN');
      expect(refused.error.message).toContain('"password"');
      const unknown = await failure('input', { index: byId(other, 'pw').index, text: '<secret>nope</secret>' });
      expect(unknown.error.code).toBe('INVALID_PARAMS');
      const seen = JSON.stringify([result, refused, unknown, await driver.takeEvents(), await hooks.history(driver)]);
      expect(seen).toContain('<secret>password</secret>');
      expect(seen).not.toContain(SECRET);
      await driver.ok('unsubscribe');
      await hooks.configure(driver, { sensitive_data: {} });
    });

    describe('batch', () => {
      interface BatchAnswer {
        steps: Array<{ action: string; ok: boolean; error?: { code: string }; expectation_failed?: string }>;
        completed: number;
        stopped_at: number | null;
        reason: string | null;
      }
      const signup = async (): Promise<Record<string, number>> => {
        const state = await open('/act/signup.html');
        // Form fields by their id, buttons by their name.
        const keys = { name: 'name', email: 'email', terms: 'terms', next: 'Next', finish: 'Finish' };
        return Object.fromEntries(Object.entries(keys).map(([key, lookup]) => [key, byId(state, lookup).index]));
      };

      it('runs the steps in one request and stops at the first whose expectation does not hold, with its reason', async () => {
        const at = await signup();
        const answer = await driver.ok<BatchAnswer>('batch', {
          steps: [
            { action: 'input', params: { index: at['name'], text: 'Ada' } },
            {
              action: 'input',
              params: { index: at['email'], text: 'ada@example.test' },
              expect: { text_appears: 'email looks good' },
            },
            // The terms were not accepted: the page answers, a moment later, with something else.
            {
              action: 'click',
              params: { index: at['next'] },
              expect: { text_appears: 'Step 2 of 2', timeout_ms: 1500 },
            },
            { action: 'click', params: { index: at['finish'] } },
            { action: 'state' },
          ],
        });
        expect(answer).toMatchObject({ completed: 2, stopped_at: 3 });
        expect(answer.steps.map((step) => step.action)).toEqual(['input', 'input', 'click']);
        expect(answer.steps[2]?.expectation_failed).toContain('Step 2 of 2');
        expect(answer.reason).toContain('after click');
        // Finish never ran: the tab is still on the form, which says why.
        const after = await driver.ok<BrowserStateSummary>('state');
        expect(after.url).toContain('/act/signup.html');
        expect(after.text).toContain('Please accept the terms');
      });

      it('runs every step when each holds, waiting for a page that answers late and for a new URL', async () => {
        const at = await signup();
        const answer = await driver.ok<BatchAnswer>('batch', {
          steps: [
            { action: 'input', params: { index: at['name'], text: 'Ada' } },
            { action: 'input', params: { index: at['email'], text: 'ada@example.test' } },
            { action: 'click', params: { index: at['terms'] } },
            {
              action: 'click',
              params: { index: at['next'] },
              expect: { text_appears: 'Step 2 of 2', text_disappears: 'Please accept' },
            },
            {
              action: 'click',
              params: { index: at['finish'] },
              expect: { url_includes: '/act/signup-done.html', text_appears: 'Welcome aboard' },
            },
          ],
        });
        expect(answer).toMatchObject({ completed: 5, stopped_at: null, reason: null });
        expect(answer.steps.every((step) => step.ok)).toBe(true);
      });

      it("stops at a step whose action fails, with the action's own error", async () => {
        const at = await signup();
        const answer = await driver.ok<BatchAnswer>('batch', {
          steps: [
            { action: 'input', params: { index: at['name'], text: 'Grace' } },
            { action: 'click', params: { index: 987_654 } },
            { action: 'click', params: { index: at['finish'] } },
          ],
        });
        expect(answer).toMatchObject({ completed: 1, stopped_at: 2 });
        expect(answer.steps[1]).toMatchObject({ action: 'click', ok: false, error: { code: 'ELEMENT_NOT_FOUND' } });
        expect((await driver.ok<BrowserStateSummary>('state')).url).toContain('/act/signup.html');
      });

      it('refuses a batch naming an action it cannot run, before running any step', async () => {
        const at = await signup();
        const refused = await failure('batch', {
          steps: [
            { action: 'click', params: { index: at['finish'] } },
            { action: 'batch', params: { steps: [] } },
          ],
        });
        expect(refused.error).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'steps.1.action' } });
        const noExpectation = await failure('batch', { steps: [{ action: 'state', expect: {} }] });
        expect(noExpectation.error.code).toBe('INVALID_PARAMS');
        expect((await driver.ok<BrowserStateSummary>('state')).url).toContain('/act/signup.html');
      });
    });
  });
}
