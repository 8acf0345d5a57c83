import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, suggest } from './cli-suggest';

describe('did you mean', () => {
  it('measures edits, a swap of neighbours counting one', () => {
    expect(editDistance('tabs', 'tabs')).toBe(0);
    expect(editDistance('tbas', 'tabs')).toBe(1);
    expect(editDistance('clik', 'click')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('offers the close words, nearest first, and nothing for a word far from all', () => {
    const known = ['navigate', 'tabs', 'click', 'close', 'state', 'screenshot', 'go_back'];
    expect(suggest('clik', known)).toEqual(['click']);
    expect(suggest('screen', known)).toEqual(['screenshot']);
    expect(suggest('cose', known)).toEqual(['close']);
    expect(suggest('frobnicate', known)).toEqual([]);
    expect(didYouMean('frobnicate', known)).toBe('');
    expect(didYouMean('idx', ['index', 'tab-id'], '--')).toBe(' (did you mean "--index"?)');
    expect(didYouMean('stat', ['state', 'start'])).toBe(' (did you mean "start" or "state"?)');
  });
});
