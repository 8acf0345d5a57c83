import { describe, expect, it } from 'vitest';
import { stillKeyMeaning } from './dropdown-keys';
import type { ActiveOption } from './in-page-api';

const active = (id: string, followed: boolean): ActiveOption => ({
  id,
  option: { index: 0, text: id, value: id, selected: false, disabled: false },
  followed,
});

describe('a Down key that left the active option where it was', () => {
  it('is the end of the list when no enabled option follows the active one', () => {
    expect(stillKeyMeaning(active('fruit_list_7', false), active('fruit_list_7', false), false)).toBe('end');
  });

  it('is a key the page lost or undid when its list shows an option after the active one', () => {
    expect(stillKeyMeaning(active('fruit_list_0', true), active('fruit_list_0', true), false)).toBe('lost');
  });

  it('may be a key the page undid when it was the walk first, even at the last option (a list that wraps shows nothing after it)', () => {
    expect(stillKeyMeaning(active('fruit_list_7', false), active('fruit_list_7', false), true)).toBe('lost');
  });

  it('is a list that closed during the walk when nothing is active any more', () => {
    expect(stillKeyMeaning(active('fruit_list_2', true), null, false)).toBe('closed');
  });

  it('is a list with no active option at all when there was none before either', () => {
    expect(stillKeyMeaning(null, null, true)).toBe('end');
  });
});
