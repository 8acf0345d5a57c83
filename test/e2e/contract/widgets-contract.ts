import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StateSummary } from '../../../src/tools/actions';
import type { CommandResponse } from '../../../src/protocol/commands';
import { pollUntil } from '../../../src/shared/time';
import type { Driver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';
import { addWidgetPages } from '../harness/widget-pages';

type Element = StateSummary['elements'][number];
interface Listed {
  type: string;
  multiple: boolean;
  options: Array<{ text: string; value: string; selected: boolean }>;
}
interface Picked {
  type: string;
  selected: { text: string; value: string } | null;
  selection: Array<{ text: string; value: string }>;
}

const FRUITS = ['Apple', 'Banana', 'Cherry', 'Damson', 'Elderberry', 'Fig', 'Grape', 'Honeydew'];

/**
 * The widgets contract, run unchanged over both transports: `state`, `click`, `input`, `dropdown_options`
 * and `select_dropdown` on real component libraries (Material UI, Ant Design, Radix, Headless UI, React
 * Select, react-datepicker) bundled from test/e2e/widgets. Every pick is proven by what the widget's
 * React state holds, read from the page, not only by tabpilot's answer.
 */
export function defineWidgetsContract(name: string, start: () => Promise<Driver>): void {
  describe(`widgets contract over ${name}`, () => {
    let driver: Driver;
    let tab: string;
    const server = new FixtureServer();

    beforeAll(async () => {
      await server.start();
      await addWidgetPages(server);
      driver = await start();
      tab = await driver.openTab(server.url('/a.html'));
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    /** Navigates to a widget page and waits for React to have mounted it (its `holds:` lines). */
    async function open(path: string): Promise<StateSummary> {
      await driver.ok('navigate', { url: server.url(path) });
      return pollUntil(
        async () => {
          const state = await driver.ok<StateSummary>('state');
          return state.text.includes('holds:') ? state : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 50, onTimeout: () => new Error(`${path} never mounted its widgets`) },
      );
    }

    /** What a widget's React state holds, read from the page; waits (bounded) for `expected`. */
    async function holds(widget: string, expected: string): Promise<void> {
      let last: unknown;
      await pollUntil(
        async () => {
          last = await driver.evaluateInTab(tab, `document.getElementById('held-${widget}')?.dataset.held`);
          return last === expected ? true : undefined;
        },
        {
          timeoutMs: 5000,
          intervalMs: 50,
          onTimeout: () => new Error(`${widget} holds ${JSON.stringify(last)}, not ${JSON.stringify(expected)}`),
        },
      );
    }

    /** The same, for a multi-select whose React state keeps the order of the picks: compared as a set. */
    async function holdsSet(widget: string, expected: string[]): Promise<void> {
      let last: unknown;
      const wanted = [...expected].sort().join(',');
      await pollUntil(
        async () => {
          last = await driver.evaluateInTab(tab, `document.getElementById('held-${widget}')?.dataset.held`);
          return typeof last === 'string' && last.split(',').filter(Boolean).sort().join(',') === wanted
            ? true
            : undefined;
        },
        {
          timeoutMs: 5000,
          intervalMs: 50,
          onTimeout: () => new Error(`${widget} holds ${JSON.stringify(last)}, not the set ${wanted}`),
        },
      );
    }

    function find(state: StateSummary, test: (element: Element) => boolean, what: string): Element {
      const found = state.elements.find(test);
      if (found === undefined) {
        throw new Error(`no indexed element ${what} in:\n${state.text}`);
      }
      return found;
    }

    const byId = (state: StateSummary, id: string): Element =>
      find(state, (element) => element.attributes['id'] === id, `#${id}`);
    const byName = (state: StateSummary, accessible: string): Element =>
      find(state, (element) => element.name === accessible, `named "${accessible}"`);

    /**
     * A state taken until one shows an indexed element named `accessible` that has a size (a list that
     * opened; Ant Design also keeps a sizeless copy of a few options for assistive technology).
     */
    async function stateWith(accessible: string): Promise<{ state: StateSummary; element: Element }> {
      let last = '';
      return pollUntil(
        async () => {
          const state = await driver.ok<StateSummary>('state');
          last = state.text;
          const element = state.elements.find(
            (candidate) => candidate.name === accessible && candidate.box.width > 0 && candidate.box.height > 0,
          );
          return element === undefined ? undefined : { state, element };
        },
        { timeoutMs: 5000, intervalMs: 50, onTimeout: () => new Error(`no state indexed "${accessible}":\n${last}`) },
      );
    }

    async function failure(action: string, params: Record<string, unknown>): Promise<CommandResponse & { ok: false }> {
      const response = await driver.send(action, params);
      if (response.ok) {
        throw new Error(`${action} succeeded but should have failed: ${JSON.stringify(response.result)}`);
      }
      return response;
    }

    const texts = (listed: Listed): string[] => listed.options.map((option) => option.text);

    it('Material UI Select: lists its portal list after the transition, picks by text and by a click', async () => {
      const state = await open('/widgets/mui.html');
      const select = find(
        state,
        (element) => element.role === 'combobox' && element.name === 'Fruit',
        'the Fruit select',
      );
      const listed = await driver.ok<Listed>('dropdown_options', { index: select.index });
      expect(texts(listed)).toEqual(FRUITS);
      expect(listed.options[2]).toMatchObject({ value: 'cherry', selected: false });
      await holds('mui-select', '');
      // Reading closed the list and its backdrop left: the next pick is not refused as covered.
      expect(await driver.ok<Picked>('select_dropdown', { index: select.index, text: 'Cherry' })).toMatchObject({
        type: 'listbox',
        selected: { text: 'Cherry', value: 'cherry' },
        selection: [{ text: 'Cherry', value: 'cherry' }],
      });
      await holds('mui-select', 'cherry');
      // An option it does not have is refused, and the list opened to look for it is closed again: the
      // click that follows is not taken by its backdrop.
      const missing = await failure('select_dropdown', { index: select.index, text: 'Durian' });
      expect(missing.error.code).toBe('INVALID_PARAMS');
      expect(missing.error.message).toContain('"Honeydew"');
      await driver.ok('click', { index: select.index });
      // The state comes while the menu still grows open: the click waits for it to stand still.
      const { element: option } = await stateWith('Elderberry');
      expect(option.role).toBe('option');
      await driver.ok('click', { index: option.index });
      await holds('mui-select', 'elderberry');
    });

    it('Material UI multiple Select: values sets exactly that set; a single Select refuses to hold two', async () => {
      const state = await open('/widgets/mui.html');
      const basket = find(
        state,
        (element) => element.role === 'combobox' && element.name?.startsWith('Basket') === true,
        'the Basket select',
      );
      await holdsSet('mui-multi', ['apple', 'fig']);
      const listed = await driver.ok<Listed>('dropdown_options', { index: basket.index });
      expect(listed.multiple).toBe(true);
      expect(listed.options.filter((option) => option.selected).map((option) => option.text)).toEqual(['Apple', 'Fig']);
      const set = await driver.ok<Picked>('select_dropdown', { index: basket.index, values: ['Banana', 'damson'] });
      expect(set.selected).toBeNull();
      expect(set.selection.map((option) => option.text)).toEqual(['Banana', 'Damson']);
      await holdsSet('mui-multi', ['banana', 'damson']);
      // A pick by text adds to a multi-select and leaves what it holds (a click on a held one would drop it).
      await driver.ok('select_dropdown', { index: basket.index, text: 'Banana' });
      await holdsSet('mui-multi', ['banana', 'damson']);
      await driver.ok('select_dropdown', { index: basket.index, text: 'Grape' });
      await holdsSet('mui-multi', ['banana', 'damson', 'grape']);
      await driver.ok('select_dropdown', { index: basket.index, values: [] });
      await holdsSet('mui-multi', []);
      // A single-select cannot hold two options: the read-back says what it holds instead.
      const fruit = find(
        await open('/widgets/mui.html'),
        (element) => element.role === 'combobox' && element.name === 'Fruit',
        'the Fruit select',
      );
      const two = await failure('select_dropdown', { index: fruit.index, values: ['Apple', 'Banana'] });
      expect(two.error.code).toBe('UNSUPPORTED');
      expect(two.error.message).toContain('holds "Banana"');
      await holds('mui-select', 'banana');
    });

    it('Material UI Autocomplete: typing filters its options, a click and select_dropdown pick one', async () => {
      const state = await open('/widgets/mui.html');
      const input = byId(state, 'mui-autocomplete');
      await driver.ok('input', { index: input.index, text: 'an' });
      const { state: filtered, element: banana } = await stateWith('Banana');
      expect(filtered.elements.some((element) => element.name === 'Apple')).toBe(false);
      await driver.ok('click', { index: banana.index });
      await holds('mui-autocomplete', 'Banana');
      const listed = await driver.ok<Listed>('dropdown_options', { index: input.index });
      expect(texts(listed)).toEqual(FRUITS);
      expect(await driver.ok<Picked>('select_dropdown', { index: input.index, text: 'grape' })).toMatchObject({
        selected: { text: 'Grape' },
      });
      await holds('mui-autocomplete', 'Grape');
    });

    it("Ant Design Select: its virtual list's options are read and picked with the keys; a click on a row picks too", async () => {
      const state = await open('/widgets/antd.html');
      const select = byId(state, 'antd-select');
      // Its ARIA list holds only the active option and its neighbours: every option is still listed, in order.
      const listed = await driver.ok<Listed>('dropdown_options', { index: select.index });
      expect(texts(listed)).toEqual(FRUITS);
      expect(await driver.ok<Picked>('select_dropdown', { index: select.index, text: 'Honeydew' })).toMatchObject({
        selected: { text: 'Honeydew' },
        selection: [{ text: 'Honeydew' }],
      });
      await holds('antd-select', 'honeydew');
      const missing = await failure('select_dropdown', { index: select.index, text: 'Durian' });
      expect(missing.error.code).toBe('INVALID_PARAMS');
      expect(missing.error.message).toContain('"Elderberry"');
      await holds('antd-select', 'honeydew');
      await driver.ok('click', { index: select.index });
      const { state: opened, element: cherry } = await stateWith('Cherry');
      // The sizeless copies it keeps for assistive technology get no index: each option shows once.
      expect(opened.elements.filter((element) => element.name === 'Cherry')).toHaveLength(1);
      expect(opened.elements.filter((element) => element.box.width === 0 || element.box.height === 0)).toEqual([]);
      await driver.ok('click', { index: cherry.index });
      await holds('antd-select', 'cherry');
    });

    it('Ant Design multiple Select: values sets exactly that set; typing searches it', async () => {
      const state = await open('/widgets/antd.html');
      const basket = byId(state, 'antd-multi');
      await holdsSet('antd-multi', ['banana']);
      const set = await driver.ok<Picked>('select_dropdown', { index: basket.index, values: ['Apple', 'Grape'] });
      expect(set.selection.map((option) => option.text)).toEqual(['Apple', 'Grape']);
      await holdsSet('antd-multi', ['apple', 'grape']);
      // Enter on the option it holds would drop it: a pick by text of a held option leaves it held.
      await driver.ok('select_dropdown', { index: basket.index, text: 'Grape' });
      await holdsSet('antd-multi', ['apple', 'grape']);
      await driver.ok('input', { index: basket.index, text: 'Dam' });
      const { element: damson } = await stateWith('Damson');
      await driver.ok('click', { index: damson.index });
      await holdsSet('antd-multi', ['apple', 'grape', 'damson']);
    });

    it('Radix Select: opens on the press, lists its portal options, picks by text and by a click', async () => {
      const state = await open('/widgets/radix.html');
      const trigger = byName(state, 'Radix fruit');
      expect(trigger.role).toBe('combobox');
      // A button that opens a list takes no text: refused with a typed error, the widget untouched.
      const typed = await failure('input', { index: trigger.index, text: 'Fig' });
      expect(typed.error).toMatchObject({ code: 'INVALID_PARAMS', details: { reason: 'not-editable' } });
      await holds('radix-select', '');
      expect(texts(await driver.ok<Listed>('dropdown_options', { index: trigger.index }))).toEqual(FRUITS);
      await driver.ok('select_dropdown', { index: trigger.index, text: 'Fig' });
      await holds('radix-select', 'fig');
      await driver.ok('click', { index: trigger.index });
      const { element: grape } = await stateWith('Grape');
      await driver.ok('click', { index: grape.index });
      await holds('radix-select', 'grape');
    });

    it('Headless UI Listbox: picks one, sets a multiple one to exactly a set, and a click picks too', async () => {
      const state = await open('/widgets/headless.html');
      const listbox = byName(state, 'Pick a fruit');
      expect(texts(await driver.ok<Listed>('dropdown_options', { index: listbox.index }))).toEqual(FRUITS);
      await driver.ok('select_dropdown', { index: listbox.index, text: 'Banana' });
      await holds('headless-listbox', 'Banana');
      const multi = byName(await driver.ok<StateSummary>('state'), 'Cherry');
      const set = await driver.ok<Picked>('select_dropdown', { index: multi.index, values: ['Apple', 'Damson'] });
      expect(set.selection.map((option) => option.text)).toEqual(['Apple', 'Damson']);
      await holdsSet('headless-multi', ['Apple', 'Damson']);
      const single = byName(await driver.ok<StateSummary>('state'), 'Banana');
      await driver.ok('click', { index: single.index });
      const { element: fig } = await stateWith('Fig');
      await driver.ok('click', { index: fig.index });
      await holds('headless-listbox', 'Fig');
    });

    it('Headless UI Combobox: opens with the Down key when a click does not, filters as typed', async () => {
      const state = await open('/widgets/headless.html');
      const combobox = byId(state, 'headless-combobox');
      expect(texts(await driver.ok<Listed>('dropdown_options', { index: combobox.index }))).toEqual(FRUITS);
      await driver.ok('select_dropdown', { index: combobox.index, text: 'Fig' });
      await holds('headless-combobox', 'Fig');
      await driver.ok('input', { index: combobox.index, text: 'erry' });
      const { state: filtered, element: cherry } = await stateWith('Cherry');
      expect(filtered.elements.some((element) => element.name === 'Fig')).toBe(false);
      await driver.ok('click', { index: cherry.index });
      await holds('headless-combobox', 'Cherry');
    });

    it('React Select: lists and picks from its menu, and takes typed text and Enter', async () => {
      const state = await open('/widgets/react-select.html');
      const input = byId(state, 'react-select-input');
      expect(texts(await driver.ok<Listed>('dropdown_options', { index: input.index }))).toEqual(FRUITS);
      await driver.ok('select_dropdown', { index: input.index, text: 'Banana' });
      await holds('react-select', 'banana');
      await driver.ok('input', { index: input.index, text: 'Hon' });
      await stateWith('Honeydew');
      await driver.ok('send_keys', { keys: 'Enter' });
      await holds('react-select', 'honeydew');
    });

    it('react-datepicker: takes a typed date, a click on a day, and a month from its select', async () => {
      const state = await open('/widgets/datepicker.html');
      const input = byId(state, 'datepicker');
      expect(input.attributes['value']).toBe('2026-03-10');
      await driver.ok('input', { index: input.index, text: '2026-03-21' });
      await holds('datepicker', '2026-03-21');
      await driver.ok('click', { index: input.index });
      const { state: calendar, element: day } = await stateWith('Choose Wednesday, March 25th, 2026');
      await driver.ok('click', { index: day.index });
      await holds('datepicker', '2026-03-25');
      await driver.ok('click', { index: input.index });
      await stateWith('Choose Wednesday, March 25th, 2026');
      const month = find(
        await driver.ok<StateSummary>('state'),
        (element) => element.tag === 'select',
        'the month select',
      );
      expect(calendar.elements.length).toBeGreaterThan(0);
      const listed = await driver.ok<Listed>('dropdown_options', { index: month.index });
      expect(listed.type).toBe('select');
      expect(listed.options).toHaveLength(12);
      expect(await driver.ok<Picked>('select_dropdown', { index: month.index, text: 'June' })).toMatchObject({
        type: 'select',
        selection: [{ text: 'June' }],
      });
      await holds('datepicker-month', '2026-06');
    });

    it('a native multi-select is set to exactly a set of options, or refused whole', async () => {
      const state = await open('/native-multi.html');
      const basket = byId(state, 'basket');
      await holds('basket', 'apple,cherry');
      const set = await driver.ok<Picked>('select_dropdown', { index: basket.index, values: ['Banana', 'damson'] });
      expect(set).toMatchObject({ type: 'select', selected: null });
      expect(set.selection.map((option) => option.value)).toEqual(['banana', 'damson']);
      await holds('basket', 'banana,damson');
      const disabled = await failure('select_dropdown', { index: basket.index, values: ['Fig'] });
      expect(disabled.error).toMatchObject({ code: 'INVALID_PARAMS' });
      expect(disabled.error.message).toContain('disabled');
      const missing = await failure('select_dropdown', { index: basket.index, values: ['Apple', 'Durian'] });
      expect(missing.error.code).toBe('INVALID_PARAMS');
      expect(missing.error.message).toContain('Durian');
      await holds('basket', 'banana,damson');
      await driver.ok('select_dropdown', { index: basket.index, values: [] });
      await holds('basket', '');
      const both = await failure('select_dropdown', { index: basket.index, text: 'Apple', values: ['Apple'] });
      expect(both.error.code).toBe('INVALID_PARAMS');
    });

    it('a list walked with the keys whose page undoes the first Down key still lists every option', async () => {
      const state = await open('/undone-key.html');
      const combobox = byId(state, 'undo');
      const listed = await driver.ok<Listed>('dropdown_options', { index: combobox.index });
      // The walk does not take a key that moved nothing for the list's end while an option follows.
      expect(texts(listed)).toEqual(FRUITS);
      expect(await driver.evaluateInTab(tab, 'window.undone')).toBe(1);
    });

    it('a list that never takes the pick fails UNSUPPORTED saying what the control shows', async () => {
      const state = await open('/native-multi.html');
      const stubborn = byName(state, 'Stubborn: Red');
      const response = await failure('select_dropdown', { index: stubborn.index, text: 'Green' });
      expect(response.error.code).toBe('UNSUPPORTED');
      expect(response.error.message).toContain('does not hold "Green"');
      expect(response.error.message).toContain('Stubborn: Red');
    });
  });
}
