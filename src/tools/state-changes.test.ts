import { describe, expect, it } from 'vitest';
import type { StateSummary } from './actions';
import { ClientStates } from './client-states';
import { changesBetween, changesText, snapshotOf } from './state-changes';

type Element = StateSummary['elements'][number];

function button(index: number, name: string, attributes: Record<string, string> = {}): Element {
  return {
    index,
    tag: 'button',
    role: null,
    name,
    attributes,
    box: { x: 0, y: 0, width: 10, height: 10 },
    is_new: false,
  };
}

/** A state as a client receives it: its text built from the elements the way the serializer shows them. */
function stateOf(
  elements: Element[],
  options: { url?: string; document?: number | null; tab?: string } = {},
): StateSummary {
  const line = (element: Element): string => {
    const attributes = Object.entries(element.attributes)
      .map(([name, value]) => ` ${name}=${value}`)
      .join('');
    return `\t${element.is_new ? '*' : ''}[${element.index}]<${element.tag}${attributes} /> ${element.name}`;
  };
  return {
    tab_id: options.tab ?? 'tab-1',
    url: options.url ?? 'http://site.test/page',
    title: 'Page',
    tabs: [],
    page_info: {
      viewport_width: 800,
      viewport_height: 600,
      page_width: 800,
      page_height: 600,
      scroll_x: 0,
      scroll_y: 0,
      pixels_above: 0,
      pixels_below: 0,
      pixels_left: 0,
      pixels_right: 0,
    },
    text: ['[Start of page]', 'Some words', ...elements.map(line), '[End of page]'].join('\n'),
    elements,
    truncated: false,
    screenshot: null,
    screenshot_format: null,
    closed_popup_messages: [],
    open_dialog: null,
    pending_network_requests: [],
    pagination_buttons: [],
    browser_errors: [],
    console_errors: 0,
    downloaded_files: [],
    is_pdf_viewer: false,
    recent_events: null,
    page_stats: { elements: 0, interactive: 0, iframes: 0, shadow_roots: 0, images: 0, links: 0 },
    timings: { total_ms: 0, dom_ms: 0, in_page_ms: 0, screenshot_ms: 0 },
    state_error: null,
    document: options.document === undefined ? 1 : options.document,
    changes: null,
  };
}

const NOTHING = { full: false, reason: null, added: [], removed: [], changed: [] };

describe('changesBetween', () => {
  const before = snapshotOf(stateOf([button(1, 'Open'), button(2, 'Save'), button(3, 'Close')])) ?? undefined;

  it('lists added, removed and changed elements by index, in order', () => {
    const now = snapshotOf(
      stateOf([
        button(1, 'Open', { 'aria-expanded': 'true' }),
        button(3, 'Close'),
        button(7, 'Item b'),
        button(5, 'Item a'),
      ]),
    );
    expect(changesBetween(before, now)).toEqual({
      full: false,
      reason: null,
      added: [5, 7],
      removed: [2],
      changed: [1],
    });
  });

  it('finds nothing when the page shows the same elements, whatever their new-marks and depth', () => {
    const again = stateOf([{ ...button(1, 'Open'), is_new: true }, button(2, 'Save'), button(3, 'Close')]);
    expect(changesBetween(before, snapshotOf({ ...again, text: again.text.replaceAll('\t', '\t\t') }))).toEqual(
      NOTHING,
    );
  });

  it('sees a changed value, checked state or name as a change of that element', () => {
    const field = (value: string, checked: string): Element => ({
      ...button(4, 'Agree'),
      tag: 'input',
      attributes: { value, checked },
    });
    const was = snapshotOf(stateOf([field('a', 'false')])) ?? undefined;
    expect(changesBetween(was, snapshotOf(stateOf([field('b', 'false')]))).changed).toEqual([4]);
    expect(changesBetween(was, snapshotOf(stateOf([field('a', 'true')]))).changed).toEqual([4]);
    expect(changesBetween(was, snapshotOf(stateOf([{ ...field('a', 'false'), name: 'Disagree' }]))).changed).toEqual([
      4,
    ]);
  });

  it('answers the whole state when there is no earlier state', () => {
    expect(changesBetween(undefined, snapshotOf(stateOf([button(1, 'Open')])))).toEqual({
      full: true,
      reason: 'no earlier state of this tab for this client',
      added: [],
      removed: [],
      changed: [],
    });
  });

  it('answers the whole state for a new document or another URL, not for a hash change', () => {
    const replaced = { full: true, reason: 'the page was replaced: its indexes start anew' };
    const same = [button(1, 'Open'), button(2, 'Save'), button(3, 'Close')];
    expect(changesBetween(before, snapshotOf(stateOf(same, { document: 2 })))).toMatchObject(replaced);
    expect(changesBetween(before, snapshotOf(stateOf(same, { url: 'http://site.test/other' })))).toMatchObject(
      replaced,
    );
    expect(changesBetween(before, snapshotOf(stateOf(same, { url: 'http://site.test/page?q=1' })))).toMatchObject(
      replaced,
    );
    expect(changesBetween(before, snapshotOf(stateOf(same, { url: 'http://site.test/page#part' })))).toEqual(NOTHING);
  });

  it('answers the whole state when this state has no captured page (a dialog, a failed capture)', () => {
    expect(snapshotOf(stateOf([], { document: null }))).toBeNull();
    expect(snapshotOf({ ...stateOf([]), state_error: 'slow' })).toBeNull();
    expect(changesBetween(before, null)).toMatchObject({ full: true, reason: 'this state has no page to compare' });
  });
});

