import { describe, expect, it } from 'vitest';
import { groupedActions, actionLabel, hiddenParams } from './action-labels';
import { coverageLine, elementState, matchesFilter, type PageState } from './page-state';

const page = (below: number, above = 0, count = 3): PageState => ({
  url: 'https://a.test/',
  title: 'A',
  elements: Array.from({ length: count }, (_, i) => ({ index: i + 1, tag: 'button', role: 'button', name: `B${i}` })),
  page_info: { viewport_width: 800, viewport_height: 600, pixels_above: above, pixels_below: below },
});

describe('the page view in words', () => {
  it('says how much of the page the elements cover and where the rest is', () => {
    expect(coverageLine(page(0), 3, false)).toBe('3 elements shown: the whole page is in view');
    expect(coverageLine(page(4200.4), 3, false)).toBe(
      '3 elements shown, near the view; the page goes on 4200 px below: read the whole page or scroll for more',
    );
    expect(coverageLine(page(10, 300), 1, false)).toBe(
      '1 of 3 elements shown, near the view; the page goes on 300 px above and 10 px below: read the whole page or scroll for more',
    );
    expect(coverageLine(page(4200), 2, true)).toBe('2 of 3 elements shown, from the whole page');
  });

  it("says an element's value or checked state, and filters on it", () => {
    const box = { index: 4, tag: 'input', role: 'checkbox', name: 'Subscribe', attributes: { checked: 'false' } };
    const city = { index: 5, tag: 'input', role: 'textbox', name: 'City', attributes: { value: 'Lisbon' } };
    expect(elementState(box)).toBe('not checked');
    expect(elementState({ ...box, attributes: { checked: 'true', disabled: 'true' } })).toBe('checked, disabled');
    expect(elementState(city)).toBe('value "Lisbon"');
    expect(elementState({ index: 6, tag: 'button', role: 'button', name: 'Go' })).toBe('');
    expect(matchesFilter(city, 'lisbon')).toBe(true);
    expect(matchesFilter(city, '[5]')).toBe(true);
    expect(matchesFilter(city, 'subscribe')).toBe(false);
    expect(matchesFilter(box, '  ')).toBe(true);
  });
});

describe('the actions as a person looks for them', () => {
  it('groups by category in a fixed order, with readable names, and leaves out what another param says', () => {
    const info = (name: string, category: string) => ({ name, description: '', category, schema: {} });
    const groups = groupedActions([
      info('stop', 'session'),
      info('click', 'page'),
      info('tabs', 'tabs'),
      info('x', 'new'),
    ]);
    expect(groups.map((group) => group.label)).toEqual(['Page', 'Tabs', 'Session', 'new']);
    expect(actionLabel('navigate')).toBe('Go to a URL');
    expect(actionLabel('some_new_action')).toBe('some new action');
    expect(hiddenParams('scroll')).toEqual(['down']);
    expect(hiddenParams('click')).toEqual([]);
  });
});