describe('changesText', () => {
  it('gives one line per added or changed element as the state shows it, and the removed indexes on one line', () => {
    const before = snapshotOf(stateOf([button(1, 'Open'), button(2, 'Save'), button(3, 'Close')])) ?? undefined;
    const now = snapshotOf(stateOf([button(1, 'Open', { expanded: 'true' }), { ...button(9, 'Item'), is_new: true }]));
    if (now === null) {
      throw new Error('a state with a page has a snapshot');
    }
    expect(changesText(changesBetween(before, now), now)).toBe(
      [
        'Changes since your last state of this page (the indexes stay valid):',
        'Added:',
        '[9]<button /> Item',
        'Changed:',
        '[1]<button expanded=true /> Open',
        'Removed: 2 3',
      ].join('\n'),
    );
    expect(changesText(NOTHING, now)).toBe('No change since your last state of this page.');
  });
});

describe('ClientStates', () => {
  const first = stateOf([button(1, 'Open')]);
  const opened = stateOf([button(1, 'Open'), button(2, 'Item')]);

  it('answers each client its own changes: another client reading the tab in between changes nothing', () => {
    const one = new ClientStates();
    const two = new ClientStates();
    expect(one.answer(first, true).changes).toMatchObject({ full: true });
    expect(two.answer(first, false).changes).toBeNull();
    // The second client reads the opened menu first; the first client still gets the item as added.
    expect(two.answer(opened, true)).toMatchObject({
      changes: { full: false, added: [2] },
      text: expect.stringContaining('[2]<button /> Item'),
    });
    const answer = one.answer(opened, true);
    expect(answer.changes).toEqual({ full: false, reason: null, added: [2], removed: [], changed: [] });
    expect(answer.elements.map((element) => element.index)).toEqual([2]);
    expect(one.answer(opened, true).changes).toEqual(NOTHING);
  });

  it('keeps each tab apart, and forgets every tab on release', () => {
    const states = new ClientStates();
    states.answer(first, false);
    expect(states.answer(stateOf([button(1, 'Other')], { tab: 'tab-2' }), true).changes).toMatchObject({ full: true });
    expect(states.answer(opened, true).changes).toMatchObject({ full: false, added: [2] });
    states.forget();
    expect(states.answer(opened, true).changes).toMatchObject({ full: true });
  });

  it('takes changes_only from the params of what the client ran, forgets on release, passes the rest as it is', () => {
    const states = new ClientStates();
    states.received('state', {}, first);
    expect(states.received('state', { changes_only: true }, opened)).toMatchObject({ changes: { added: [2] } });
    const other = { clicked: 2 };
    expect(states.received('click', { index: 2 }, other)).toBe(other);
    states.received('release', {}, { released_tab_ids: ['tab-1'] });
    expect(states.received('state', { changes_only: true }, opened)).toMatchObject({ changes: { full: true } });
  });

  it('answers the whole state unchanged, marked full, and the state as it is without changes_only', () => {
    const states = new ClientStates();
    expect(states.answer(first, false)).toBe(first);
    const whole = states.answer(stateOf([button(1, 'Open')], { document: 5 }), true);
    expect(whole.text).toContain('[1]<button /> Open');
    expect(whole.changes).toMatchObject({ full: true, reason: 'the page was replaced: its indexes start anew' });
  });
});
